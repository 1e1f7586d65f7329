// FuzzTestCase.cpp: the RecastDemo test-case parser (app/model/TestCaseFile.h). Parsed cases must
// have finite coordinates. Expectations round-trip: writing them into any file that parses
// (replaceExpectations, as `navbench query --write-expected` does) gives a file that parses to the
// same cases, each with exactly the expectation written.
#include "app/model/TestCaseFile.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<navbench::TestCase> cases;
  std::string why;
  if (!navbench::parseTestCases(text, "fuzz", cases, &why) && why.empty()) __builtin_trap();
  for (const navbench::TestCase& c : cases)
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(c.s[i]) || !std::isfinite(c.e[i])) __builtin_trap();
  if (!why.empty()) return 0;

  std::vector<std::string> lines; // every other case gets a new expectation, the rest none
  for (size_t i = 0; i < cases.size(); ++i) {
    navbench::TestCaseExpect e = cases[i].expect;
    if (i % 2) {
      e.present = true;
      e.status = cases[i].raycast ? "hit" : "partial";
      e.corridor = int(i);
      e.hasLen = !cases[i].raycast;
      e.len = 1.25f;
    }
    lines.push_back(e.present ? navbench::formatExpect(cases[i].raycast, e) : std::string());
  }
  std::vector<navbench::TestCase> again;
  if (!navbench::parseTestCases(navbench::replaceExpectations(text, cases, lines), "fuzz2", again, &why))
    __builtin_trap();
  if (again.size() != cases.size()) __builtin_trap();
  for (size_t i = 0; i < cases.size(); ++i) {
    if (again[i].raycast != cases[i].raycast || again[i].expect.present != !lines[i].empty()) __builtin_trap();
    for (int k = 0; k < 3; ++k)
      if (again[i].s[k] != cases[i].s[k] || again[i].e[k] != cases[i].e[k]) __builtin_trap();
    if (!lines[i].empty() && navbench::formatExpect(again[i].raycast, again[i].expect) != lines[i]) __builtin_trap();
  }
  return 0;
}
