#include "app/tools/Tools.h"

#include "app/tools/TesterModes.h"
#include "app/tools/ToolConvexVolumes.h"
#include "app/tools/ToolObstacles.h"
#include "app/tools/ToolCrowd.h"
#include "app/tools/ToolOffMeshLinks.h"
#include "app/tools/ToolPick.h"
#include "app/tools/ToolStepper.h"

namespace navbench {

std::vector<std::unique_ptr<Tool>> createTools() {
  std::vector<std::unique_ptr<Tool>> tools;
  tools.push_back(std::make_unique<ToolPick>());
  tools.push_back(std::make_unique<ToolFollow>());
  tools.push_back(std::make_unique<ToolStraight>());
  tools.push_back(std::make_unique<ToolSliced>());
  tools.push_back(std::make_unique<ToolStepper>());
  tools.push_back(std::make_unique<ToolRaycast>());
  tools.push_back(std::make_unique<ToolWallDistance>());
  tools.push_back(std::make_unique<ToolPolysCircle>());
  tools.push_back(std::make_unique<ToolPolysShape>());
  tools.push_back(std::make_unique<ToolLocalNeighbourhood>());
  tools.push_back(std::make_unique<ToolRandomPoints>());
  tools.push_back(std::make_unique<ToolConvexVolumes>());
  tools.push_back(std::make_unique<ToolOffMeshLinks>());
  tools.push_back(makeToolTiles());
  tools.push_back(makeToolPrune());
  tools.push_back(std::make_unique<ToolObstacles>());
  tools.push_back(makeToolCrowd());
  return tools;
}

} // namespace navbench
