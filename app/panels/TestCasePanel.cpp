// TestCasePanel.cpp: see TestCasePanel.h.
#include "app/panels/TestCasePanel.h"

#include "app/Document.h"
#include "app/panels/Panels.h"

#include "app/Level.h"
#include "app/NavState.h"
#include "app/tools/Tester.h"
#include "render/Camera.h"

#include "nav/base/Json.h"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

namespace {

const ImVec4 kRed(1, 0.45f, 0.4f, 1), kGreen(0.45f, 0.9f, 0.45f, 1), kAmber(1, 0.8f, 0.3f, 1);

/// The session's messages into the app's log.
void toLog(const TestCaseNotes& notes, Log& log) {
  for (const TestCaseNote& n : notes) {
    if (n.level == TestCaseNote::Error) log.error(n.text);
    else if (n.level == TestCaseNote::Warning) log.warning(n.text);
    else log.info(n.text);
  }
}

} // namespace

TestCasePanel::TestCasePanel(TestCaseSession& session, bool& visible_)
    : visible(visible_), m_session(session), m_dialog("Open test cases", {".txt"}, "path/to/cases.txt (RecastDemo pf / rc lines)") {}
TestCasePanel::~TestCasePanel() = default;

bool TestCasePanel::open(const std::string& path, Log& log) {
  visible = true;
  TestCaseNotes notes;
  const bool ok = m_session.open(path, &notes);
  toLog(notes, log);
  return ok;
}

void TestCasePanel::openDialog(const std::string& dir) {
  // Start where the open test-case file is, else where the app suggests (the level's folder).
  std::error_code ec;
  const fs::path here = m_session.path().empty() ? fs::path() : fs::absolute(m_session.path(), ec).parent_path();
  m_dialog.open(!here.empty() && fs::is_directory(here, ec) ? here.string() : dir);
}

void TestCasePanel::runAll(NavState& nav, Log& log) {
  TestCaseNotes notes;
  m_session.runAll(nav.loaded() ? &nav.mesh() : nullptr, nav.contentKey(), &notes);
  toLog(notes, log);
}

void TestCasePanel::showCase(int i, Context& ctx) {
  if (!ctx.tools || !ctx.activeTool || !m_session.select(i)) return;
  const TestCase& c = m_session.cases()[size_t(i)];
  const char* want = c.raycast ? "Raycast" : "Pathfind Straight";
  int idx = -1;
  for (size_t t = 0; t < ctx.tools->size(); ++t)
    if (std::string((*ctx.tools)[t]->name()) == want) idx = int(t);
  Tester* tester = idx >= 0 ? dynamic_cast<Tester*>((*ctx.tools)[size_t(idx)].get()) : nullptr;
  if (!tester) {
    ctx.log->error(std::string("test cases: no '") + want + "' tool to show the case in");
    return;
  }
  if (idx != *ctx.activeTool) {
    if (*ctx.activeTool >= 0 && *ctx.activeTool < int(ctx.tools->size())) (*ctx.tools)[size_t(*ctx.activeTool)]->reset();
    *ctx.activeTool = idx;
  }
  if (m_useCaseFlags && ctx.nav &&
      (ctx.nav->filter().getIncludeFlags() != c.inc || ctx.nav->filter().getExcludeFlags() != c.exc)) {
    ctx.nav->filter().setIncludeFlags(c.inc);
    ctx.nav->filter().setExcludeFlags(c.exc);
    for (auto& t : *ctx.tools) t->onFilterChanged();
  }
  tester->setStart(glm::vec3(c.s[0], c.s[1], c.s[2]));
  tester->setEnd(glm::vec3(c.e[0], c.e[1], c.e[2]));
  if (m_frameCamera && ctx.camera) {
    const glm::vec3 a(c.s[0], c.s[1], c.s[2]), b(c.e[0], c.e[1], c.e[2]), pad(3.0f);
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    ctx.camera->frame(glm::min(a, b) - pad, glm::max(a, b) + pad, ds.y > 0 ? ds.x / ds.y : 1.0f, glm::vec2(-0.5f, -0.62f),
                      glm::vec2(0.2f, 0.86f)); // left of the panel, above the log
  }
  ctx.log->info("test case " + std::to_string(i) + " (" + m_session.path() + ":" + std::to_string(c.line) + ") shown in " + want);
}

void TestCasePanel::draw(Context& ctx) {
  std::string chosen;
  if (m_dialog.draw(chosen)) open(chosen, *ctx.log);
  if (!visible) return;
  if (ctx.nav && ctx.nav->loaded() && m_session.stale(ctx.nav->contentKey())) runAll(*ctx.nav, *ctx.log);
  const TestCaseHeader& header = m_session.header();

  if (ctx.layout) ctx.layout->placeOnDemand("Test cases"); // (its place and size: PanelLayout)
  ImGui::SetNextWindowBgAlpha(1.0f); // opaque: it may sit over the others (PanelLayout's cascade)
  if (!ImGui::Begin("Test cases", &visible)) {
    ImGui::End();
    return;
  }
  if (m_session.path().empty()) {
    ImGui::TextWrapped("No test-case file: File > Open test cases..., or drop a RecastDemo .txt file (pf / rc lines) "
                       "on the window.");
  } else {
    ImGui::TextUnformatted(m_session.path().c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m_session.path().c_str());
  }
  if (!m_session.error().empty()) ImGui::TextColored(kRed, "%s", m_session.error().c_str());
  if (!header.sample.empty() || !header.geometry.empty())
    ImGui::TextDisabled("sample: %s   level: %s", header.sample.empty() ? "-" : header.sample.c_str(),
                        header.geometry.empty() ? "-" : header.geometry.c_str());
  if (ctx.level) // the `f` line's OBJ vs the open level (or tile set)
    m_session.updateLevelNote(ctx.level->empty() ? std::string() : ctx.level->path(),
                              ctx.nav && ctx.nav->loaded() ? ctx.nav->path() : std::string());
  if (!m_session.levelNote().empty()) ImGui::TextColored(kAmber, "%s", m_session.levelNote().c_str());
  if (!ctx.nav || !ctx.nav->loaded()) ImGui::TextColored(kAmber, "No navmesh open: open or bake one to run the cases.");

  if (ImGui::Button("Run all") && ctx.nav && ctx.nav->loaded()) runAll(*ctx.nav, *ctx.log);
  ImGui::SameLine();
  if (ImGui::Button("Reload") && !m_session.path().empty()) open(m_session.path(), *ctx.log);
  ImGui::SameLine();
  ImGui::Checkbox("Frame", &m_frameCamera);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Frame the camera on a case when its row is clicked");
  ImGui::SameLine();
  ImGui::Checkbox("Case flags", &m_useCaseFlags);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A clicked case sets the viewer filter's include/exclude flags to its own.\n"
                      "The viewer still uses its area costs and node budget; the table uses\n"
                      "RecastDemo's (cost 1 everywhere, %d nodes), like navbench query.",
                      kTestCaseMaxNodes);

  const int ncases = int(m_session.cases().size());
  if (m_session.ran() && ncases) {
    const int pass = m_session.passCount(), fail = m_session.failCount();
    ImGui::Text("%d cases, %.2f ms", ncases, m_session.runMs());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every case runs 3 times (1 time in files over 2000 cases); us = the best");
    if (pass + fail) {
      ImGui::SameLine();
      ImGui::TextColored(fail ? kRed : kGreen, " expected: %d ok, %d mismatch%s", pass, fail,
                         pass + fail < ncases ? " (some unchecked)" : "");
    }
  }
  drawTable(ctx);
  exportUi(ctx);
  ImGui::End();
}

void TestCasePanel::drawTable(Context& ctx) {
  const bool hasExpect = m_session.header().expectCount > 0;
  const std::vector<TestCase>& cases = m_session.cases();
  const bool navOpen = ctx.nav && ctx.nav->loaded();
  const int ncol = hasExpect ? 9 : 8;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  const float exportHeight = ImGui::GetFrameHeightWithSpacing() * 2.3f;
  if (!ImGui::BeginTable("cases", ncol, flags, ImVec2(0, -exportHeight))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  // "us": the best of 3 runs of the case's queries.
  for (const char* column : {"#", "kind", "status", "corridor", "corners", "len / t", "us", "line"}) ImGui::TableSetupColumn(column);
  if (hasExpect) ImGui::TableSetupColumn("expect");
  ImGui::TableHeadersRow();
  int next = -1;
  ImGuiListClipper clipper;
  clipper.Begin(int(cases.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const TestCase& c = cases[size_t(i)];
      const TestCaseResult* r = navOpen ? m_session.result(size_t(i)) : nullptr;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char label[32];
      std::snprintf(label, sizeof label, "%d##case", i);
      if (ImGui::Selectable(label, m_session.selected() == i, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        next = i;
      if (i == 0) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        m_firstRowPos[0] = (a.x + b.x) * 0.5f;
        m_firstRowPos[1] = (a.y + b.y) * 0.5f;
      }
      if (ImGui::IsItemHovered()) {
        const std::string& diffs = m_session.diffs(size_t(i));
        ImGui::SetTooltip("%s\n%s%s%s", formatCase(c).c_str(), c.expect.present ? formatExpect(c.raycast, c.expect).c_str() : "",
                          diffs.empty() ? "" : "\n", diffs.c_str());
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.raycast ? "rc" : "pf");
      ImGui::TableNextColumn();
      if (r) {
        const std::string st = resultStatus(c, *r);
        const bool good = st == "complete" || st == "hit" || st == "clear";
        ImGui::TextColored(good ? ImVec4(0.85f, 0.85f, 0.85f, 1) : kAmber, "%s", st.c_str());
      } else {
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      if (r) ImGui::Text("%d", int(r->polys.size()));
      ImGui::TableNextColumn();
      if (r && !c.raycast) ImGui::Text("%d", int(r->straightFlags.size()));
      ImGui::TableNextColumn();
      if (r && !c.raycast) ImGui::Text("%.2f", double(r->straightLength()));
      else if (r && r->startRef && r->t <= 1) ImGui::Text("t %.3f", double(r->t));
      ImGui::TableNextColumn();
      if (r) ImGui::Text("%.1f", r->us);
      ImGui::TableNextColumn();
      ImGui::Text("%d", c.line);
      if (hasExpect) {
        ImGui::TableNextColumn();
        const int chk = r ? m_session.check(size_t(i)) : -1;
        if (chk == 1) ImGui::TextColored(kGreen, "ok");
        else if (chk == 0) ImGui::TextColored(kRed, "MISMATCH");
        else ImGui::TextDisabled(c.expect.present ? "?" : "-");
      }
    }
  }
  ImGui::EndTable();
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !cases.empty() && !ImGui::GetIO().WantTextInput) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) next = m_session.rowFrom(+1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) next = m_session.rowFrom(-1);
  }
  if (next >= 0) showCase(next, ctx);
}

void TestCasePanel::exportUi(Context& ctx) {
  ImGui::Separator();
  // The active tester tool's start/end, as RecastDemo writes a case.
  Tool* tool = ctx.tools && ctx.activeTool && *ctx.activeTool >= 0 && *ctx.activeTool < int(ctx.tools->size())
                   ? (*ctx.tools)[size_t(*ctx.activeTool)].get()
                   : nullptr;
  nlohmann::json st = nlohmann::json::object();
  if (tool && dynamic_cast<Tester*>(tool)) tool->dumpState(st);
  m_session.clearExport();
  base::JsonErrors errors;
  const base::JsonIn in(st, errors);
  float s[3], e[3];
  if (ctx.nav && in.has("start") && in.has("end") && in["start"].getVec3(s) && in["end"].getVec3(e)) {
    m_session.setExportCase(std::string(tool->name()) == "Raycast", s, e, ctx.nav->filter().getIncludeFlags(),
                            ctx.nav->filter().getExcludeFlags());
  }
  const std::string& line = m_session.exportLine();
  if (line.empty()) {
    ImGui::TextDisabled("Export: set a start and an end in a tester mode first");
    return;
  }
  std::string shown = line; // read-only field: scrolls when the line is wider than the panel
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##export", &shown, ImGuiInputTextFlags_ReadOnly);
  if (ImGui::Button("Copy line")) {
    ImGui::SetClipboardText(line.c_str());
    m_session.setExportMessage("copied to the clipboard");
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy the current start/end as a %s line", line.substr(0, 2).c_str());
  ImGui::SameLine();
  ImGui::BeginDisabled(m_session.path().empty() || !m_session.error().empty());
  const bool append = ImGui::Button("Append to file");
  m_appendPos[0] = (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f;
  m_appendPos[1] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
  if (append) {
    TestCaseNotes notes;
    m_session.appendExport(&notes);
    toLog(notes, *ctx.log);
  }
  ImGui::EndDisabled();
  if (!m_session.exportMessage().empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", m_session.exportMessage().c_str());
  }
}

void TestCasePanel::dumpState(nlohmann::json& out) const {
  m_session.toJson(out);
  out["visible"] = visible;
  out["firstRow"] = {m_firstRowPos[0], m_firstRowPos[1]};
  out["appendButton"] = {m_appendPos[0], m_appendPos[1]};
}

// Drawn every frame, shown or not: its file dialog too.
std::unique_ptr<Panel> makeTestCasesPanel() {
  auto shownIn = [](Document& doc) { return &doc.testCasesVisible; };
  return makePanel({"Test cases", "Test cases panel", 4, true, shownIn}, [](PanelContext& c, bool&) {
    Document& doc = c.doc;
    TestCasePanel::Context tc{&doc.nav, &doc.level, &doc.tools, &doc.activeTool, &doc.camera, &c.log, &c.layout};
    if (c.testCases) c.testCases->draw(tc);
  });
}

} // namespace navbench
