// TestCasePanel.cpp: see TestCasePanel.h.
#include "app/panels/TestCasePanel.h"

#include "app/Document.h"
#include "app/panels/Panels.h"

#include "app/Level.h"
#include "app/NavState.h"
#include "app/tools/Tester.h"
#include "nav/base/AtomicFile.h"
#include "nav/NavMeshQuery.h"
#include "render/Camera.h"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace navbench {

namespace fs = std::filesystem;

namespace {

const ImVec4 kRed(1, 0.45f, 0.4f, 1), kGreen(0.45f, 0.9f, 0.45f, 1), kAmber(1, 0.8f, 0.3f, 1);

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::string navSignature(const NavState& nav) {
  if (!nav.loaded()) return std::string();
  return nav.path() + "|" + std::to_string(nav.polyCount()) + "|" + std::to_string(nav.tileCount()) + "|" +
         std::to_string(nav.edits());
}

bool readText(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

} // namespace

TestCasePanel::TestCasePanel() : m_dialog("Open test cases", {".txt"}, "path/to/cases.txt (RecastDemo pf / rc lines)") {}
TestCasePanel::~TestCasePanel() = default;

bool TestCasePanel::open(const std::string& path, Log& log) {
  visible = true;
  m_path = path;
  m_error.clear();
  m_cases.clear();
  m_header = TestCaseHeader();
  m_results.clear();
  m_check.clear();
  m_diffs.clear();
  m_ran = false;
  m_selected = -1;
  std::vector<TestCase> cases;
  TestCaseHeader header;
  std::string why;
  if (!readTestCaseFile(path, cases, &why, &header)) {
    m_error = why;
    log.error("test cases: " + why);
    return false;
  }
  m_cases = std::move(cases);
  m_header = header;
  int rc = 0;
  for (const TestCase& c : m_cases) rc += c.raycast ? 1 : 0;
  log.info("opened test cases " + path + ": " + std::to_string(m_cases.size()) + " cases (" +
           std::to_string(int(m_cases.size()) - rc) + " pf, " + std::to_string(rc) + " rc), " +
           std::to_string(header.expectCount) + " with expected results");
  return true;
}

void TestCasePanel::openDialog(const std::string& dir) {
  // Start where the open test-case file is, else where the app suggests (the level's folder).
  std::error_code ec;
  const fs::path here = m_path.empty() ? fs::path() : fs::absolute(m_path, ec).parent_path();
  m_dialog.open(!here.empty() && fs::is_directory(here, ec) ? here.string() : dir);
}

void TestCasePanel::runAll(NavState& nav, Log& log) {
  m_ran = true;
  m_ranOn = navSignature(nav);
  m_results.assign(m_cases.size(), TestCaseResult());
  m_check.assign(m_cases.size(), -1);
  m_diffs.assign(m_cases.size(), std::string());
  if (!nav.loaded()) return;
  m_query = std::make_unique<nav::NavMeshQuery>();
  if (nav::statusFailed(m_query->init(&nav.mesh(), kTestCaseMaxNodes))) {
    m_error = "cannot initialise a query with " + std::to_string(kTestCaseMaxNodes) + " nodes";
    log.error("test cases: " + m_error);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  int bad = 0, checked = 0;
  // Times are the best of a few runs (one run of a case is a few µs: a context switch would
  // dominate it); results are the same every run.
  const int reps = m_cases.size() <= 2000 ? 3 : 1;
  for (size_t i = 0; i < m_cases.size(); ++i) {
    double best = 1e300;
    for (int k = 0; k < reps; ++k) {
      m_runner.run(*m_query, nullptr, m_cases[i], m_results[i], nullptr);
      best = std::min(best, m_results[i].us);
    }
    m_results[i].us = best;
    if (!m_cases[i].expect.present) continue;
    ++checked;
    std::vector<std::string> diffs;
    m_check[i] = checkExpect(m_cases[i], m_results[i], &diffs) ? 1 : 0;
    for (const std::string& d : diffs) m_diffs[i] += (m_diffs[i].empty() ? "" : "; ") + d;
    if (!m_check[i]) {
      ++bad;
      log.warning(m_path + ":" + std::to_string(m_cases[i].line) + ": " + m_diffs[i]);
    }
  }
  m_runMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  char buf[200];
  std::snprintf(buf, sizeof buf, "ran %d test cases (x%d) in %.2f ms", int(m_cases.size()), reps, m_runMs);
  std::string msg = buf;
  if (checked) msg += ": " + std::to_string(checked - bad) + " of " + std::to_string(checked) + " as expected";
  if (bad) log.warning("test cases: " + msg);
  else log.info("test cases: " + msg);
}

void TestCasePanel::showCase(int i, Context& ctx) {
  if (i < 0 || i >= int(m_cases.size()) || !ctx.tools || !ctx.activeTool) return;
  const TestCase& c = m_cases[size_t(i)];
  m_selected = i;
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
  ctx.log->info("test case " + std::to_string(i) + " (" + m_path + ":" + std::to_string(c.line) + ") shown in " + want);
}

void TestCasePanel::draw(Context& ctx) {
  std::string chosen;
  if (m_dialog.draw(chosen)) open(chosen, *ctx.log);
  if (!visible) return;
  if (ctx.nav && !m_cases.empty() && ctx.nav->loaded() && (!m_ran || navSignature(*ctx.nav) != m_ranOn))
    runAll(*ctx.nav, *ctx.log);

  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // The right column (over the View panel): clicked cases are framed in the view's left part.
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - 490, vp->Pos.y + 30), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(480, 420), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(1.0f); // opaque: it sits over the stats overlay and the View panel
  if (!ImGui::Begin("Test cases", &visible)) {
    ImGui::End();
    return;
  }
  if (m_path.empty()) {
    ImGui::TextWrapped("No test-case file: File > Open test cases..., or drop a RecastDemo .txt file (pf / rc lines) "
                       "on the window.");
  } else {
    ImGui::TextUnformatted(m_path.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m_path.c_str());
  }
  if (!m_error.empty()) ImGui::TextColored(kRed, "%s", m_error.c_str());
  if (!m_header.sample.empty() || !m_header.geometry.empty())
    ImGui::TextDisabled("sample: %s   level: %s", m_header.sample.empty() ? "-" : m_header.sample.c_str(),
                        m_header.geometry.empty() ? "-" : m_header.geometry.c_str());
  m_levelNote.clear();
  if (!m_header.geometry.empty() && ctx.level) { // the `f` line's OBJ vs the open level (or tile set)
    const std::string want = lower(fs::path(m_header.geometry).stem().string());
    const std::string have = ctx.level->empty() ? std::string() : lower(fs::path(ctx.level->path()).stem().string());
    const std::string navStem = ctx.nav && ctx.nav->loaded() ? lower(fs::path(ctx.nav->path()).stem().string()) : "";
    if (want != have && want != navStem)
      m_levelNote = "Made on " + m_header.geometry + "; the open level is " +
                    (ctx.level->empty() ? std::string("(none)") : fs::path(ctx.level->path()).filename().string()) +
                    ": the cases may miss the mesh.";
  }
  if (!m_levelNote.empty()) ImGui::TextColored(kAmber, "%s", m_levelNote.c_str());
  if (!ctx.nav || !ctx.nav->loaded()) ImGui::TextColored(kAmber, "No navmesh open: open or bake one to run the cases.");

  if (ImGui::Button("Run all") && ctx.nav && ctx.nav->loaded()) runAll(*ctx.nav, *ctx.log);
  ImGui::SameLine();
  if (ImGui::Button("Reload") && !m_path.empty()) open(m_path, *ctx.log);
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

  if (m_ran && !m_cases.empty()) {
    int pass = 0, fail = 0;
    for (int v : m_check) pass += v == 1, fail += v == 0;
    ImGui::Text("%d cases, %.2f ms", int(m_cases.size()), m_runMs);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every case runs 3 times (1 time in files over 2000 cases); us = the best");
    if (pass + fail) {
      ImGui::SameLine();
      ImGui::TextColored(fail ? kRed : kGreen, " expected: %d ok, %d mismatch%s", pass, fail,
                         pass + fail < int(m_cases.size()) ? " (some unchecked)" : "");
    }
  }
  drawTable(ctx);
  exportUi(ctx);
  ImGui::End();
}

void TestCasePanel::drawTable(Context& ctx) {
  const bool hasExpect = m_header.expectCount > 0;
  const int ncol = hasExpect ? 9 : 8;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  const float exportHeight = ImGui::GetFrameHeightWithSpacing() * 2.3f;
  if (!ImGui::BeginTable("cases", ncol, flags, ImVec2(0, -exportHeight))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#");
  ImGui::TableSetupColumn("kind");
  ImGui::TableSetupColumn("status");
  ImGui::TableSetupColumn("corridor");
  ImGui::TableSetupColumn("corners");
  ImGui::TableSetupColumn("len / t");
  ImGui::TableSetupColumn("us"); // best of 3 runs of the case's queries
  ImGui::TableSetupColumn("line");
  if (hasExpect) ImGui::TableSetupColumn("expect");
  ImGui::TableHeadersRow();
  int next = -1;
  ImGuiListClipper clipper;
  clipper.Begin(int(m_cases.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const TestCase& c = m_cases[size_t(i)];
      const bool ran = m_ran && size_t(i) < m_results.size() && ctx.nav && ctx.nav->loaded();
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char label[32];
      std::snprintf(label, sizeof label, "%d##case", i);
      if (ImGui::Selectable(label, m_selected == i, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        next = i;
      if (i == 0) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        m_firstRowPos[0] = (a.x + b.x) * 0.5f;
        m_firstRowPos[1] = (a.y + b.y) * 0.5f;
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\n%s%s%s", formatCase(c).c_str(), c.expect.present ? formatExpect(c.raycast, c.expect).c_str() : "",
                          size_t(i) < m_diffs.size() && !m_diffs[size_t(i)].empty() ? "\n" : "",
                          size_t(i) < m_diffs.size() ? m_diffs[size_t(i)].c_str() : "");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.raycast ? "rc" : "pf");
      const TestCaseResult* r = ran ? &m_results[size_t(i)] : nullptr;
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
        const int chk = size_t(i) < m_check.size() && ran ? m_check[size_t(i)] : -1;
        if (chk == 1) ImGui::TextColored(kGreen, "ok");
        else if (chk == 0) ImGui::TextColored(kRed, "MISMATCH");
        else ImGui::TextDisabled(c.expect.present ? "?" : "-");
      }
    }
  }
  ImGui::EndTable();
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !m_cases.empty() && !ImGui::GetIO().WantTextInput) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) next = std::min(m_selected + 1, int(m_cases.size()) - 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) next = std::max(m_selected - 1, 0);
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
  m_exportLine.clear();
  if (st.contains("start") && st.contains("end") && ctx.nav) {
    TestCase c;
    c.raycast = std::string(tool->name()) == "Raycast";
    for (int k = 0; k < 3; ++k) {
      c.s[k] = st["start"][size_t(k)].get<float>();
      c.e[k] = st["end"][size_t(k)].get<float>();
    }
    c.inc = ctx.nav->filter().getIncludeFlags();
    c.exc = ctx.nav->filter().getExcludeFlags();
    m_exportLine = formatCase(c);
  }
  if (m_exportLine.empty()) {
    ImGui::TextDisabled("Export: set a start and an end in a tester mode first");
    return;
  }
  std::string shown = m_exportLine; // read-only field: scrolls when the line is wider than the panel
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##export", &shown, ImGuiInputTextFlags_ReadOnly);
  if (ImGui::Button("Copy line")) {
    ImGui::SetClipboardText(m_exportLine.c_str());
    m_exportMsg = "copied to the clipboard";
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy the current start/end as a %s line", m_exportLine.substr(0, 2).c_str());
  ImGui::SameLine();
  ImGui::BeginDisabled(m_path.empty() || !m_error.empty());
  const bool append = ImGui::Button("Append to file");
  m_appendPos[0] = (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f;
  m_appendPos[1] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
  if (append) {
    std::string text, why;
    if (!readText(m_path, text)) {
      m_exportMsg = m_path + ": cannot read";
      ctx.log->error("test cases: " + m_exportMsg);
    } else {
      const bool crlf = text.find("\r\n") != std::string::npos;
      if (!text.empty() && text.back() != '\n') text += crlf ? "\r\n" : "\n";
      text += m_exportLine + (crlf ? "\r\n" : "\n");
      if (!base::writeFileAtomic(m_path, text, why)) {
        m_exportMsg = why;
        ctx.log->error("test cases: " + why);
      } else {
        ctx.log->info("test cases: appended '" + m_exportLine + "' to " + m_path);
        const std::string path = m_path;
        open(path, *ctx.log);
        m_exportMsg = "appended as case " + std::to_string(int(m_cases.size()) - 1);
      }
    }
  }
  ImGui::EndDisabled();
  if (!m_exportMsg.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", m_exportMsg.c_str());
  }
}

void TestCasePanel::dumpState(nlohmann::json& out) const {
  out["path"] = m_path;
  out["error"] = m_error;
  out["sample"] = m_header.sample;
  out["geometry"] = m_header.geometry;
  out["visible"] = visible;
  out["ran"] = m_ran;
  out["selected"] = m_selected;
  out["firstRow"] = {m_firstRowPos[0], m_firstRowPos[1]};
  out["appendButton"] = {m_appendPos[0], m_appendPos[1]};
  out["exportMessage"] = m_exportMsg;
  out["levelNote"] = m_levelNote;
  out["exportLine"] = m_exportLine;
  nlohmann::json cases = nlohmann::json::array();
  for (size_t i = 0; i < m_cases.size(); ++i) {
    const TestCase& c = m_cases[i];
    nlohmann::json j;
    j["line"] = c.line;
    j["kind"] = c.raycast ? "rc" : "pf";
    j["s"] = {c.s[0], c.s[1], c.s[2]};
    j["e"] = {c.e[0], c.e[1], c.e[2]};
    if (m_ran && i < m_results.size()) {
      const TestCaseResult& r = m_results[i];
      j["status"] = resultStatus(c, r);
      j["polys"] = r.polys.size();
      if (!c.raycast) {
        j["straight"] = r.straightFlags.size();
        j["len"] = r.straightLength();
      } else if (r.startRef && r.t <= 1) {
        j["t"] = r.t;
      }
      j["check"] = m_check[i];
      j["diffs"] = m_diffs[i];
    }
    cases.push_back(j);
  }
  out["cases"] = cases;
}

} // namespace navbench

namespace navbench {
namespace {
class TestCasesWindow final : public Panel {
public:
  const char* name() const override { return "Test cases"; }
  const char* menuLabel() const override { return "Test cases panel"; }
  int menuOrder() const override { return 4; }
  bool* visible(Document& doc) override { return &doc.testCases.visible; }
  void draw(PanelContext& ctx) override { // always: its file dialog too
    Document& doc = ctx.doc;
    TestCasePanel::Context c{&doc.nav, &doc.level, &doc.tools, &doc.activeTool, &doc.camera, &ctx.log};
    doc.testCases.draw(c);
  }
};
} // namespace

std::unique_ptr<Panel> makeTestCasesPanel() { return std::make_unique<TestCasesWindow>(); }
} // namespace navbench
