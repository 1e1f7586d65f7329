#include "app/tools/Tester.h"

#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/tools/BakeButtonUi.h"
#include "nav/ShortestPath.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace navbench {

Tester::Tester() = default;
Tester::~Tester() = default;

void Tester::setShowShortest(bool on) {
  m_showShortest = on;
  recomputeAll();
}

void Tester::computeShortest(const nav::PolyRef* corridor, int ncorridor) {
  m_spPts.clear();
  m_spPolys.clear();
  m_spOutside.clear();
  m_spStatus = 0;
  m_spLen = 0;
  m_spUs = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!m_showShortest || !nav || !nav->loaded() || !m_startRef || !m_endRef) return;
  if (!m_sp || m_spMesh != &nav->mesh()) {
    m_sp = std::make_unique<nav::ShortestPath>();
    if (nav::statusFailed(m_sp->init(&nav->mesh(), 8192))) {
      m_sp.reset();
      return;
    }
    m_spMesh = &nav->mesh();
  }
  std::vector<float> pts(size_t(kMaxPolys) * 3);
  std::vector<nav::PolyRef> polys(size_t(kMaxPolys) * 4);
  int n = 0, np = 0;
  const auto t0 = std::chrono::steady_clock::now();
  m_spStatus = m_sp->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), pts.data(), nullptr, nullptr,
                              &n, kMaxPolys, polys.data(), &np, int(polys.size()), &m_spLen);
  m_spUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  if (nav::statusFailed(m_spStatus)) return;
  m_spPts.assign(pts.begin(), pts.begin() + n * 3);
  m_spPolys.assign(polys.begin(), polys.begin() + np);
  std::vector<nav::PolyRef> in(corridor, corridor + ncorridor);
  std::sort(in.begin(), in.end());
  for (nav::PolyRef r : m_spPolys)
    if (!std::binary_search(in.begin(), in.end(), r) && std::find(m_spOutside.begin(), m_spOutside.end(), r) == m_spOutside.end())
      m_spOutside.push_back(r);
}

void Tester::drawShortest(render::DebugDraw& dd) const {
  if (!m_showShortest || m_spPts.empty() || !m_ctx || !m_ctx->nav) return;
  for (nav::PolyRef r : m_spOutside) drawPolyFill(dd, m_ctx->nav->mesh(), r, render::rgba(255, 0, 200, 90), 0.08f);
  const uint32_t col = render::rgba(255, 140, 0, 245);
  const glm::vec3 up(0, 0.55f, 0);
  const int n = int(m_spPts.size() / 3);
  for (int i = 1; i < n; ++i)
    dd.line(glm::vec3(m_spPts[size_t(i) * 3 - 3], m_spPts[size_t(i) * 3 - 2], m_spPts[size_t(i) * 3 - 1]) + up,
            glm::vec3(m_spPts[size_t(i) * 3], m_spPts[size_t(i) * 3 + 1], m_spPts[size_t(i) * 3 + 2]) + up, col, 3.0f);
  for (int i = 0; i < n; ++i) {
    const glm::vec3 p(m_spPts[size_t(i) * 3], m_spPts[size_t(i) * 3 + 1], m_spPts[size_t(i) * 3 + 2]);
    dd.point(p + up, col, 8.0f);
    dd.line(p, p + up, col, 1.0f);
  }
}

void Tester::shortestUi(const char* otherName, float otherLen) {
  if (ImGui::Checkbox("Shortest path", &m_showShortest)) recomputeAll();
  if (!m_showShortest) return;
  if (m_spStatus && nav::statusFailed(m_spStatus)) {
    char buf[160];
    ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "Shortest path failed: %s", nav::statusToString(m_spStatus, buf, sizeof buf));
    return;
  }
  if (m_spPts.empty()) return;
  // Both lengths in 3D (otherLen is the mode's 3D polyline length); m_spLen is ShortestPath's own
  // metric (xz on the mesh, 3D across off-mesh links, times area costs), shown apart.
  const float spLen3 = polylineLength(m_spPts.data(), int(m_spPts.size() / 3));
  ImGui::TextColored(ImVec4(1, 0.55f, 0, 1), "Shortest %d corners, %.2f m 3D (%.1f us)", int(m_spPts.size() / 3),
                     double(spLen3), m_spUs);
  ImGui::Text("%s %.2f m 3D, ratio %s / shortest (3D) %.4f", otherName, double(otherLen), otherName,
              spLen3 > 0 ? double(otherLen / spLen3) : 1.0);
  ImGui::TextDisabled("search metric (xz, 3D on links, x area cost): %.2f", double(m_spLen));
  ImGui::TextColored(ImVec4(1, 0, 0.8f, 1), "Polys outside the corridor: %d", int(m_spOutside.size()));
  if (nav::statusDetail(m_spStatus, nav::PARTIAL_RESULT) || nav::statusDetail(m_spStatus, nav::OUT_OF_NODES)) {
    char buf[160];
    ImGui::TextWrapped("Shortest status: %s", nav::statusToString(m_spStatus, buf, sizeof buf));
  }
}

void Tester::dumpShortest(nlohmann::json& out) const {
  if (!m_showShortest) return;
  out["shortestStatus"] = m_spStatus;
  out["shortestLen"] = m_spLen;
  out["shortestPath"] = m_spPts;
  out["shortestPolys"] = m_spPolys;
  out["shortestPolysOutsideCorridor"] = m_spOutside;
}

void Tester::reset() {
  m_hasStart = m_hasEnd = false;
  m_startRef = m_endRef = 0;
  m_status = 0;
  m_queryUs = 0;
  m_nodesUsed = 0;
  recompute();
  computeShortest(nullptr, 0); // clears (no start / end)
}

void Tester::onLevelChanged() {
  m_undo.clear();
  m_redo.clear();
  reset();
}

void Tester::pushUndo() {
  m_undo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  if (m_undo.size() > 256) m_undo.erase(m_undo.begin());
  m_redo.clear();
  if (m_ctx && m_ctx->inputChanged) m_ctx->inputChanged(this);
}

void Tester::undo() {
  if (m_undo.empty()) return;
  m_redo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  const Input in = m_undo.back();
  m_undo.pop_back();
  m_hasStart = in.hasStart;
  m_hasEnd = in.hasEnd;
  m_start = in.start;
  m_end = in.end;
  recomputeAll();
}

void Tester::redo() {
  if (m_redo.empty()) return;
  m_undo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  const Input in = m_redo.back();
  m_redo.pop_back();
  m_hasStart = in.hasStart;
  m_hasEnd = in.hasEnd;
  m_start = in.start;
  m_end = in.end;
  recomputeAll();
}

void Tester::setStart(const glm::vec3& p) {
  pushUndo();
  m_start = p;
  m_hasStart = true;
  recomputeAll();
}

void Tester::setEnd(const glm::vec3& p) {
  pushUndo();
  m_end = p;
  m_hasEnd = true;
  recomputeAll();
}

void Tester::onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) {
  if (shift || !needsEnd()) setStart(hitPos);
  else setEnd(hitPos);
}

void Tester::recomputeAll() {
  m_startRef = m_endRef = 0;
  m_status = 0;
  m_nodesUsed = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (nav && nav->loaded()) {
    if (m_hasStart) m_startRef = nav->nearestPoly(m_start);
    if (m_hasEnd) m_endRef = nav->nearestPoly(m_end);
  }
  const auto t0 = std::chrono::steady_clock::now();
  recompute();
  m_queryUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  const nav::PolyRef* corridor = nullptr;
  const int ncorridor = corridorForShortest(&corridor);
  if (ncorridor >= 0) computeShortest(corridor, ncorridor);
}

float Tester::polylineLength(const float* pts, int n) {
  float len = 0;
  for (int i = 1; i < n; ++i)
    len += std::sqrt((pts[i * 3] - pts[i * 3 - 3]) * (pts[i * 3] - pts[i * 3 - 3]) +
                     (pts[i * 3 + 1] - pts[i * 3 - 2]) * (pts[i * 3 + 1] - pts[i * 3 - 2]) +
                     (pts[i * 3 + 2] - pts[i * 3 - 1]) * (pts[i * 3 + 2] - pts[i * 3 - 1]));
  return len;
}

void Tester::drawUi() {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  m_bakeButton[0] = m_bakeButton[1] = -1.0f;
  if (!nav || !nav->loaded()) {
    if (m_ctx && m_ctx->bake && m_ctx->log) drawNoNavmesh(*m_ctx->bake, *m_ctx->log, m_bakeButton); // Bake, or its progress
    else ImGui::TextWrapped("No navmesh open: open a .bin tile set (File > Open, or drop it here).");
    return;
  }
  ImGui::TextWrapped(needsEnd() ? "Shift+click or right click: start. Click: end." : "Shift+click, right click or click: start.");
  glm::vec3 s = m_start, e = m_end;
  if (ImGui::InputFloat3("Start", &s.x, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) setStart(s);
  if (needsEnd() && ImGui::InputFloat3("End", &e.x, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) setEnd(e);
  if (ImGui::Button("Copy")) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "start %.4f %.4f %.4f end %.4f %.4f %.4f", double(m_start.x), double(m_start.y),
                  double(m_start.z), double(m_end.x), double(m_end.y), double(m_end.z));
    ImGui::SetClipboardText(buf);
  }
  ImGui::SameLine();
  if (ImGui::Button("Undo")) undo();
  ImGui::SameLine();
  if (ImGui::Button("Redo")) redo();
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    pushUndo();
    reset();
  }
  ImGui::Separator();
  ImGui::Text("Start ref %u  End ref %u", unsigned(m_startRef), unsigned(m_endRef));
  if (m_hasStart && !m_startRef) ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "Start is not on the navmesh");
  if (needsEnd() && m_hasEnd && !m_endRef) ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "End is not on the navmesh");
  if (m_status) {
    char buf[160];
    ImGui::TextWrapped("Status: %s", nav::statusToString(m_status, buf, sizeof buf));
    if (nav::statusDetail(m_status, nav::PARTIAL_RESULT))
      ImGui::TextColored(ImVec4(1, 0.8f, 0.2f, 1), "Partial result: the end was not reached");
    if (nav::statusDetail(m_status, nav::OUT_OF_NODES))
      ImGui::TextColored(ImVec4(1, 0.4f, 0.2f, 1), "Ran out of nodes (raise the node budget)");
  }
  ImGui::Text("Query time %.1f us   nodes used %d", m_queryUs, m_nodesUsed);
  resultUi();
}

void Tester::draw(render::DebugDraw& dd) {
  const uint32_t startCol = render::rgba(128, 25, 0, 220), endCol = render::rgba(51, 102, 0, 220);
  if (m_hasStart) drawAgent(dd, m_start, kAgentRadius, kAgentHeight, startCol);
  if (m_hasEnd && needsEnd()) drawAgent(dd, m_end, kAgentRadius, kAgentHeight, endCol);
  drawResult(dd);
}

void Tester::drawCorridor(render::DebugDraw& dd, const nav::PolyRef* polys, int n) const {
  if (!m_ctx || !m_ctx->nav) return;
  for (int i = 0; i < n; ++i) drawPolyFill(dd, m_ctx->nav->mesh(), polys[i], render::rgba(255, 255, 255, 70), 0.07f);
}

void Tester::drawStraight(render::DebugDraw& dd, const float* pts, const uint8_t* flags, int n) const {
  const uint32_t lineCol = render::rgba(64, 16, 0, 220), offCol = render::rgba(128, 96, 0, 220);
  const glm::vec3 up(0, 0.4f, 0);
  for (int i = 1; i < n; ++i) {
    const glm::vec3 a(pts[i * 3 - 3], pts[i * 3 - 2], pts[i * 3 - 1]), b(pts[i * 3], pts[i * 3 + 1], pts[i * 3 + 2]);
    const bool off = flags && (flags[i - 1] & nav::STRAIGHTPATH_OFFMESH_CONNECTION);
    dd.line(a + up, b + up, off ? offCol : lineCol, 3.0f);
  }
  for (int i = 0; i < n; ++i) {
    const glm::vec3 p(pts[i * 3], pts[i * 3 + 1], pts[i * 3 + 2]);
    uint32_t c = render::rgba(64, 16, 0, 220);
    if (flags) {
      if (flags[i] & nav::STRAIGHTPATH_START) c = render::rgba(128, 25, 0, 255);
      else if (flags[i] & nav::STRAIGHTPATH_END) c = render::rgba(51, 102, 0, 255);
      else if (flags[i] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) c = offCol;
    }
    dd.point(p + up, c, 9.0f);
    dd.line(p, p + up, c, 1.0f);
  }
}

void Tester::drawPartialMarker(render::DebugDraw& dd, const float* p) const {
  if (!p || !(nav::statusDetail(m_status, nav::PARTIAL_RESULT) || nav::statusDetail(m_status, nav::OUT_OF_NODES))) return;
  const glm::vec3 q(p[0], p[1] + 0.5f, p[2]);
  dd.cross(q, 0.6f, render::rgba(255, 30, 30), 3.0f, false);
  dd.circle(q, 0.8f, render::rgba(255, 30, 30), 2.0f, false);
}

bool PathTester::findCorridor(float* endPos) {
  m_npath = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef || !m_endRef) return false;
  m_status = nav->query().findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), m_path.data(), &m_npath,
                                   kMaxPolys);
  m_nodesUsed = nav->query().searchView().nodeCount;
  if (m_npath == 0) return false;
  corridorEnd(endPos);
  return true;
}

void PathTester::corridorEnd(float* endPos) const {
  endPos[0] = m_end.x;
  endPos[1] = m_end.y;
  endPos[2] = m_end.z;
  if (m_path[size_t(m_npath - 1)] != m_endRef)
    m_ctx->nav->query().closestPointOnPoly(m_path[size_t(m_npath - 1)], &m_end.x, endPos, nullptr);
}

void PathTester::drawPath(render::DebugDraw& dd) const {
  drawCorridor(dd, m_path.data(), m_npath);
  drawStraight(dd, m_straight.data(), m_flags.data(), m_nstraight);
  if (m_nstraight > 0) drawPartialMarker(dd, &m_straight[size_t(m_nstraight - 1) * 3]);
}

void PathTester::dumpPath(nlohmann::json& out) const {
  out["corridor"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  out["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
}

void Tester::drawFoundPolys(render::DebugDraw& dd, const nav::PolyRef* refs, const nav::PolyRef* parents, int n) const {
  if (!m_ctx || !m_ctx->nav) return;
  const nav::NavMesh& mesh = m_ctx->nav->mesh();
  const glm::vec3 up(0, 0.3f, 0);
  for (int i = 0; i < n; ++i) {
    drawPolyFill(dd, mesh, refs[i], render::rgba(255, 196, 0, 70), 0.08f);
    if (parents[i]) // parent -> child arrow
      drawArc(dd, polyCenter(mesh, parents[i]) + up, polyCenter(mesh, refs[i]) + up, 0.4f, render::rgba(0, 0, 0, 160), false,
              1.5f);
  }
}

void Tester::dumpFoundPolys(nlohmann::json& out, const nav::PolyRef* refs, const nav::PolyRef* parents, int n) {
  out["found"] = std::vector<nav::PolyRef>(refs, refs + n);
  out["parents"] = std::vector<nav::PolyRef>(parents, parents + n);
}

void Tester::dumpState(nlohmann::json& out) const {
  out["tool"] = name();
  if (m_hasStart) out["start"] = {m_start.x, m_start.y, m_start.z};
  if (m_hasEnd) out["end"] = {m_end.x, m_end.y, m_end.z};
  out["startRef"] = m_startRef;
  out["endRef"] = m_endRef;
  out["status"] = m_status;
  char buf[160];
  out["statusText"] = m_status ? nav::statusToString(m_status, buf, sizeof buf) : "";
  out["queryUs"] = m_queryUs;
  out["nodesUsed"] = m_nodesUsed;
  if (m_bakeButton[0] >= 0) out["bakeButton"] = {m_bakeButton[0], m_bakeButton[1]}; // no navmesh: the offer to bake
  dumpResult(out);
}

void Tester::saveScenario(nlohmann::json& out) const {
  if (m_hasStart) out["start"] = exactVec3(&m_start.x);
  if (m_hasEnd) out["end"] = exactVec3(&m_end.x);
  const nav::PolyRef* corridor = nullptr;
  if (corridorForShortest(&corridor) >= 0) out["shortest"] = m_showShortest;
  nlohmann::json opt = nlohmann::json::object();
  saveOptions(opt);
  out["options"] = opt;
}

bool Tester::loadOptions(const nlohmann::json& in, std::string& error) {
  if (in.empty()) return true;
  error = "options." + in.begin().key() + ": unknown key (" + name() + " has no options)";
  return false;
}

bool Tester::loadScenario(const nlohmann::json& in, std::string& error) {
  if (!in.is_object()) {
    error = std::string("expected an object, got ") + in.type_name();
    return false;
  }
  const nav::PolyRef* corridor = nullptr;
  const bool hasShortest = corridorForShortest(&corridor) >= 0;
  for (auto it = in.begin(); it != in.end(); ++it)
    if (it.key() != "start" && it.key() != "end" && it.key() != "options" && (it.key() != "shortest" || !hasShortest)) {
      error = it.key() + ": unknown key";
      return false;
    }
  glm::vec3 s(0.0f), e(0.0f);
  const bool hasStart = in.contains("start"), hasEnd = in.contains("end");
  if (hasStart && !readVec3(in["start"], "start", &s.x, error)) return false;
  if (hasEnd && !readVec3(in["end"], "end", &e.x, error)) return false;
  for (int i = 0; i < 3; ++i)
    if (std::fabs(s[i]) > 1e9f || std::fabs(e[i]) > 1e9f) {
      error = std::string(std::fabs(s[i]) > 1e9f ? "start" : "end") + ": coordinates must be within 1e9";
      return false;
    }
  bool shortest = m_showShortest;
  if (in.contains("shortest")) {
    if (!in["shortest"].is_boolean()) {
      error = std::string("shortest: expected true or false, got ") + in["shortest"].type_name();
      return false;
    }
    shortest = in["shortest"].get<bool>();
  }
  const nlohmann::json noOptions = nlohmann::json::object();
  const nlohmann::json& opt = in.contains("options") ? in["options"] : noOptions;
  if (!opt.is_object()) {
    error = std::string("options: expected an object, got ") + opt.type_name();
    return false;
  }
  if (!loadOptions(opt, error)) return false; // applies the options only when all are valid
  pushUndo();
  m_hasStart = hasStart;
  m_hasEnd = hasEnd;
  m_start = s;
  m_end = e;
  m_showShortest = shortest;
  recomputeAll();
  afterScenarioLoad();
  return true;
}

std::string Tester::caption() const {
  std::string c = name() + captionDetail();
  char buf[256];
  if (m_hasStart) {
    std::snprintf(buf, sizeof buf, "  start (%.2f, %.2f, %.2f)", double(m_start.x), double(m_start.y), double(m_start.z));
    c += buf;
  }
  if (m_hasEnd && needsEnd()) {
    std::snprintf(buf, sizeof buf, "  end (%.2f, %.2f, %.2f)", double(m_end.x), double(m_end.y), double(m_end.z));
    c += buf;
  }
  if (m_status) c += std::string("  status: ") + nav::statusToString(m_status, buf, sizeof buf);
  else if (m_hasStart) c += "  status: -";
  const float len = resultLength();
  if (len >= 0 && m_status && !nav::statusFailed(m_status)) {
    std::snprintf(buf, sizeof buf, "  path %.2f m", double(len));
    c += buf;
  }
  return c;
}

/// Option readers for the modes' loadOptions: "options.<key>: <problem>".
bool optionKeys(const nlohmann::json& in, std::initializer_list<const char*> keys, std::string& error) {
  for (auto it = in.begin(); it != in.end(); ++it) {
    bool known = false;
    for (const char* k : keys) known = known || it.key() == k;
    if (!known) {
      error = "options." + it.key() + ": unknown key";
      return false;
    }
  }
  return true;
}

bool optionInt(const nlohmann::json& in, const char* key, int lo, int hi, int& out, std::string& error) {
  if (!in.contains(key)) return true;
  const nlohmann::json& v = in[key];
  long long x = (long long)lo - 1; // not an integer: out of range
  if (v.is_number_unsigned())
    x = v.get<unsigned long long>() > (1ull << 62) ? (long long)hi + 1 : (long long)v.get<unsigned long long>();
  else if (v.is_number_integer())
    x = v.get<long long>();
  if (x < lo || x > hi) {
    error = std::string("options.") + key + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + v.dump();
    return false;
  }
  out = int(x);
  return true;
}

bool optionFloat(const nlohmann::json& in, const char* key, float lo, float hi, float& out, std::string& error) {
  if (!in.contains(key)) return true;
  float f = 0;
  if (!readFloat(in[key], std::string("options.") + key, f, error)) return false;
  if (!(f >= lo && f <= hi)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "options.%s: must be in [%g, %g], got %g", key, double(lo), double(hi), double(f));
    error = buf;
    return false;
  }
  out = f;
  return true;
}

bool optionBool(const nlohmann::json& in, const char* key, bool& out, std::string& error) {
  if (!in.contains(key)) return true;
  if (!in[key].is_boolean()) {
    error = std::string("options.") + key + ": expected true or false, got " + in[key].type_name();
    return false;
  }
  out = in[key].get<bool>();
  return true;
}

} // namespace navbench
