// Panels.cpp: the panel list. To add a panel: write panels/MyPanel.cpp implementing Panel
// (Panels.h) with a factory `std::unique_ptr<Panel> makeMyPanel()`, and add it below.
#include "app/panels/Panels.h"

namespace navbench {

// Factories, each defined in its panel's file.
std::unique_ptr<Panel> makeToolsPanel(), makeViewPanel(), makeLogPanel(), makeNavPanel(), makeHelpWindow(),
    makeNavBuildProgress(), makeTileLabels(), makeBakePanel(), makeTestCasesPanel(), makeStatsOverlay(),
    makeEmptySceneHint(), makeImGuiDemo();

std::vector<std::unique_ptr<Panel>> createPanels() {
  using Factory = std::unique_ptr<Panel> (*)();
  // Drawing order (a window drawn later is above an earlier one where they meet).
  const Factory factories[] = {makeToolsPanel,       makeViewPanel,  makeLogPanel,  makeNavPanel,
                               makeHelpWindow,       makeNavBuildProgress, makeTileLabels, makeBakePanel,
                               makeTestCasesPanel,   makeStatsOverlay,     makeEmptySceneHint, makeImGuiDemo};
  std::vector<std::unique_ptr<Panel>> panels;
  for (Factory f : factories) panels.push_back(f());
  return panels;
}

} // namespace navbench
