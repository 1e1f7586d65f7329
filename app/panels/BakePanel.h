// BakePanel.h: the in-app bake (issue 5's viewer part): every BakeSettings field with the ranges
// of settingRanges(), Build on a background thread (BakeJob: progress bar, Cancel, the UI stays
// responsive), Save .bin (atomic, TileSetFile), and the build log with per-stage times.
#pragma once

#include "app/Log.h"
#include "app/NavState.h"
#include "nav/bake/BakeJob.h"
#include "nav/bake/BakeSettings.h"

#include <string>
#include <vector>

namespace navbench {

class BakePanel {
public:
  /// The bake input of a level (OBJ or level file): geometry, volumes, links and its settings.
  /// On failure keeps the old input and logs "<file>: <problem>".
  bool setSource(const std::string& levelPath, Log& log);
  void clearSource();
  const std::string& source() const { return m_source; }
  bool hasSource() const { return !m_source.empty(); }

  /// Starts a bake (false + log message if it cannot start).
  bool build(Log& log);
  bool running() const { return m_job.running(); }
  /// Call every frame: when the job ended, hands the mesh to `nav` (true = a new mesh arrived).
  bool poll(NavState& nav, Log& log);
  /// Draws the window (returns false; kept for symmetry with poll()).
  bool draw(NavState& nav, Log& log, bool* open);

  nav::bake::BakeSettings settings;

private:
  std::string m_source;
  nav::bake::BakeInput m_input;
  nav::bake::BakeJob m_job;
  std::vector<std::string> m_report;
  int m_threads = 0;
  char m_savePath[512] = {};
};

} // namespace navbench
