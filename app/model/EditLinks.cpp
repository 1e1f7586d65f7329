#include "app/model/EditLinks.h"

#include "app/model/BakeRunner.h"
#include "app/model/LevelEditor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace navbench {

using nav::bake::OffMeshLink;

namespace {
glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }
} // namespace

void EditLinks::reset() {
  m_hasStart = false;
  m_sel.index = -1;
  message.clear();
}

void EditLinks::clear() {
  m_hasStart = false;
  m_sel.index = -1;
}

void EditLinks::fail(const std::string& why) { message.fail(m_ctx.log, "Off-Mesh Links: " + why); }

int EditLinks::linkNear(const glm::vec3& p, float pickRadius) const {
  if (!m_ctx.editor) return -1;
  const auto& ls = m_ctx.editor->links();
  int best = -1;
  float bestDist = 0;
  for (size_t i = 0; i < ls.size(); ++i)
    for (const float* e : {ls[i].start, ls[i].end}) {
      const float d = glm::length(p - v3(e));
      if (d < std::max(ls[i].radius, pickRadius) && (best < 0 || d < bestDist)) {
        best = int(i);
        bestDist = d;
      }
    }
  return best;
}

bool EditLinks::tooLong(const glm::vec3& end) const {
  return m_ctx.editor && std::hypot(end.x - m_start.x, end.z - m_start.z) > m_ctx.editor->maxLinkLength();
}

void EditLinks::select(int index) {
  m_sel.index = -1;
  if (!m_ctx.editor || index < 0 || index >= int(m_ctx.editor->links().size())) return;
  m_sel.index = index;
  m_sel.value = editLink = m_ctx.editor->links()[size_t(index)];
  message.clear();
}

void EditLinks::syncSelection() {
  if (m_ctx.editor) m_sel.follow(m_ctx.editor->links(), sameLink);
}

void EditLinks::click(const glm::vec3& rayStart, const glm::vec3& hit, bool shift) {
  syncSelection();
  if (!m_hasStart) {
    if (!shift) {
      const int l = linkNear(hit, 0.012f * glm::length(hit - rayStart));
      if (l >= 0) {
        select(l);
        return;
      }
    }
    m_sel.index = -1;
    m_hasStart = true;
    m_start = hit;
    message.clear();
    return;
  }
  OffMeshLink l = next;
  l.start[0] = m_start.x;
  l.start[1] = m_start.y;
  l.start[2] = m_start.z;
  l.end[0] = hit.x;
  l.end[1] = hit.y;
  l.end[2] = hit.z;
  m_hasStart = false; // added or refused, the next click starts a new link
  std::string why;
  if (!m_ctx.editor) why = "no level editor";
  if (!m_ctx.editor || !m_ctx.editor->addLink(l, &why)) {
    fail("not added: " + why);
    return;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "added link %d: %.2f m, %s", int(m_ctx.editor->links().size()) - 1,
                double(glm::length(hit - m_start)), l.bidirectional ? "both ways" : "one way");
  message.done(buf);
}

bool EditLinks::applySelected(const OffMeshLink& l, const char* what) {
  if (m_sel.index < 0 || !m_ctx.editor) return false;
  std::string why;
  if (!m_ctx.editor->setLink(m_sel.index, l, &why)) {
    fail(std::string(what) + ": " + why);
    editLink = m_sel.value;
    return false;
  }
  m_sel.value = editLink = l;
  message.done("changed link " + std::to_string(m_sel.index));
  return true;
}

bool EditLinks::removeSelected() {
  syncSelection();
  if (m_sel.index < 0 || !m_ctx.editor) return false;
  std::string why;
  const int index = m_sel.index;
  if (!m_ctx.editor->removeLink(index, &why)) {
    fail("not removed: " + why);
    return false;
  }
  m_sel.index = -1;
  message.done("removed link " + std::to_string(index));
  return true;
}

void EditLinks::dumpState(nlohmann::json& out) const {
  out["hasStart"] = m_hasStart;
  if (m_hasStart) out["start"] = {m_start.x, m_start.y, m_start.z};
  out["bidirectional"] = next.bidirectional;
  out["radius"] = next.radius;
  out["area"] = int(next.area);
  out["flags"] = int(next.flags);
  out["selected"] = m_sel.index;
  out["links"] = m_ctx.editor ? int(m_ctx.editor->links().size()) : 0;
  if (m_ctx.editor) out["maxLinkLength"] = m_ctx.editor->maxLinkLength();
  message.dump(out);
}

} // namespace navbench
