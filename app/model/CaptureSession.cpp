// CaptureSession.cpp: see CaptureSession.h.
#include "app/model/CaptureSession.h"

#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace navbench {

namespace {

/// [(x, y, z) * n] as a flat list of exact floats (the tester's "straight" shape).
nlohmann::json points(const std::vector<float>& pts) {
  nlohmann::json a = nlohmann::json::array();
  for (float f : pts) a.push_back(base::exactFloat(f));
  return a;
}

/// One side's answers (the game's or NavBench's) in the same shape, so a test compares them whole.
nlohmann::json answerJson(bool raycast, nav::Status pathStatus, const std::vector<nav::PolyRef>& path,
                          nav::Status straightStatus, const std::vector<float>& straight,
                          const std::vector<uint8_t>& straightFlags, nav::Status rayStatus, float t) {
  nlohmann::json j;
  j["corridor"] = path;
  if (raycast) {
    j["rayStatus"] = rayStatus;
    j["t"] = base::exactFloat(t);
  } else {
    j["pathStatus"] = pathStatus;
    j["straightStatus"] = straightStatus;
    j["straight"] = points(straight);
    j["straightFlags"] = straightFlags;
  }
  return j;
}

} // namespace

const char* captureRowLabel(const CaptureQueryResult* r) {
  if (!r) return "-";
  switch (r->outcome) {
  case CaptureOutcome::Identical:
  case CaptureOutcome::Unchanged: return "ok";
  case CaptureOutcome::Differs:
  case CaptureOutcome::Changed: return "MISMATCH";
  case CaptureOutcome::Stale: return "stale";
  case CaptureOutcome::Failed: break;
  }
  return "failed";
}

const char* captureKindName(const nav::CapturedQuery& q) { return q.kind == nav::CAPTURE_RAYCAST ? "raycast" : "path"; }

CaptureSession::CaptureSession() = default;
CaptureSession::~CaptureSession() = default;

void CaptureSession::open(const std::string& path, nav::Capture&& capture) {
  close();
  m_path = path;
  m_capture = std::move(capture);
  select(m_capture.queries.empty() ? -1 : 0, true);
}

void CaptureSession::close() {
  m_path.clear();
  m_capture = nav::Capture();
  m_results.clear();
  m_ran = false;
  m_ranOn.clear();
  m_selected = -1;
  m_showRequested = false;
}

void CaptureSession::replay(const nav::NavMesh& mesh, const std::string& meshKey) {
  m_results = replayCapture(mesh, m_capture);
  m_ran = true;
  m_ranOn = meshKey;
}

int CaptureSession::count(CaptureOutcome o) const {
  int n = 0;
  for (const CaptureQueryResult& r : m_results) n += r.outcome == o ? 1 : 0;
  return m_ran ? n : 0;
}

bool CaptureSession::select(int i, bool show) {
  if (i < 0 || i >= int(m_capture.queries.size())) return false;
  m_selected = i;
  m_showRequested = show;
  return true;
}

const nav::CapturedQuery* CaptureSession::selectedQuery() const {
  return m_selected >= 0 && m_selected < int(m_capture.queries.size()) ? &m_capture.queries[size_t(m_selected)] : nullptr;
}

int CaptureSession::rowFrom(int delta) const {
  if (m_capture.queries.empty()) return -1;
  return std::max(0, std::min(m_selected + delta, int(m_capture.queries.size()) - 1));
}

bool CaptureSession::takeShowRequest() {
  const bool r = m_showRequested;
  m_showRequested = false;
  return r;
}

void CaptureSession::toJson(nlohmann::json& out) const {
  out["path"] = m_path;
  out["ran"] = m_ran;
  out["selected"] = m_selected;
  out["ok"] = count(CaptureOutcome::Identical);
  out["mismatch"] = count(CaptureOutcome::Differs);
  out["stale"] = count(CaptureOutcome::Stale);
  out["failed"] = count(CaptureOutcome::Failed);
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < m_capture.queries.size(); ++i) {
    const nav::CapturedQuery& q = m_capture.queries[i];
    nlohmann::json r;
    r["kind"] = captureKindName(q);
    r["note"] = q.note;
    r["flags"] = q.flags;
    const CaptureQueryResult* res = result(i);
    r["result"] = captureRowLabel(res);
    if (res && res->outcome == CaptureOutcome::Differs)
      r["difference"] = {{"field", res->difference.field}, {"game", res->difference.game}, {"ours", res->difference.ours}};
    rows.push_back(r);
  }
  out["queries"] = rows;
  const nav::CapturedQuery* q = selectedQuery();
  if (!q) return;
  const bool raycast = q->kind == nav::CAPTURE_RAYCAST;
  nlohmann::json& sel = out["selectedQuery"];
  sel["start"] = base::exactVec3(q->start);
  sel["end"] = base::exactVec3(q->end);
  sel["maxNodes"] = q->maxNodes;
  sel["game"] = answerJson(raycast, q->pathStatus, q->path, q->straightStatus, q->straight, q->straightFlags, q->rayStatus, q->t);
  const CaptureQueryResult* res = result(size_t(m_selected));
  if (res && (res->outcome == CaptureOutcome::Identical || res->outcome == CaptureOutcome::Differs)) {
    const CaptureAnswer& a = res->ours;
    sel["ours"] = answerJson(raycast, a.pathStatus, a.path, a.straightStatus, a.straight, a.straightFlags, a.rayStatus, a.t);
  }
  sel["equal"] = res && res->outcome == CaptureOutcome::Identical;
}

} // namespace navbench
