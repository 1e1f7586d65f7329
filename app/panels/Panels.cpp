// Panels.cpp: the panel list. To add a panel: write panels/MyPanel.cpp implementing Panel
// (Panels.h) with a factory `std::unique_ptr<Panel> makeMyPanel()`, and add one line below.
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
  X(makeStatsOverlay)       \
  X(makeEmptySceneHint)     \
  X(makeImGuiDemo)          \
  X(makeRebakeProgress)

namespace navbench {

#define NAVBENCH_DECLARE_PANEL(factory) std::unique_ptr<Panel> factory();
NAVBENCH_PANELS(NAVBENCH_DECLARE_PANEL)

std::vector<std::unique_ptr<Panel>> createPanels() {
  std::vector<std::unique_ptr<Panel>> panels;
#define NAVBENCH_CREATE_PANEL(factory) panels.push_back(factory());
  NAVBENCH_PANELS(NAVBENCH_CREATE_PANEL)
  return panels;
}

} // namespace navbench
