// ToolStepper.h: the view of the "A* Stepper" tester mode (issue 7; the search and its state:
// app/model/StepperModel.h): step a path search one expansion at a time and see why it chose what
// it chose.
//
// Controls: Step (Space, Right), Step N (Page Down / Page Up back), Run to end (End), Step back
// (Left), Reset to the start (Home), and a slider over the expansion index 0..total.
//
// Drawn at every step: closed nodes (amber), open nodes (blue), each at its position (edge
// midpoint) with an arrow from its parent, the node just expanded (red) and its neighbours coloured
// by result (green accepted, orange worse, grey filtered, red out of nodes); the node selected in the
// open-list table (white, with its parent chain) and the hovered node. At the end: the corridor and
// its straight path over the tree; the node nearest the goal when the result is partial.
// The "A* stepper" window lists the open nodes sorted by total (ref, g, h, total, parent) and the
// last expansion's relaxations with their reasons.
#pragma once

#include "app/model/StepperModel.h"
#include "app/tools/Tester.h"

namespace navbench {

class ToolStepper : public TesterView<StepperModel> {
public:
  void step() override { model().step(); }
  /// Moves to expansion index k (clamped to 0..total).
  void goTo(int k) { model().goTo(k); }
  int index() const { return model().index(); }
  int total() const { return model().total(); }

protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  /// The hovered node and the open table's first row (where tests click rows).
  void dumpView(nlohmann::json& out) const override;

private:
  int hoveredNode() const;
  void summaryUi(); ///< Counts, corridor, partial / out-of-nodes notes (top of the "A* stepper" window).
  void tableUi();   ///< The "A* stepper" window: open list and the last expansion's relaxations.
  void drawFinalChain(render::DebugDraw& dd) const; ///< At the end: the corridor's branch of the tree.

  float m_firstRow[3] = {-1, -1, 0}; ///< The open table's first row centre (window pixels) and row pitch.
};

} // namespace navbench
