#include "app/tools/ToolObstacles.h"

#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/BakeRunner.h"
#include "nav/NavMesh.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

namespace navbench {

namespace {

constexpr float kPi = 3.14159265358979f;

double clockMs() { // nowMs()'s clock (app/Document.h)
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

nlohmann::json vec3(const glm::vec3& v) { return nlohmann::json::array({v.x, v.y, v.z}); }

bool readVec3(const nlohmann::json& j, glm::vec3* out) {
  if (!j.is_array() || j.size() != 3) return false;
  for (int i = 0; i < 3; ++i) {
    if (!j[size_t(i)].is_number()) return false;
    (*out)[i] = j[size_t(i)].get<float>();
    if (!std::isfinite((*out)[i])) return false;
  }
  return true;
}

/// Obstacle outline: `n` points of a ring at height y (cylinder: a circle; box: its 4 corners).
void ring(const Obstacle& o, float y, std::vector<glm::vec3>* pts) {
  pts->clear();
  if (o.kind == Obstacle::Cylinder) {
    for (int i = 0; i < 24; ++i) {
      const float a = float(i) / 24.0f * 2.0f * kPi;
      pts->emplace_back(o.pos[0] + std::cos(a) * o.radius, y, o.pos[2] + std::sin(a) * o.radius);
    }
    return;
  }
  const float a = o.kind == Obstacle::OrientedBox ? o.yawDeg * kPi / 180.0f : 0.0f;
  const float c = std::cos(a), s = std::sin(a);
  const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const auto& k : corners) {
    const float lx = k[0] * o.half[0], lz = k[1] * o.half[2];
    // Local -> world: rotate by +yaw about +y (the inverse of TileCacheState::obstacleAt's).
    pts->emplace_back(o.pos[0] + c * lx + s * lz, y, o.pos[2] - s * lx + c * lz);
  }
}

float obstacleTop(const Obstacle& o) {
  return o.pos[1] - TileCacheState::kSink + (o.kind == Obstacle::Cylinder ? o.height : 2 * o.half[1]);
}

} // namespace

TileCacheState* ToolObstacles::cache() const { return m_ctx && m_ctx->nav ? m_ctx->nav->tileCache() : nullptr; }

void ToolObstacles::reset() {
  // The obstacles are the tile cache's: they stay. Only the interaction in progress ends.
  m_drag = -1;
  m_dragPending = false;
  m_msg.clear();
}

void ToolObstacles::onLevelChanged() {
  reset();
  m_sel = -1;
  m_undo.clear();
  m_redo.clear();
  m_hasStart = m_hasEnd = false;
  m_npath = m_nstraight = 0;
}

void ToolObstacles::fail(const std::string& why) { m_msg.set(m_ctx ? m_ctx->log : nullptr, why, true); }

void ToolObstacles::record(std::vector<Obstacle> before) {
  TileCacheState* tc = cache();
  m_undo.push_back({std::move(before), tc->obstacles()});
  if (m_undo.size() > 256) m_undo.erase(m_undo.begin());
  m_redo.clear();
  if (m_ctx && m_ctx->inputChanged) m_ctx->inputChanged(this);
}

void ToolObstacles::onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) {
  TileCacheState* tc = cache();
  if (!tc) {
    fail("no tile cache open: obstacles need a .tcache navmesh (see the panel)");
    return;
  }
  const int at = tc->obstacleAt(&hitPos.x);
  std::string why;
  if (shift && at >= 0) {
    std::vector<Obstacle> before = tc->obstacles();
    if (!tc->remove(at, &why)) return fail(why);
    m_sel = -1;
    record(std::move(before));
    m_msg.set(nullptr, "removed obstacle " + std::to_string(at), false);
    return;
  }
  if (shift) { // the probe: start, then end, then a new start...
    if (!m_hasStart || m_hasEnd) {
      m_start = hitPos;
      m_hasStart = true;
      m_hasEnd = false;
    } else {
      m_end = hitPos;
      m_hasEnd = true;
    }
    recomputeProbe();
    return;
  }
  if (at >= 0) {
    m_sel = at;
    return;
  }
  Obstacle o = m_shape;
  o.pos[0] = hitPos.x;
  o.pos[1] = hitPos.y;
  o.pos[2] = hitPos.z;
  std::vector<Obstacle> before = tc->obstacles();
  if (!tc->add(o, &why)) return fail(why);
  m_sel = int(tc->obstacles().size()) - 1;
  record(std::move(before));
  m_msg.set(nullptr, std::string("dropped a ") + obstacleKindName(o.kind), false);
}

bool ToolObstacles::dragBegin(const glm::vec3& hitPos, bool shift) {
  TileCacheState* tc = cache();
  if (!tc || shift) return false;
  const int at = tc->obstacleAt(&hitPos.x);
  if (at < 0) return false;
  m_drag = m_sel = at;
  m_dragBefore = tc->obstacles();
  m_dragTarget = glm::vec3(tc->obstacles()[size_t(at)].pos[0], tc->obstacles()[size_t(at)].pos[1], tc->obstacles()[size_t(at)].pos[2]);
  m_dragPending = false;
  m_dragTrail.clear();
  return true;
}

void ToolObstacles::dragTo(const glm::vec3& hitPos) {
  if (m_drag < 0) return;
  m_dragTarget = hitPos;
  m_dragPending = true; // moved in update(), as fast as the cache's queue takes it
}

void ToolObstacles::dragEnd(const glm::vec3& hitPos, bool hit) {
  TileCacheState* tc = cache();
  if (m_drag < 0 || !tc) return;
  if (hit) m_dragTarget = hitPos;
  const float* cur = tc->obstacles()[size_t(m_drag)].pos;
  std::string why;
  if (glm::vec3(cur[0], cur[1], cur[2]) != m_dragTarget) {
    if (tc->move(m_drag, &m_dragTarget.x, &why)) m_dragTrail.push_back(m_dragTarget);
    else fail(why);
  }
  const bool moved = tc->obstacles() .size() != m_dragBefore.size() ||
                     !std::equal(m_dragBefore[size_t(m_drag)].pos, m_dragBefore[size_t(m_drag)].pos + 3, tc->obstacles()[size_t(m_drag)].pos);
  if (moved) {
    record(std::move(m_dragBefore));
    m_msg.set(nullptr, "moved obstacle " + std::to_string(m_drag), false);
  }
  m_dragBefore.clear();
  m_drag = -1;
  m_dragPending = false;
}

void ToolObstacles::update(float /*dt*/) {
  TileCacheState* tc = cache();
  if (!tc || m_drag < 0 || !m_dragPending || m_drag >= int(tc->obstacles().size())) return;
  // Rebuilt as it moves: a new position is queued once the cache took the last one.
  if (tc->cache().getRequestCount() > 0) return;
  std::string why;
  if (tc->move(m_drag, &m_dragTarget.x, &why)) m_dragTrail.push_back(m_dragTarget);
  else fail(why);
  m_dragPending = false;
}

void ToolObstacles::undo() {
  TileCacheState* tc = cache();
  if (m_undo.empty() || !tc) return;
  Step s = std::move(m_undo.back());
  m_undo.pop_back();
  std::string why;
  if (!tc->setAll(s.before, &why)) fail(why);
  m_sel = -1;
  m_redo.push_back(std::move(s));
}

void ToolObstacles::redo() {
  TileCacheState* tc = cache();
  if (m_redo.empty() || !tc) return;
  Step s = std::move(m_redo.back());
  m_redo.pop_back();
  std::string why;
  if (!tc->setAll(s.after, &why)) fail(why);
  m_sel = -1;
  m_undo.push_back(std::move(s));
}

void ToolObstacles::recomputeProbe() {
  m_npath = m_nstraight = 0;
  m_status = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !nav->loaded() || !m_hasStart || !m_hasEnd) return;
  glm::vec3 s, e;
  const nav::PolyRef sref = nav->nearestPoly(m_start, &s), eref = nav->nearestPoly(m_end, &e);
  if (!sref || !eref) {
    m_status = nav::FAILURE;
    return;
  }
  m_path.resize(kMaxPolys);
  m_status = nav->query().findPath(sref, eref, &s.x, &e.x, &nav->filter(), m_path.data(), &m_npath, kMaxPolys);
  if (nav::statusFailed(m_status) || m_npath == 0) return;
  float endPos[3] = {e.x, e.y, e.z};
  if (m_path[size_t(m_npath - 1)] != eref) // partial: end at the closest point of the last poly
    nav->query().closestPointOnPoly(m_path[size_t(m_npath - 1)], &e.x, endPos, nullptr);
  m_straight.resize(size_t(kMaxStraight) * 3);
  nav->query().findStraightPath(&s.x, endPos, m_path.data(), m_npath, m_straight.data(), nullptr, nullptr, &m_nstraight,
                                kMaxStraight);
}

void ToolObstacles::drawUi() {
  TileCacheState* tc = cache();
  if (!tc) {
    ImGui::TextWrapped("Obstacles need a tile cache navmesh (.tcache): compressed layers whose tiles are rebuilt in "
                       "place. The open navmesh is %s.",
                       m_ctx && m_ctx->nav && m_ctx->nav->loaded() ? "a tile set (.bin)" : "none");
    // The level the Bake panel bakes (an OBJ or its level file), else the navmesh's level file by name.
    std::string level = "LEVEL.json";
    if (m_ctx && m_ctx->bake && m_ctx->bake->hasSource()) level = m_ctx->bake->source();
    else if (m_ctx && m_ctx->nav && m_ctx->nav->loaded()) level = std::filesystem::path(m_ctx->nav->path()).replace_extension(".json").string();
    ImGui::TextWrapped("Bake one, then open it (File > Open, or drop it here; a .tcache beside an OBJ is opened "
                       "with it when there is no .bin):");
    const std::string cmd = "navbench bake " + level + " --layers -o " +
                            std::filesystem::path(level).replace_extension(".tcache").string();
    ImGui::TextWrapped("%s", cmd.c_str());
    if (ImGui::SmallButton("Copy command")) ImGui::SetClipboardText(cmd.c_str());
    m_msg.show();
    return;
  }
  int kind = int(m_shape.kind);
  ImGui::TextUnformatted("Click drops:");
  ImGui::RadioButton("Cylinder", &kind, Obstacle::Cylinder);
  ImGui::SameLine();
  ImGui::RadioButton("Box", &kind, Obstacle::Box);
  ImGui::SameLine();
  ImGui::RadioButton("Oriented box", &kind, Obstacle::OrientedBox);
  m_shape.kind = Obstacle::Kind(kind);
  if (m_shape.kind == Obstacle::Cylinder) {
    ImGui::SliderFloat("Radius", &m_shape.radius, 0.1f, 10.0f, "%.2f wu");
    ImGui::SliderFloat("Height", &m_shape.height, 0.1f, 10.0f, "%.2f wu");
  } else {
    ImGui::SliderFloat3("Half extents", m_shape.half, 0.1f, 10.0f, "%.2f");
    if (m_shape.kind == Obstacle::OrientedBox) ImGui::SliderFloat("Yaw", &m_shape.yawDeg, -180.0f, 180.0f, "%.0f deg");
  }
  ImGui::TextDisabled("Click: drop / select. Shift+click: remove it. Drag: move it.");
  ImGui::TextDisabled("Shift+click on the ground: probe path start, then end.");
  ImGui::Separator();
  ImGui::Text("%d obstacles, %d requests queued, %d tiles to rebuild", int(tc->obstacles().size()), tc->cache().getRequestCount(),
              tc->cache().getUpdateCount());
  ImGui::Text("Tiles rebuilt: %d (last update %.2f ms)", int(tc->rebuilt().size()), tc->lastUpdateMs());
  if (m_sel >= 0 && m_sel < int(tc->obstacles().size())) {
    const Obstacle& o = tc->obstacles()[size_t(m_sel)];
    ImGui::Text("Selected: %s %d at (%.2f, %.2f, %.2f)", obstacleKindName(o.kind), m_sel, double(o.pos[0]), double(o.pos[1]),
                double(o.pos[2]));
    if (ImGui::SmallButton("Remove selected")) {
      std::vector<Obstacle> before = tc->obstacles();
      std::string why;
      if (tc->remove(m_sel, &why)) record(std::move(before));
      else fail(why);
      m_sel = -1;
    }
  }
  if (!tc->obstacles().empty() && ImGui::SmallButton("Remove all")) {
    std::vector<Obstacle> before = tc->obstacles();
    std::string why;
    if (tc->setAll({}, &why)) record(std::move(before));
    else fail(why);
    m_sel = -1;
  }
  if (m_hasStart) {
    if (!m_hasEnd) ImGui::TextUnformatted("Probe: start set; Shift+click the end");
    else if (m_nstraight > 0) {
      float len = 0;
      for (int i = 1; i < m_nstraight; ++i)
        len += glm::distance(glm::vec3(m_straight[size_t(i - 1) * 3], m_straight[size_t(i - 1) * 3 + 1], m_straight[size_t(i - 1) * 3 + 2]),
                             glm::vec3(m_straight[size_t(i) * 3], m_straight[size_t(i) * 3 + 1], m_straight[size_t(i) * 3 + 2]));
      ImGui::Text("Probe path: %d polys, %d corners, %.2f wu%s", m_npath, m_nstraight, double(len),
                  nav::statusDetail(m_status, nav::PARTIAL_RESULT) ? " (partial)" : "");
    } else {
      ImGui::TextUnformatted("Probe path: none");
    }
    if (ImGui::SmallButton("Clear probe")) {
      m_hasStart = m_hasEnd = false;
      m_npath = m_nstraight = 0;
    }
  }
  m_msg.show();
}

void ToolObstacles::draw(render::DebugDraw& dd) {
  TileCacheState* tc = cache();
  if (!tc) return;
  // Rebuilt tiles flash: their navmesh polys, fading out over kFlashMs.
  const double now = clockMs();
  const nav::NavMesh& mesh = m_ctx->nav->mesh();
  for (auto it = tc->rebuilt().rbegin(); it != tc->rebuilt().rend() && now - it->whenMs < kFlashMs; ++it) {
    const float k = float(1.0 - (now - it->whenMs) / kFlashMs);
    const uint32_t fill = render::rgba(255, 230, 40, uint8_t(150 * k)), edge = render::rgba(255, 200, 0, uint8_t(255 * k));
    const float y0 = it->bmin[1], y1 = it->bmax[1];
    dd.wireBox(glm::vec3(it->bmin[0], y0, it->bmin[2]), glm::vec3(it->bmax[0], y1, it->bmax[2]), edge, 2.0f);
    const nav::MeshTile* t = mesh.getTileAt(it->x, it->y, it->layer);
    if (!t || !t->header) continue;
    for (int pi = 0; pi < t->header->polyCount; ++pi) {
      const nav::Poly& p = t->polys[pi];
      if (p.getType() != nav::POLYTYPE_GROUND) continue;
      const nav::PolyDetail& pd = t->detailMeshes[pi];
      for (int j = 0; j < pd.triCount; ++j) {
        const uint8_t* tri = &t->detailTris[(pd.triBase + uint32_t(j)) * 4];
        glm::vec3 v[3];
        for (int q = 0; q < 3; ++q) {
          const float* src = tri[q] < p.vertCount ? &t->verts[p.verts[tri[q]] * 3]
                                                  : &t->detailVerts[(pd.vertBase + tri[q] - p.vertCount) * 3];
          v[q] = glm::vec3(src[0], src[1] + 0.05f, src[2]);
        }
        dd.triangle(v[0], v[1], v[2], fill);
      }
    }
  }
  // The obstacles: pending ones orange, in the navmesh red, the selected one outlined white.
  std::vector<glm::vec3> lo, hi;
  for (int i = 0; i < int(tc->obstacles().size()); ++i) {
    const Obstacle& o = tc->obstacles()[size_t(i)];
    const nav::tilecache::TileCacheObstacle* ob = tc->cache().getObstacleByRef(tc->ref(i));
    const bool done = ob && ob->state == nav::tilecache::OBSTACLE_PROCESSED;
    const uint32_t side = done ? render::rgba(220, 60, 30, 110) : render::rgba(255, 160, 0, 110);
    const uint32_t line = i == m_sel ? render::rgba(255, 255, 255) : done ? render::rgba(120, 20, 0) : render::rgba(200, 100, 0);
    const float y0 = o.pos[1] - TileCacheState::kSink + 0.45f, y1 = obstacleTop(o);
    ring(o, y0, &lo);
    ring(o, y1, &hi);
    const size_t n = lo.size();
    for (size_t k = 0; k < n; ++k) {
      const size_t m = (k + 1) % n;
      dd.triangle(lo[k], lo[m], hi[m], side);
      dd.triangle(lo[k], hi[m], hi[k], side);
      dd.triangle(hi[0], hi[k], hi[m], side);
      dd.line(lo[k], lo[m], line, 2.0f);
      dd.line(hi[k], hi[m], line, 2.0f);
      if (o.kind != Obstacle::Cylinder || k % 6 == 0) dd.line(lo[k], hi[k], line, 2.0f);
    }
  }
  // The probe path.
  const glm::vec3 up(0, 0.3f, 0);
  if (m_hasStart) dd.point(m_start + up, render::rgba(128, 25, 0), 12.0f, false);
  if (m_hasEnd) dd.point(m_end + up, render::rgba(51, 102, 0), 12.0f, false);
  for (int i = 1; i < m_nstraight; ++i) {
    const float* a = &m_straight[size_t(i - 1) * 3];
    const float* b = &m_straight[size_t(i) * 3];
    dd.line(glm::vec3(a[0], a[1], a[2]) + up, glm::vec3(b[0], b[1], b[2]) + up, render::rgba(20, 60, 200), 4.0f, false);
  }
}

void ToolObstacles::dumpState(nlohmann::json& out) const {
  out["shape"] = {{"kind", obstacleKindName(m_shape.kind)}, {"radius", m_shape.radius}, {"height", m_shape.height},
                  {"half", {m_shape.half[0], m_shape.half[1], m_shape.half[2]}}, {"yaw", m_shape.yawDeg}};
  out["selected"] = m_sel;
  nlohmann::json trail = nlohmann::json::array();
  for (const glm::vec3& p : m_dragTrail) trail.push_back(vec3(p));
  out["dragTrail"] = trail;
  out["tileCacheOpen"] = cache() != nullptr;
  if (const TileCacheState* tc = cache()) tc->dumpState(out["tileCache"]);
  nlohmann::json probe;
  if (m_hasStart) probe["start"] = vec3(m_start);
  if (m_hasEnd) probe["end"] = vec3(m_end);
  probe["polys"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  probe["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
  probe["partial"] = nav::statusDetail(m_status, nav::PARTIAL_RESULT);
  out["probe"] = probe;
  out["undo"] = m_undo.size();
  out["redo"] = m_redo.size();
  m_msg.dump(out["message"]);
}

void ToolObstacles::saveScenario(nlohmann::json& out) const {
  out = nlohmann::json::object();
  out["kind"] = obstacleKindName(m_shape.kind);
  out["radius"] = m_shape.radius;
  out["height"] = m_shape.height;
  out["half"] = {m_shape.half[0], m_shape.half[1], m_shape.half[2]};
  out["yaw"] = m_shape.yawDeg;
  if (m_hasStart) out["probeStart"] = vec3(m_start);
  if (m_hasEnd) out["probeEnd"] = vec3(m_end);
}

bool ToolObstacles::loadScenario(const nlohmann::json& in, std::string& error) {
  if (in.is_null()) return true;
  if (!in.is_object()) {
    error = "not an object";
    return false;
  }
  Obstacle shape = m_shape;
  glm::vec3 s(0.0f), e(0.0f);
  bool hasS = false, hasE = false;
  for (const auto& [key, v] : in.items()) {
    if (key == "kind") {
      const std::string k = v.is_string() ? v.get<std::string>() : std::string();
      if (k == "cylinder") shape.kind = Obstacle::Cylinder;
      else if (k == "box") shape.kind = Obstacle::Box;
      else if (k == "obox") shape.kind = Obstacle::OrientedBox;
      else {
        error = "kind: not cylinder, box or obox";
        return false;
      }
    } else if (key == "radius" || key == "height" || key == "yaw") {
      if (!v.is_number()) {
        error = key + ": not a number";
        return false;
      }
      (key == "radius" ? shape.radius : key == "height" ? shape.height : shape.yawDeg) = v.get<float>();
    } else if (key == "half") {
      glm::vec3 h;
      if (!readVec3(v, &h)) {
        error = "half: needs [hx, hy, hz]";
        return false;
      }
      shape.half[0] = h.x, shape.half[1] = h.y, shape.half[2] = h.z;
    } else if (key == "probeStart" || key == "probeEnd") {
      if (!readVec3(v, key == "probeStart" ? &s : &e)) {
        error = key + ": needs [x, y, z]";
        return false;
      }
      (key == "probeStart" ? hasS : hasE) = true;
    } else {
      error = key + ": unknown key";
      return false;
    }
  }
  std::string why;
  Obstacle probe = shape; // sizes checked as an obstacle would be
  if (!TileCacheState::check(probe, &why)) {
    error = why;
    return false;
  }
  m_shape = shape;
  m_hasStart = hasS;
  m_hasEnd = hasS && hasE;
  m_start = s;
  m_end = e;
  recomputeProbe();
  return true;
}

} // namespace navbench
