// TestCaseFile.h: RecastDemo's test-case format (RecastDemo/Bin/TestCases), parsed.
//
// Lines: `pf sx sy sz ex ey ez inc exc` (path find) and `rc ...` (raycast), the same 8 values;
// `s`/`f` lines (sample, level) and `#` comments are skipped. Coordinates must be finite floats,
// include/exclude flags 16-bit numbers (decimal, 0x hex or 0 octal). Any other line is an error
// naming "<name>:<line>" and the problem. Untrusted input: never crashes (fuzzed, tests/fuzz).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace navbench {

struct TestCase {
  int line = 0;           ///< 1-based line number in the file.
  bool raycast = false;   ///< `rc` line (else `pf`).
  float s[3] = {0, 0, 0}; ///< Start position [(x, y, z)] [Unit: wu]
  float e[3] = {0, 0, 0}; ///< End position [(x, y, z)] [Unit: wu]
  uint16_t inc = 0xffff, exc = 0;
};

/// Parses test-case text. `name` labels messages. False (with *why) on the first bad line;
/// `cases` then holds the cases before it.
bool parseTestCases(const std::string& text, const std::string& name, std::vector<TestCase>& cases, std::string* why);
/// Reads the file and calls parseTestCases (a missing/unreadable file is an error).
bool readTestCaseFile(const std::string& path, std::vector<TestCase>& cases, std::string* why);

} // namespace navbench
