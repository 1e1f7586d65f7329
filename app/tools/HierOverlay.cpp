#include "app/tools/HierOverlay.h"

#include "render/DebugDraw.h"

#include <glm/glm.hpp>

#include <algorithm>

namespace navbench {

namespace {
const glm::vec3 kLift(0.0f, 0.8f, 0.0f); // above the corridor fill and the straight path
glm::vec3 at(const float* p) { return glm::vec3(p[0], p[1], p[2]) + kLift; }
} // namespace

void drawHierGraph(render::DebugDraw& dd, const nav::HierPlanner& p) {
  const uint32_t entCol = render::rgba(10, 30, 110, 240), intraCol = render::rgba(20, 40, 120, 110),
                 interCol = render::rgba(170, 40, 200, 210);
  for (int c = 0; c < p.clusterCount(); ++c) {
    const nav::HierPlanner::Cluster& cl = p.cluster(c);
    for (size_t i = 0; i < cl.ents.size(); ++i) {
      const nav::HierPlanner::Entrance& e = cl.ents[i];
      const int id = p.entranceId(c, int(i));
      dd.point(at(e.pos), entCol, 5.0f);
      for (uint32_t k = 0; k < e.intraCount; ++k) {
        const nav::HierPlanner::Edge& ed = cl.intra[e.firstIntra + k];
        if (p.entranceId(c, ed.local) > id) dd.line(at(e.pos), at(cl.ents[size_t(ed.local)].pos), intraCol, 1.0f);
      }
      for (uint32_t k = 0; k < e.interCount; ++k) {
        const nav::HierPlanner::Edge& ed = cl.inter[e.firstInter + k];
        if (p.entranceId(ed.cluster, ed.local) > id)
          dd.line(at(e.pos), at(p.cluster(ed.cluster).ents[size_t(ed.local)].pos), interCol, 1.5f);
      }
    }
  }
}

void drawHierPath(render::DebugDraw& dd, const std::vector<float>& pts, uint32_t col) {
  const size_t n = pts.size() / 3;
  const glm::vec3 up(0.0f, 0.4f, 0.0f); // a little above the graph
  for (size_t i = 0; i < n; ++i) {
    dd.point(at(&pts[i * 3]) + up, col, 9.0f);
    if (i > 0) dd.line(at(&pts[i * 3 - 3]) + up, at(&pts[i * 3]) + up, col, 4.0f);
  }
}

void drawHierSearch(render::DebugDraw& dd, const nav::HierPlanner& p,
                    const std::vector<nav::HierPlanner::AbstractNode>& nodes, int lastPopped, const float* startPos,
                    const float* endPos) {
  auto pos = [&](int id) {
    if (id == p.abstractStartId()) return at(startPos);
    if (id == p.abstractGoalId()) return at(endPos);
    return at(p.entrance(id).pos);
  };
  const uint32_t closedCol = render::rgba(255, 170, 0, 240), openCol = render::rgba(60, 140, 255, 240),
                 linkCol = render::rgba(255, 210, 90, 170);
  for (const nav::HierPlanner::AbstractNode& n : nodes) {
    const glm::vec3 q = pos(n.id);
    if (n.parent >= 0) dd.line(pos(n.parent), q, linkCol, 1.5f);
    dd.point(q, n.open ? openCol : closedCol, n.id == lastPopped ? 12.0f : 8.0f);
  }
  if (lastPopped >= 0) dd.circle(pos(lastPopped), 1.2f, render::rgba(255, 40, 40), 2.5f, false);
}

} // namespace navbench
