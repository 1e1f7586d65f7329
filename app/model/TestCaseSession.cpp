// TestCaseSession.cpp: see TestCaseSession.h.
#include "app/model/TestCaseSession.h"

#include "nav/NavMeshQuery.h"
#include "nav/base/AtomicFile.h"

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

std::string lowerStem(const std::string& path) {
  std::string s = fs::path(path).stem().string();
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

bool readText(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

void note(TestCaseNotes* notes, TestCaseNote::Level level, std::string text) {
  if (notes) notes->push_back({level, std::move(text)});
}

} // namespace

TestCaseSession::TestCaseSession() = default;
TestCaseSession::~TestCaseSession() = default;

bool TestCaseSession::open(const std::string& path, TestCaseNotes* notes) {
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
    note(notes, TestCaseNote::Error, "test cases: " + why);
    return false;
  }
  m_cases = std::move(cases);
  m_header = header;
  int rc = 0;
  for (const TestCase& c : m_cases) rc += c.raycast ? 1 : 0;
  note(notes, TestCaseNote::Info,
       "opened test cases " + path + ": " + std::to_string(m_cases.size()) + " cases (" +
           std::to_string(int(m_cases.size()) - rc) + " pf, " + std::to_string(rc) + " rc), " +
           std::to_string(header.expectCount) + " with expected results");
  return true;
}

bool TestCaseSession::reload(TestCaseNotes* notes) {
  if (m_path.empty()) return false;
  const std::string path = m_path;
  return open(path, notes);
}

void TestCaseSession::runAll(const nav::NavMesh* mesh, const std::string& meshKey, TestCaseNotes* notes) {
  m_ran = true;
  m_ranOn = meshKey;
  m_results.assign(m_cases.size(), TestCaseResult());
  m_check.assign(m_cases.size(), -1);
  m_diffs.assign(m_cases.size(), std::string());
  if (!mesh) return;
  m_query = std::make_unique<nav::NavMeshQuery>();
  if (nav::statusFailed(m_query->init(mesh, kTestCaseMaxNodes))) {
    m_error = "cannot initialise a query with " + std::to_string(kTestCaseMaxNodes) + " nodes";
    note(notes, TestCaseNote::Error, "test cases: " + m_error);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  int bad = 0, checked = 0;
  const int reps = repeats();
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
      note(notes, TestCaseNote::Warning, m_path + ":" + std::to_string(m_cases[i].line) + ": " + m_diffs[i]);
    }
  }
  m_runMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  char buf[200];
  std::snprintf(buf, sizeof buf, "ran %d test cases (x%d) in %.2f ms", int(m_cases.size()), reps, m_runMs);
  std::string msg = buf;
  if (checked) msg += ": " + std::to_string(checked - bad) + " of " + std::to_string(checked) + " as expected";
  note(notes, bad ? TestCaseNote::Warning : TestCaseNote::Info, "test cases: " + msg);
}

bool TestCaseSession::select(int i) {
  if (i < 0 || i >= int(m_cases.size())) return false;
  m_selected = i;
  return true;
}

int TestCaseSession::rowFrom(int delta) const {
  if (m_cases.empty()) return -1;
  return std::max(0, std::min(m_selected + delta, int(m_cases.size()) - 1));
}

void TestCaseSession::updateLevelNote(const std::string& levelPath, const std::string& navPath) {
  m_levelNote.clear();
  if (m_header.geometry.empty()) return;
  const std::string want = lowerStem(m_header.geometry);
  const std::string have = levelPath.empty() ? std::string() : lowerStem(levelPath);
  const std::string navStem = navPath.empty() ? std::string() : lowerStem(navPath);
  if (want == have || want == navStem) return;
  m_levelNote = "Made on " + m_header.geometry + "; the open level is " +
                (levelPath.empty() ? std::string("(none)") : fs::path(levelPath).filename().string()) +
                ": the cases may miss the mesh.";
}

void TestCaseSession::setExportCase(bool raycast, const float* s, const float* e, uint16_t inc, uint16_t exc) {
  TestCase c;
  c.raycast = raycast;
  for (int k = 0; k < 3; ++k) {
    c.s[k] = s[k];
    c.e[k] = e[k];
  }
  c.inc = inc;
  c.exc = exc;
  m_exportLine = formatCase(c);
}

bool TestCaseSession::appendExport(TestCaseNotes* notes) {
  if (m_exportLine.empty() || m_path.empty() || !m_error.empty()) return false;
  std::string text, why;
  if (!readText(m_path, text)) {
    m_exportMsg = m_path + ": cannot read";
    note(notes, TestCaseNote::Error, "test cases: " + m_exportMsg);
    return false;
  }
  const bool crlf = text.find("\r\n") != std::string::npos;
  if (!text.empty() && text.back() != '\n') text += crlf ? "\r\n" : "\n";
  text += m_exportLine + (crlf ? "\r\n" : "\n");
  if (!base::writeFileAtomic(m_path, text, why)) {
    m_exportMsg = why;
    note(notes, TestCaseNote::Error, "test cases: " + why);
    return false;
  }
  note(notes, TestCaseNote::Info, "test cases: appended '" + m_exportLine + "' to " + m_path);
  reload(notes);
  m_exportMsg = "appended as case " + std::to_string(int(m_cases.size()) - 1);
  return true;
}

const std::string& TestCaseSession::diffs(size_t i) const {
  static const std::string none;
  return i < m_diffs.size() ? m_diffs[i] : none;
}

int TestCaseSession::passCount() const { return m_ran ? int(std::count(m_check.begin(), m_check.end(), 1)) : 0; }
int TestCaseSession::failCount() const { return m_ran ? int(std::count(m_check.begin(), m_check.end(), 0)) : 0; }

void TestCaseSession::toJson(nlohmann::json& out) const {
  out["path"] = m_path;
  out["error"] = m_error;
  out["sample"] = m_header.sample;
  out["geometry"] = m_header.geometry;
  out["ran"] = m_ran;
  out["selected"] = m_selected;
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
