// StateDump.cpp: --dump-state, what headless tests read back: the open files, the active tool's
// inputs and results, the scenario File > Save would write, the last frame's windows and costs.
#include "app/App.h"

#include "nav/base/AtomicFile.h"

#include <imgui.h>
#include <imgui_internal.h> // the window list

#include <nlohmann/json.hpp>

namespace navbench {

bool App::writeState(const std::string& path, std::string& error) const {
  nlohmann::json j;
  j["level"] = m_doc.level.path();
  j["levelFromNav"] = m_doc.levelFromNav;
  j["nav"] = m_doc.nav.loaded() ? m_doc.nav.path() : std::string();
  j["unsavedBake"] = m_doc.bake.unsavedBake();
  j["unsavedSettings"] = m_doc.bake.settingsChanged();
  j["unsavedPrompt"] = m_prompts.unsavedPromptState();
  j["navPolys"] = m_doc.nav.loaded() ? m_doc.nav.polyCount() : 0;
  j["activeTool"] = m_doc.tool() ? m_doc.tool()->name() : "";
  nlohmann::json tool = nlohmann::json::object();
  if (m_doc.tool()) m_doc.tool()->dumpState(tool);
  j["toolState"] = tool;
  // The scenario File > Save would write now (absolute paths): tests compare it with the one opened.
  j["scenario"] = nlohmann::json::parse(toJson(m_doc.currentScenario("")));
  j["scenarioPath"] = m_doc.scenarioPath;
  m_testCases.dumpState(j["testCases"]);
  m_doc.editor.dumpState(j["editor"]);
  m_doc.check.dumpState(j["check"]);
  m_doc.why.dumpState(j["why"]);
  m_doc.agents.dumpState(j["agents"]);
  j["agents"]["visible"] = m_doc.agentsVisible;
  // An open path capture: its queries' replays, the selected one's game and NavBench answers.
  m_doc.capture.toJson(j["capture"]);
  j["capture"]["visible"] = m_doc.captureVisible;
  int errors = 0;
  for (const auto& e : m_log.entries())
    if (e.level == LogLevel::Error) ++errors;
  j["logErrors"] = errors;
  // What the mouse is over (--hover): the level point and the navmesh poly the Navmesh panel shows.
  j["hover"] = {{"hit", m_doc.hover.hit}, {"polyRef", m_doc.hover.poly}, {"pos", {m_doc.hover.pos.x, m_doc.hover.pos.y, m_doc.hover.pos.z}}};
  // The last frame's windows (layout tests: no panel covers another), in window pixels.
  nlohmann::json wins = nlohmann::json::array();
  if (ImGui::GetCurrentContext())
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (!w->Active || w->Hidden || (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip))) continue;
      wins.push_back({{"name", w->Name}, {"x", w->Pos.x}, {"y", w->Pos.y}, {"w", w->Size.x}, {"h", w->Size.y},
                      {"collapsed", w->Collapsed}, {"popup", (w->Flags & ImGuiWindowFlags_Popup) != 0},
                      {"scrollMaxY", w->ScrollMax.y}});
    }
  j["windows"] = wins;
  j["viewport"] = {ImGui::GetCurrentContext() ? ImGui::GetMainViewport()->Size.x : 0.0f,
                   ImGui::GetCurrentContext() ? ImGui::GetMainViewport()->Size.y : 0.0f};
  // The moved-files dialog (a scenario whose level or tile set is not where it says).
  m_prompts.dumpMovedFiles(j["missingDialog"]);
  j["screenshotDir"] = m_scenes.shotDir;
  // The level's recovery journal (app/model/Recovery.h) and its prompt.
  j["recovery"] = {{"journal", m_journal.path()}, {"exists", m_journal.exists()}, {"owned", m_journal.owned()},
                   {"prompt", m_prompts.askingRecover()}};
  // The last frame's cost (headless frames have no vsync): for frame-time measurements.
  j["frame"] = {{"cpuMs", m_stats.cpuMs}, {"debugDrawCalls", m_stats.debugDrawCalls},
                {"debugVertices", m_stats.debugVertices}, {"levelTris", m_stats.levelTris},
                {"levelTrisDrawn", m_stats.levelTrisDrawn}};
  // (Strings from files, a capture's notes and paths, may hold invalid UTF-8: written as U+FFFD.)
  return base::writeFileAtomic(path, j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                               error); // temp file + rename
}

} // namespace navbench
