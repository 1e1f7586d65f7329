// Panels.cpp: the panel list, and makePanel. To add a panel: write panels/MyPanel.cpp with a factory
// `std::unique_ptr<Panel> makeMyPanel()` (makePanel, or a class implementing Panel; Panels.h), and
// add one line below.
#include "app/panels/Panels.h"

// Every panel's factory (defined in its own file), in drawing order: a window drawn later is above
// an earlier one where they meet.
#define NAVBENCH_PANELS(X)  \
  X(makeToolsPanel)         \
  X(makeViewPanel)          \
  X(makeLogPanel)           \
  X(makeNavPanel)           \
  X(makeHelpWindow)         \
  X(makeNavBuildProgress)   \
  X(makeTileLabels)         \
  X(makeBakePanel)          \
  X(makeTestCasesPanel)     \
  X(makeCapturePanel)       \
  X(makeCheckPanel)         \
  X(makeWhyPanel)           \
  X(makeAgentsPanel)        \
  X(makeStatsOverlay)       \
  X(makeEmptySceneHint)     \
  X(makeImGuiDemo)          \
  X(makeRebakeProgress)

namespace navbench {

#define NAVBENCH_DECLARE_PANEL(factory) std::unique_ptr<Panel> factory();
NAVBENCH_PANELS(NAVBENCH_DECLARE_PANEL)

namespace {
class FunctionPanel final : public Panel {
public:
  FunctionPanel(const PanelSpec& spec, std::function<void(PanelContext&, bool&)> draw)
      : Panel(spec.visibleAtStart), m_spec(spec), m_draw(std::move(draw)) {}
  const char* name() const override { return m_spec.name; }
  const char* menuLabel() const override { return m_spec.menuLabel; }
  int menuOrder() const override { return m_spec.menuOrder; }
  bool* visible(Document& doc) override { return m_spec.visibleIn ? m_spec.visibleIn(doc) : &m_visible; }
  void draw(PanelContext& ctx) override { m_draw(ctx, *visible(ctx.doc)); }

private:
  PanelSpec m_spec;
  std::function<void(PanelContext&, bool&)> m_draw;
};
} // namespace

std::unique_ptr<Panel> makePanel(const PanelSpec& spec, std::function<void(PanelContext&, bool& shown)> draw) {
  return std::make_unique<FunctionPanel>(spec, std::move(draw));
}

std::vector<std::unique_ptr<Panel>> createPanels() {
  std::vector<std::unique_ptr<Panel>> panels;
#define NAVBENCH_CREATE_PANEL(factory) panels.push_back(factory());
  NAVBENCH_PANELS(NAVBENCH_CREATE_PANEL)
  return panels;
}

} // namespace navbench
