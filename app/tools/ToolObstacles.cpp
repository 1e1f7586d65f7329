#include "app/tools/ToolObstacles.h"

#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/BakeRunner.h"
#include "nav/NavMesh.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>

namespace navbench {

namespace {

double clockMs() { // nowMs()'s clock (app/Document.h)
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

/// The navmesh polys of a tile the cache rebuilt, filled with `fill` (its detail triangles, lifted).
void fillTile(render::DebugDraw& dd, const nav::MeshTile& t, uint32_t fill) {
  for (int pi = 0; pi < t.header->polyCount; ++pi) {
    const nav::Poly& p = t.polys[pi];
    if (p.getType() != nav::POLYTYPE_GROUND) continue;
    const nav::PolyDetail& pd = t.detailMeshes[pi];
    for (int j = 0; j < pd.triCount; ++j) {
      const uint8_t* tri = &t.detailTris[(pd.triBase + uint32_t(j)) * 4];
      glm::vec3 v[3];
      for (int q = 0; q < 3; ++q) {
        const float* src = tri[q] < p.vertCount ? &t.verts[p.verts[tri[q]] * 3] : &t.detailVerts[(pd.vertBase + tri[q] - p.vertCount) * 3];
        v[q] = glm::vec3(src[0], src[1] + 0.05f, src[2]);
      }
      dd.triangle(v[0], v[1], v[2], fill);
    }
  }
}

} // namespace

void ToolObstacles::init(ToolContext& ctx) {
  Tool::init(ctx);
  m_model.attach(ctx.nav);
}

void ToolObstacles::reset() {
  // The obstacles are the tile cache's: they stay. Only the interaction in progress ends.
  m_model.reset();
  m_msg.clear();
}

void ToolObstacles::onLevelChanged() {
  m_model.levelChanged();
  m_msg.clear();
}

void ToolObstacles::show(const ObstacleModel::Outcome& o) {
  if (!o.text.empty()) m_msg.set(o.error && m_ctx ? m_ctx->log : nullptr, o.text, o.error);
  if (o.recorded && m_ctx && m_ctx->inputChanged) m_ctx->inputChanged(this);
}

void ToolObstacles::onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) { show(m_model.click(hitPos, shift)); }

bool ToolObstacles::dragBegin(const glm::vec3& hitPos, bool shift) { return m_model.dragBegin(hitPos, shift); }

void ToolObstacles::update(float /*dt*/) { show(m_model.update()); }

void ToolObstacles::drawUi() {
  TileCacheState* tc = m_model.cache();
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
  Obstacle& shape = m_model.shape();
  int kind = int(shape.kind);
  ImGui::TextUnformatted("Click drops:");
  ImGui::RadioButton("Cylinder", &kind, Obstacle::Cylinder);
  ImGui::SameLine();
  ImGui::RadioButton("Box", &kind, Obstacle::Box);
  ImGui::SameLine();
  ImGui::RadioButton("Oriented box", &kind, Obstacle::OrientedBox);
  shape.kind = Obstacle::Kind(kind);
  if (shape.kind == Obstacle::Cylinder) {
    ImGui::SliderFloat("Radius", &shape.radius, 0.1f, 10.0f, "%.2f wu");
    ImGui::SliderFloat("Height", &shape.height, 0.1f, 10.0f, "%.2f wu");
  } else {
    ImGui::SliderFloat3("Half extents", shape.half, 0.1f, 10.0f, "%.2f");
    if (shape.kind == Obstacle::OrientedBox) ImGui::SliderFloat("Yaw", &shape.yawDeg, -180.0f, 180.0f, "%.0f deg");
  }
  ImGui::TextDisabled("Click: drop / select. Shift+click: remove it. Drag: move it.");
  ImGui::TextDisabled("Shift+click on the ground: probe path start, then end.");
  ImGui::Separator();
  ImGui::Text("%d obstacles, %d requests queued, %d tiles to rebuild", int(tc->obstacles().size()), tc->cache().getRequestCount(),
              tc->cache().getUpdateCount());
  ImGui::Text("Tiles rebuilt: %d (last update %.2f ms)", int(tc->rebuilt().size()), tc->lastUpdateMs());
  const int sel = m_model.selected();
  if (sel >= 0 && sel < int(tc->obstacles().size())) {
    const Obstacle& o = tc->obstacles()[size_t(sel)];
    ImGui::Text("Selected: %s %d at (%.2f, %.2f, %.2f)", obstacleKindName(o.kind), sel, double(o.pos[0]), double(o.pos[1]),
                double(o.pos[2]));
    if (ImGui::SmallButton("Remove selected")) show(m_model.removeSelected());
  }
  if (!tc->obstacles().empty() && ImGui::SmallButton("Remove all")) show(m_model.removeAll());
  if (m_model.hasStart()) {
    if (!m_model.hasEnd()) ImGui::TextUnformatted("Probe: start set; Shift+click the end");
    else if (m_model.straightCount() > 0)
      ImGui::Text("Probe path: %d polys, %d corners, %.2f wu%s", m_model.polyCount(), m_model.straightCount(),
                  double(m_model.probeLength()), m_model.partial() ? " (partial)" : "");
    else ImGui::TextUnformatted("Probe path: none");
    if (ImGui::SmallButton("Clear probe")) m_model.clearProbe();
  }
  m_msg.show();
}

void ToolObstacles::draw(render::DebugDraw& dd) {
  TileCacheState* tc = m_model.cache();
  if (!tc) return;
  // Rebuilt tiles flash: their navmesh polys, fading out over kFlashMs.
  const double now = clockMs();
  const nav::NavMesh& mesh = m_ctx->nav->mesh();
  for (auto it = tc->rebuilt().rbegin(); it != tc->rebuilt().rend() && now - it->whenMs < kFlashMs; ++it) {
    const float k = float(1.0 - (now - it->whenMs) / kFlashMs);
    const uint32_t fill = render::rgba(255, 230, 40, uint8_t(150 * k)), edge = render::rgba(255, 200, 0, uint8_t(255 * k));
    dd.wireBox(glm::vec3(it->bmin[0], it->bmin[1], it->bmin[2]), glm::vec3(it->bmax[0], it->bmax[1], it->bmax[2]), edge, 2.0f);
    const nav::MeshTile* t = mesh.getTileAt(it->x, it->y, it->layer);
    if (t && t->header) fillTile(dd, *t, fill);
  }
  // The obstacles: pending ones orange, in the navmesh red, the selected one outlined white.
  std::vector<glm::vec3> lo, hi;
  for (int i = 0; i < int(tc->obstacles().size()); ++i) {
    const Obstacle& o = tc->obstacles()[size_t(i)];
    const nav::tilecache::TileCacheObstacle* ob = tc->cache().getObstacleByRef(tc->ref(i));
    const bool done = ob && ob->state == nav::tilecache::OBSTACLE_PROCESSED;
    const uint32_t side = done ? render::rgba(220, 60, 30, 110) : render::rgba(255, 160, 0, 110);
    const uint32_t line = i == m_model.selected() ? render::rgba(255, 255, 255) : done ? render::rgba(120, 20, 0) : render::rgba(200, 100, 0);
    ObstacleModel::outline(o, o.pos[1] - TileCacheState::kSink + 0.45f, &lo);
    ObstacleModel::outline(o, ObstacleModel::top(o), &hi);
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
  if (m_model.hasStart()) dd.point(m_model.start() + up, render::rgba(128, 25, 0), 12.0f, false);
  if (m_model.hasEnd()) dd.point(m_model.end() + up, render::rgba(51, 102, 0), 12.0f, false);
  const float* s = m_model.straight();
  for (int i = 1; i < m_model.straightCount(); ++i) {
    const float* a = &s[size_t(i - 1) * 3];
    const float* b = &s[size_t(i) * 3];
    dd.line(glm::vec3(a[0], a[1], a[2]) + up, glm::vec3(b[0], b[1], b[2]) + up, render::rgba(20, 60, 200), 4.0f, false);
  }
}

void ToolObstacles::dumpState(nlohmann::json& out) const {
  m_model.dumpState(out);
  m_msg.dump(out["message"]);
}

} // namespace navbench
