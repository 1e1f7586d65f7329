// StartFiles.cpp: App::openStartFiles, what the command line names, opened before the first frame.
//
// A file that cannot be opened ends a run nobody can see: a headless run (--screenshot,
// --bench-frames), or one on SDL's offscreen or dummy video driver (no display): the error is
// printed and the process exits (code 1 for a headless level or scenario, as scripts expect; 2 for a
// path capture and for any file of a run without a display). An interactive viewer logs it and
// stays open.
#include "app/App.h"

#include <cstdio>
#include <cstring>

namespace navbench {

bool App::displayless() {
  const char* driver = SDL_GetCurrentVideoDriver();
  return driver && (std::strcmp(driver, "offscreen") == 0 || std::strcmp(driver, "dummy") == 0);
}

bool App::openStartFiles(int& code) {
  const bool stopOnError = m_headless || m_displayless;
  auto failed = [&](const std::string& path) {
    code = m_headless && !m_displayless && lowerExt(path) != ".nbcap" ? 1 : 2;
    if (m_displayless && !m_headless)
      std::fprintf(stderr, "navbench: no display (SDL video driver %s): nothing to show; exiting\n", SDL_GetCurrentVideoDriver());
    return false;
  };
  code = 1;
  // A level and a tile set on the command line: the level's sibling .bin is not opened as well.
  const bool levelAndNav = !m_opt.levelPath.empty() && !m_opt.navPath.empty() && !isScenarioPath(m_opt.levelPath);
  const bool levelOpened = m_opt.levelPath.empty() || (levelAndNav ? m_doc.openLevel(m_opt.levelPath, nullptr, false)
                                                                   : m_doc.openAny(m_opt.levelPath));
  if (!levelOpened && stopOnError && !m_prompts.askingForMovedFiles()) return failed(m_opt.levelPath); // (--ask-moved: asked)
  if (!m_opt.navPath.empty()) {
    if (m_doc.levelLoader().active()) m_doc.openNavAfterLevelLoad(m_opt.navPath); // opening a level closes the navmesh
    else if (!m_doc.openNav(m_opt.navPath) && stopOnError) return failed(m_opt.navPath);
  }
  if (m_opt.allOverlays) m_doc.navDraw.detailMesh = m_doc.navDraw.bvTree = m_doc.navDraw.tileLabels = m_doc.navDraw.portals = true;
  if (m_opt.shortest)
    for (auto& t : m_doc.tools) t->setShowShortest(true);
  if (!m_opt.toolName.empty()) {
    const int index = m_doc.findTool(m_opt.toolName);
    if (index < 0) {
      std::fprintf(stderr, "navbench: --tool: unknown tool '%s' (tools: %s)\n", m_opt.toolName.c_str(), m_doc.toolNames().c_str());
      code = 2;
      return false;
    }
    m_doc.activeTool = index;
    m_doc.capture.setShowTool(m_opt.toolName); // a capture's path queries are shown in the tool asked for
  }
  code = 0;
  return true;
}

} // namespace navbench
