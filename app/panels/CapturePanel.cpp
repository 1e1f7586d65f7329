// CapturePanel.cpp: see CapturePanel.h.
#include "app/panels/CapturePanel.h"

#include "app/Document.h"
#include "app/panels/Panels.h"
#include "render/Camera.h"
#include "render/DebugDraw.h"

#include "nav/base/Json.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

namespace navbench {

namespace {

const ImVec4 kRed(1, 0.45f, 0.4f, 1), kGreen(0.45f, 0.9f, 0.45f, 1), kAmber(1, 0.8f, 0.3f, 1);
const ImVec4 kGameText(kCaptureGameColour[0] / 255.0f, kCaptureGameColour[1] / 255.0f, kCaptureGameColour[2] / 255.0f, 1);
constexpr uint32_t kGame = render::rgba(kCaptureGameColour[0], kCaptureGameColour[1], kCaptureGameColour[2], kCaptureGameColour[3]);
/// The game's answer is raised this much above the ground, NavBench's tester path 0.4 [Unit: wu].
constexpr float kGameLift = 0.7f;

/// "include 0x000f, exclude 0x0010, 2048 nodes, 3 area costs set".
std::string filterText(const nav::CapturedQuery& q) {
  int costs = 0;
  for (float c : q.areaCost) costs += c != 1.0f ? 1 : 0;
  char buf[160];
  std::snprintf(buf, sizeof buf, "include 0x%04x, exclude 0x%04x, %d nodes, %d area cost%s not 1", q.includeFlags,
                q.excludeFlags, q.maxNodes, costs, costs == 1 ? "" : "s");
  return buf;
}

std::string differenceText(const CaptureQueryResult* r) {
  if (!r) return std::string();
  if (r->outcome == CaptureOutcome::Differs)
    return r->difference.field + ": game " + r->difference.game + ", NavBench " + r->difference.ours;
  if (r->outcome == CaptureOutcome::Failed) return "the query could not be set up (out of memory)";
  return std::string();
}

/// The selected query in its tester mode: the captured filter, node budget and search box on the
/// navmesh, then start / end (and the straight path's crossing option) as a scenario would set them.
void showQuery(Document& doc, Log& log, bool frame) {
  const nav::CapturedQuery* q = doc.capture.selectedQuery();
  if (!q) return;
  const bool ray = q->kind == nav::CAPTURE_RAYCAST;
  const bool straight = !ray && (doc.capture.showTool().empty() || doc.capture.showTool() == "Pathfind Straight");
  const std::string want = ray ? "Raycast" : straight ? "Pathfind Straight" : doc.capture.showTool();
  const int index = doc.findTool(want);
  if (index < 0) {
    log.error("capture: no '" + want + "' tool to show the query in");
    return;
  }
  doc.setActiveTool(index);
  doc.nav.filter() = captureFilter(*q);
  doc.nav.setMaxNodes(q->maxNodes);
  std::copy(q->halfExtents, q->halfExtents + 3, doc.nav.extents);
  doc.filterChanged();
  // The points the game's findPath (raycast) got: its nearest points of start and end, so the
  // tester's path runs from where the game's did.
  const float* from = ray ? q->rayStart : q->pathStart;
  const float* to = ray ? q->rayEnd : q->pathEnd;
  nlohmann::json st = {{"start", base::exactVec3(from)}, {"end", base::exactVec3(to)}};
  if (straight) { // Detour's straight path options: area crossings (1) win over all crossings (2)
    const int crossing = (q->straightOptions & 1) ? 1 : (q->straightOptions & 2) ? 2 : 0;
    st["options"] = {{"crossing", crossing}};
  }
  std::string why;
  if (!doc.tool()->loadScenario(st, why)) { // (a tool without a start and an end)
    log.error("capture: query " + std::to_string(doc.capture.selected()) + " cannot be shown in " + want + ": " + why);
    return;
  }
  if (frame) {
    const glm::vec3 a(from[0], from[1], from[2]), b(to[0], to[1], to[2]), pad(3.0f);
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    doc.camera.frame(glm::min(a, b) - pad, glm::max(a, b) + pad, ds.y > 0 ? ds.x / ds.y : 1.0f, glm::vec2(-0.5f, -0.62f),
                     glm::vec2(0.2f, 0.86f)); // left of the panel, above the log
  }
  log.info("captured query " + std::to_string(doc.capture.selected()) + (q->note.empty() ? "" : " (" + q->note + ")") +
           " shown in " + want + ": " + filterText(*q));
}

void replay(Document& doc, Log& log) {
  CaptureSession& s = doc.capture;
  s.replay(doc.nav.mesh(), doc.nav.contentKey());
  const int ok = s.count(CaptureOutcome::Identical), bad = s.count(CaptureOutcome::Differs);
  const int stale = s.count(CaptureOutcome::Stale), failed = s.count(CaptureOutcome::Failed);
  char buf[200];
  std::snprintf(buf, sizeof buf, "capture %s: %d queries replayed: %d ok, %d MISMATCH, %d stale%s", s.path().c_str(),
                int(s.queries().size()), ok, bad, stale, failed ? ", some failed" : "");
  if (bad || failed) log.warning(buf);
  else log.info(buf);
  for (size_t i = 0; i < s.queries().size(); ++i)
    if (const CaptureQueryResult* r = s.result(i); r && r->outcome == CaptureOutcome::Differs)
      log.warning("capture: query " + std::to_string(i) + ": " + differenceText(r));
}

void drawTable(Document& doc, bool& show) {
  CaptureSession& s = doc.capture;
  const std::vector<nav::CapturedQuery>& qs = s.queries();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  const float below = ImGui::GetTextLineHeightWithSpacing() * 4.5f; // the difference and the legend
  if (!ImGui::BeginTable("captured", 5, flags, ImVec2(0, -below))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* column : {"#", "kind", "result", "game", "note"}) ImGui::TableSetupColumn(column);
  ImGui::TableHeadersRow();
  int next = -1;
  ImGuiListClipper clipper;
  clipper.Begin(int(qs.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const nav::CapturedQuery& q = qs[size_t(i)];
      const CaptureQueryResult* r = s.result(size_t(i));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char label[32];
      std::snprintf(label, sizeof label, "%d##query", i);
      if (ImGui::Selectable(label, s.selected() == i, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        next = i;
      if (ImGui::IsItemHovered()) {
        const std::string diff = differenceText(r);
        ImGui::SetTooltip("start (%.3f, %.3f, %.3f)  end (%.3f, %.3f, %.3f)\n%s%s%s%s", double(q.start[0]), double(q.start[1]),
                          double(q.start[2]), double(q.end[0]), double(q.end[1]), double(q.end[2]), filterText(q).c_str(),
                          diff.empty() ? "" : "\nfirst difference: ", diff.c_str(),
                          q.stale() ? "\nstale: its polys were rebuilt before the capture was saved; not replayed" : "");
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(captureKindName(q));
      ImGui::TableNextColumn();
      const char* label2 = captureRowLabel(r);
      if (!r) ImGui::TextDisabled("%s", label2);
      else if (r->outcome == CaptureOutcome::Identical) ImGui::TextColored(kGreen, "%s", label2);
      else if (r->outcome == CaptureOutcome::Stale) ImGui::TextColored(kAmber, "%s", label2);
      else ImGui::TextColored(kRed, "%s", label2);
      ImGui::TableNextColumn();
      if (q.kind == nav::CAPTURE_RAYCAST) {
        if (q.t <= 1.0f) ImGui::Text("hit t %.3f", double(q.t));
        else ImGui::TextUnformatted("clear");
      } else {
        const bool partial = nav::statusDetail(q.pathStatus, nav::PARTIAL_RESULT);
        ImGui::Text("%d polys, %d corners%s", int(q.path.size()), int(q.straightFlags.size()), partial ? ", partial" : "");
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(q.note.c_str());
    }
  }
  ImGui::EndTable();
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !qs.empty() && !ImGui::GetIO().WantTextInput) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) next = s.rowFrom(+1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) next = s.rowFrom(-1);
  }
  if (next >= 0 && s.select(next, false)) show = true; // (shown below, this frame)
}

void drawPanel(PanelContext& c, bool& shown, bool& frameCamera) {
  Document& doc = c.doc;
  CaptureSession& s = doc.capture;
  if (!s.isOpen()) {
    if (!shown) return;
    if (ImGui::Begin("Captured queries", &shown))
      ImGui::TextWrapped("No path capture open: File > Open a .nbcap a game wrote (capture/navbench_capture.h), or drop "
                         "it on the window.");
    ImGui::End();
    return;
  }
  // Replayed on the navmesh as it is now (again after an in-place edit), before anything is shown.
  if (doc.nav.loaded() && s.stale(doc.nav.contentKey())) replay(doc, c.log);
  if (s.takeShowRequest()) showQuery(doc, c.log, frameCamera);
  if (!shown) return;
  c.layout.placeOnDemand("Captured queries"); // (its place and size: PanelLayout)
  ImGui::SetNextWindowBgAlpha(1.0f);
  if (!ImGui::Begin("Captured queries", &shown)) {
    ImGui::End();
    return;
  }
  ImGui::TextUnformatted(s.path().c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.path().c_str());
  if (s.ran()) {
    const int bad = s.count(CaptureOutcome::Differs) + s.count(CaptureOutcome::Failed);
    ImGui::TextColored(bad ? kRed : kGreen, "%d queries: %d ok, %d MISMATCH", int(s.queries().size()),
                       s.count(CaptureOutcome::Identical), bad);
    if (const int stale = s.count(CaptureOutcome::Stale)) {
      ImGui::SameLine(0, 0);
      ImGui::TextColored(kAmber, ", %d stale", stale);
    }
  }
  if (ImGui::Button("Replay")) replay(doc, c.log);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Run every query again on the open navmesh (as navbench replay)");
  ImGui::SameLine();
  ImGui::Checkbox("Frame", &frameCamera);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Frame the camera on a query when its row is selected");
  bool show = false;
  drawTable(doc, show);
  if (show) showQuery(doc, c.log, frameCamera);
  const int sel = s.selected();
  const std::string diff = sel >= 0 ? differenceText(s.result(size_t(sel))) : std::string();
  if (!diff.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kRed);
    ImGui::TextWrapped("query %d, first difference: %s", sel, diff.c_str());
    ImGui::PopStyleColor();
  }
  else if (sel >= 0 && s.result(size_t(sel)) && s.result(size_t(sel))->outcome == CaptureOutcome::Identical)
    ImGui::TextColored(kGreen, "query %d: NavBench's answer is the game's, bit for bit", sel);
  else if (const nav::CapturedQuery* q = s.selectedQuery(); q && q->stale())
    ImGui::TextColored(kAmber, "query %d is stale: not replayed", sel);
  ImGui::TextColored(kGameText, "yellow, raised: the game's answer");
  ImGui::SameLine();
  ImGui::TextDisabled(" dark, lower: NavBench's");
  ImGui::End();
}

} // namespace

void drawCaptureOverlay(render::DebugDraw& dd, const CaptureSession& capture) {
  const nav::CapturedQuery* q = capture.selectedQuery();
  if (!q) return;
  const glm::vec3 up(0, kGameLift, 0);
  if (q->kind == nav::CAPTURE_RAYCAST) {
    const glm::vec3 a(q->rayStart[0], q->rayStart[1], q->rayStart[2]), b(q->rayEnd[0], q->rayEnd[1], q->rayEnd[2]);
    const bool hit = q->t <= 1.0f;
    const glm::vec3 h = hit ? a + (b - a) * q->t : b;
    dd.line(a + up, h + up, kGame, 3.0f);
    if (hit) dd.cross(h + up, 0.4f, kGame, 3.0f);
    return;
  }
  const std::vector<float>& p = q->straight;
  const size_t n = p.size() / 3;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 v(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]);
    if (i > 0) dd.line(glm::vec3(p[i * 3 - 3], p[i * 3 - 2], p[i * 3 - 1]) + up, v + up, kGame, 2.0f); // (thinner than NavBench's: it shows round it)
    dd.point(v + up, kGame, 8.0f);
    dd.line(v, v + up, kGame, 1.0f);
  }
}

// Drawn every frame, shown or not: a new selection is shown in its tester mode either way.
std::unique_ptr<Panel> makeCapturePanel() {
  auto shownIn = [](Document& doc) { return &doc.captureVisible; };
  auto frameCamera = std::make_shared<bool>(true);
  return makePanel({"Captured queries", "Captured queries panel", 4, false, shownIn},
                   [frameCamera](PanelContext& c, bool& shown) { drawPanel(c, shown, *frameCamera); });
}

} // namespace navbench
