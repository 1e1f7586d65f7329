// ToolCrowd.h: the Crowd tool (RecastDemo's CrowdTool and more, issue 16). Defined in
// tools/ToolCrowd.cpp; this header only makes it for the tool list (tools/Tools.cpp).
#pragma once

#include "app/tools/Tool.h"

#include <memory>

namespace navbench {

/// "Crowd": agents added, removed and sent with clicks, run by nav::crowd::Crowd through the
/// scenario runner (nav/crowd/CrowdRunner.h), so the viewer's crowd is a .crowd.txt scenario.
std::unique_ptr<Tool> makeToolCrowd();

} // namespace navbench
