#include "app/tools/Tools.h"

#include "app/tools/ToolPick.h"

namespace navbench {

std::vector<std::unique_ptr<Tool>> createTools() {
  std::vector<std::unique_ptr<Tool>> tools;
  tools.push_back(std::make_unique<ToolPick>());
  return tools;
}

} // namespace navbench
