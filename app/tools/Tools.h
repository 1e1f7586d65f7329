// Tools.h: the list of viewer tools, in the order the Tools panel shows them. To add a tester
// mode: write tools/ToolXxx.h/.cpp implementing Tool (see Tool.h) and add one line to Tools.cpp.
#pragma once

#include "app/tools/Tool.h"

#include <memory>
#include <vector>

namespace navbench {

/// Creates every tool (not yet initialised); the first one is active at start.
std::vector<std::unique_ptr<Tool>> createTools();

/// The editing tools defined in one .cpp each (no header of their own).
std::unique_ptr<Tool> makeToolTiles(); ///< "Tiles": tools/ToolTiles.cpp
std::unique_ptr<Tool> makeToolPrune(); ///< "Prune": tools/ToolPrune.cpp

} // namespace navbench
