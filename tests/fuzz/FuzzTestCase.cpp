// FuzzTestCase.cpp: the RecastDemo test-case parser (app/cli/TestCaseFile.h). Parsed cases must
// have finite coordinates.
#include "app/cli/TestCaseFile.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<navbench::TestCase> cases;
  std::string why;
  if (!navbench::parseTestCases(text, "fuzz", cases, &why) && why.empty()) __builtin_trap();
  for (const navbench::TestCase& c : cases)
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(c.s[i]) || !std::isfinite(c.e[i])) __builtin_trap();
  return 0;
}
