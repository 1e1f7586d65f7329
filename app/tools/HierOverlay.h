// HierOverlay.h: drawing the hierarchical search (nav/HierPlanner.h) over the level: the abstract
// graph (entrances, their edges within a cluster and across cluster borders), an abstract path,
// and the abstract search's nodes as the A* Stepper shows them. Colours:
//   entrances navy points; edges within a cluster thin navy lines, across borders thin violet;
//   the abstract path thick yellow; search nodes closed amber, open blue, the last popped red.
#pragma once

#include "nav/HierPlanner.h"

#include <vector>

namespace render {
class DebugDraw;
}

namespace navbench {

/// The whole graph (each edge once: from the lower global id).
void drawHierGraph(render::DebugDraw& dd, const nav::HierPlanner& planner);
/// A polyline through `pts` [(x, y, z) * n] drawn above the mesh, with a dot at each point.
void drawHierPath(render::DebugDraw& dd, const std::vector<float>& pts, uint32_t col);
/// The abstract search's nodes (HierPlanner::abstractNodes) with arrows from their parents.
void drawHierSearch(render::DebugDraw& dd, const nav::HierPlanner& planner,
                    const std::vector<nav::HierPlanner::AbstractNode>& nodes, int lastPopped, const float* startPos,
                    const float* endPos);

} // namespace navbench
