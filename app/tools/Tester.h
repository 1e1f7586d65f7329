// Tester.h: the view of a NavMeshTesterTool mode: clicks and typed coordinates into its model
// (app/model/TesterModel.h: start/end, undo/redo, the mode's compute and JSON), and the model into
// debug drawing (the markers with the agent cylinder, the mode's result) and ImGui (the inputs,
// the query timing and status readouts, the mode's panel). Start/end are set like RecastDemo's:
// Shift+left click or right click = start, left click = end. Each mode's view (TesterModes.h,
// ToolStepper.h) overrides drawResult() and resultUi().
#pragma once

#include "app/model/TesterModel.h"
#include "app/tools/Tool.h"

#include <memory>
#include <string>

namespace navbench {

class Tester : public Tool {
public:
  explicit Tester(std::unique_ptr<TesterModel> model);
  ~Tester() override;
  const char* name() const override { return m_model->name(); }
  void init(ToolContext& ctx) override;
  void reset() override { m_model->reset(); }
  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) override { m_model->click(hitPos, shift); }
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void onLevelChanged() override { m_model->levelChanged(); }
  void onFilterChanged() override { m_model->recomputeAll(); }
  void undo() override { m_model->undo(); }
  void redo() override { m_model->redo(); }
  void dumpState(nlohmann::json& out) const override;
  void setShowShortest(bool on) override { m_model->setShowShortest(on); }
  void saveScenario(nlohmann::json& out) const override { m_model->saveScenario(out); }
  bool loadScenario(const nlohmann::json& in, std::string& error) override { return m_model->loadScenario(in, error); }
  /// One line for screenshot captions: mode, start/end, status, path length.
  std::string caption() const { return m_model->caption(); }
  /// Sets the start / end directly (as a click or typed coordinates would).
  void setStart(const glm::vec3& p) { m_model->setStart(p); }
  void setEnd(const glm::vec3& p) { m_model->setEnd(p); }
  const TesterModel& testerModel() const { return *m_model; }
  TesterModel& testerModel() { return *m_model; }

protected:
  virtual void drawResult(render::DebugDraw& /*dd*/) {}
  virtual void resultUi() {}
  /// What only the view knows, for --dump-state (e.g. where a table row is drawn).
  virtual void dumpView(nlohmann::json& /*out*/) const {}

  /// Drawing helpers for the modes.
  void drawCorridor(render::DebugDraw& dd, const nav::PolyRef* polys, int n) const;
  void drawStraight(render::DebugDraw& dd, const float* pts, const uint8_t* flags, int n) const;
  /// The corridor, the straight path (coloured by its flags) and the partial marker.
  void drawPath(render::DebugDraw& dd, const PathTesterModel& m) const;
  /// A partial / out-of-nodes result: a red marker where the path stopped (pts = its last point).
  void drawPartialMarker(render::DebugDraw& dd, const float* lastPoint) const;
  /// The polys a search found (parents: 0 for a root) [Size: n each]: filled, with an arrow from
  /// each parent.
  void drawFoundPolys(render::DebugDraw& dd, const nav::PolyRef* refs, const nav::PolyRef* parents, int n) const;
  /// A circle around the start (radius [Unit: wu]), as the radius modes show their reach.
  void drawStartCircle(render::DebugDraw& dd, float radius) const;
  /// The exact shortest path (orange) and the polys it crosses outside the corridor (magenta).
  void drawShortest(render::DebugDraw& dd) const;
  /// The "Shortest path" checkbox and the comparison with the mode's path (otherLen [Unit: wu]).
  void shortestUi(const char* otherName, float otherLen);
  /// The algorithm choice of a path mode (Detour's A* / hierarchical), the side-by-side toggle and
  /// table (length, nodes, time of each), and the abstract-graph overlay toggle.
  void algorithmUi(PathTesterModel& m);
  /// With side by side on: each algorithm's straight path in its colour (Detour's red, the
  /// hierarchical one green); with the overlay on: the abstract graph and the abstract path.
  void drawAlgorithm(render::DebugDraw& dd, PathTesterModel& m) const;
  /// A slider for a RadiusTesterModel's radius (recomputes when moved).
  void radiusUi(const char* label, float lo, float hi);

  NavState* nav() const { return m_model->nav(); }
  std::unique_ptr<TesterModel> m_model;
  float m_bakeButton[2] = {-1.0f, -1.0f}; ///< The Bake button's centre last frame (no navmesh), or -1.
};

/// A mode's view over its model type M.
template <class M>
class TesterView : public Tester {
public:
  TesterView() : Tester(std::make_unique<M>()) {}

protected:
  M& model() { return static_cast<M&>(*m_model); }
  const M& model() const { return static_cast<const M&>(*m_model); }
};

} // namespace navbench
