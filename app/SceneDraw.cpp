// SceneDraw.cpp: the 3D view of one frame: the level (lit, fogged, by LOD cell, optionally in
// wireframe), the world axes, the navmesh overlays from their per-tile buffers, the hovered poly
// and the active tool's debug drawing.
#include "app/App.h"

#include "app/LevelMesh.h"
#include "app/panels/CapturePanel.h"
#include "app/panels/CheckPanel.h"
#include "app/panels/WhyPanel.h"
#include "app/panels/AgentsPanel.h"
#include "render/Gl.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace navbench {

namespace {
/// The navmesh diff overlay: what the last in-place rebake changed, lifted above the overlays.
void drawChanges(render::DebugDraw& dd, const std::vector<PolyChange>& changes, float lift) {
  for (const PolyChange& c : changes) {
    const uint32_t line = c.kind == PolyChange::Added     ? render::rgba(60, 230, 90)
                          : c.kind == PolyChange::Changed ? render::rgba(255, 210, 40)
                                                          : render::rgba(240, 60, 50);
    const size_t n = c.outline.size() / 3;
    auto at = [&](size_t i) { return glm::vec3(c.outline[i * 3], c.outline[i * 3 + 1] + lift, c.outline[i * 3 + 2]); };
    for (size_t i = 0; i < n; ++i) dd.line(at(i), at((i + 1) % n), line, 2.5f);
    if (c.kind == PolyChange::Removed) continue; // (nothing to fill: it is gone)
    const uint32_t fill = c.kind == PolyChange::Added ? render::rgba(60, 230, 90, 90) : render::rgba(255, 210, 40, 90);
    for (size_t i = 2; i < n; ++i) dd.triangle(at(0), at(i - 1), at(i), fill);
  }
}
} // namespace

void App::drawScene(int w, int h) {
  glViewport(0, 0, w, h);
  const glm::vec3 bg = glm::vec3(kClearColor[0], kClearColor[1], kClearColor[2]) / 255.0f;
  glClearColor(bg.r, bg.g, bg.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (w <= 0 || h <= 0) return;
  const float aspect = float(w) / float(h);
  const glm::mat4 vp = m_doc.camera.viewProj(aspect);

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  // Back faces culled (counter-clockwise is the front, as the level's floors seen from above):
  // picking hits the same sides (ViewSettings::levelPickSides); View > Two-sided level: both.
  if (m_doc.view.twoSidedLevel) glDisable(GL_CULL_FACE);
  else glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glFrontFace(GL_CCW);
  glDisable(GL_BLEND);
  m_stats.levelTrisDrawn = 0;
  if (m_doc.view.drawLevel && m_levelMesh.vertexCount() > 0) {
    m_levelShader.use();
    m_levelShader.set("uViewProj", vp);
    const glm::vec3 light(std::cos(m_doc.view.lightPitch) * std::sin(m_doc.view.lightYaw), std::sin(m_doc.view.lightPitch),
                          std::cos(m_doc.view.lightPitch) * std::cos(m_doc.view.lightYaw));
    m_levelShader.set("uLightDir", glm::normalize(light));
    m_levelShader.set("uAmbient", m_doc.view.ambient);
    m_levelShader.set("uEye", m_doc.camera.eye());
    m_levelShader.set("uGrid", m_doc.view.grid ? 1 : 0);
    m_levelShader.set("uWire", 0);
    m_levelShader.set("uFogColor", bg);
    m_levelShader.set("uFogDistance", std::max(50.0f, m_doc.camera.distance * 2.5f));
    render::LodView lod; // far cells simplified (View > Level LOD)
    lod.enabled = levelLodOn(m_doc.view);
    lod.eye = m_doc.camera.eye();
    lod.pixelsPerUnit = float(h) / (2.0f * std::tan(m_doc.camera.fovY * 0.5f));
    m_levelMesh.draw(render::Frustum(vp), lod); // the grid cells in view
    m_stats.levelTrisDrawn = m_levelMesh.lastDrawnVertices() / 3;
    if (m_doc.view.wireframe) {
      glEnable(GL_BLEND);
      glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      glEnable(GL_POLYGON_OFFSET_LINE);
      glPolygonOffset(-1.0f, -1.0f);
      glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
      m_levelShader.set("uWire", 1);
      m_levelShader.set("uWireColor", glm::vec4(0.08f, 0.09f, 0.12f, 0.55f));
      m_levelMesh.draw(render::Frustum(vp), lod);
      glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
      glDisable(GL_POLYGON_OFFSET_LINE);
      glDisable(GL_BLEND);
    }
  }

  // World axes at the origin (x red, y green, z blue, 1 m), then the active tool's drawing.
  m_debugDraw.line(glm::vec3(0), glm::vec3(1, 0, 0), render::rgba(230, 60, 60), 2.0f);
  m_debugDraw.line(glm::vec3(0), glm::vec3(0, 1, 0), render::rgba(60, 200, 60), 2.0f);
  m_debugDraw.line(glm::vec3(0), glm::vec3(0, 0, 1), render::rgba(70, 110, 240), 2.0f);
  if (m_doc.nav.loaded()) { // static per-tile buffers, frustum-culled; the hover highlight immediate
    m_navCache.buildBudgetMs = m_headless ? 0.0f : 30.0f; // interactive: a big world fills in over frames
    m_navCache.update(m_doc.nav.mesh(), m_doc.navDraw);
    m_navCache.draw(m_debugDraw, render::Frustum(vp), m_doc.camera.eye(), float(h) / (2.0f * std::tan(m_doc.camera.fovY * 0.5f)));
    drawHover(m_debugDraw, m_doc.nav.mesh(), m_doc.navDraw, m_doc.hover.poly);
    if (m_doc.navDraw.changes) drawChanges(m_debugDraw, m_doc.editor.lastChanges(), m_doc.navDraw.lift * 2.0f);
    drawCheckOverlay(m_debugDraw, m_doc.check, m_doc.nav.mesh(), m_doc.navDraw.lift); // the Check panel's heatmap, finding
    drawWhyOverlay(m_debugDraw, m_doc.why, m_doc.nav.mesh(), m_doc.navDraw.lift);     // the Why panel's evidence
    drawAgentsOverlay(m_debugDraw, m_doc.agents, m_doc.navDraw.lift); // other agents' outlines, compared paths, reach
    drawCaptureOverlay(m_debugDraw, m_doc.capture); // a path capture's selected query: the game's answer
  }
  if (Tool* t = m_doc.tool()) t->draw(m_debugDraw);
  m_stats.debugVertices = m_debugDraw.queuedVertices();
  m_debugDraw.flush(vp, glm::vec2(float(w), float(h)));
  m_stats.debugDrawCalls = m_debugDraw.lastDrawCalls();
  m_stats.fps = ImGui::GetIO().Framerate;
  glDisable(GL_CULL_FACE);
}

} // namespace navbench
