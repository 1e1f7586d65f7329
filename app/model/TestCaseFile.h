// TestCaseFile.h: RecastDemo's test-case format (RecastDemo/Bin/TestCases), parsed, plus
// NavBench's optional expected results, which turn a file into a regression test.
//
// Lines: `pf sx sy sz ex ey ez inc exc` (path find) and `rc ...` (raycast), the same 8 values;
// `s <sample>` and `f <geometry.obj>` name the sample and level (kept in TestCaseHeader), `#`
// comments are skipped. Coordinates must be finite floats, include/exclude flags 16-bit numbers
// (decimal, 0x hex or 0 octal). Any other line is an error naming "<name>:<line>" and the problem.
// Untrusted input: never crashes (fuzzed, tests/fuzz).
//
// Expected results: a comment line `# expect key=value ...` belongs to the closest pf/rc line
// above it (at most one per case). RecastDemo skips it like any line it does not know, so a file
// with expectations still opens there unchanged, and a RecastDemo file needs none. Keys (each
// optional; only the keys present are checked):
//   pf: status=complete|partial|nostart|noend|failed  corridor=N (findPath polys)
//       straight=N (findStraightPath corners)  len=L (straight path length [Unit: wu])
//   rc: status=hit|clear|nostart|failed  t=T (hit parameter, when hit)  normal=x,y,z (when hit)
//       visited=N (polys the ray crossed)
// A malformed expectation (unknown key, bad number, a status of the other kind, no case above it,
// a second one for a case) is a parse error naming the line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace navbench {

/// The expected result of a case (`# expect ...`). A field is checked only when its has-flag is set.
struct TestCaseExpect {
  bool present = false;  ///< The case has an `# expect` line.
  int line = 0;          ///< Its 1-based line number.
  std::string status;    ///< "" = not checked; see the list above.
  int corridor = -1;     ///< pf: corridor poly count (-1 = not checked).
  int straight = -1;     ///< pf: straight path corner count (-1 = not checked).
  int visited = -1;      ///< rc: visited poly count (-1 = not checked).
  bool hasLen = false;
  float len = 0;         ///< pf: straight path length [Unit: wu]
  bool hasT = false;
  float t = 0;           ///< rc: hit parameter in [0, 1]
  bool hasNormal = false;
  float normal[3] = {0, 0, 0}; ///< rc: wall normal at the hit
};

struct TestCase {
  int line = 0;           ///< 1-based line number in the file.
  bool raycast = false;   ///< `rc` line (else `pf`).
  float s[3] = {0, 0, 0}; ///< Start position [(x, y, z)] [Unit: wu]
  float e[3] = {0, 0, 0}; ///< End position [(x, y, z)] [Unit: wu]
  uint16_t inc = 0xffff, exc = 0;
  TestCaseExpect expect;  ///< Expected result, when the file gives one.
};

/// What the `s` and `f` lines say (the last of each), and how many cases carry expectations.
struct TestCaseHeader {
  std::string sample;   ///< `s` line: RecastDemo's sample name ("Solo Mesh", "Tile Mesh").
  std::string geometry; ///< `f` line: the level's OBJ file name, relative to RecastDemo's Meshes/.
  int expectCount = 0;
};

/// Parses test-case text. `name` labels messages. False (with *why) on the first bad line;
/// `cases` then holds the cases before it.
bool parseTestCases(const std::string& text, const std::string& name, std::vector<TestCase>& cases, std::string* why,
                    TestCaseHeader* header = nullptr);
/// Reads the file and calls parseTestCases (a missing/unreadable file is an error).
bool readTestCaseFile(const std::string& path, std::vector<TestCase>& cases, std::string* why,
                      TestCaseHeader* header = nullptr);

/// The `# expect ...` line (no newline) for an expectation, with every field it has; floats with
/// enough digits that parsing them back gives results within the check tolerances.
std::string formatExpect(bool raycast, const TestCaseExpect& e);
/// The case's own line (`pf sx ... exc`, no newline), with 6 decimals like RecastDemo writes.
std::string formatCase(const TestCase& c);

/// `text` with every existing `# expect` line removed and, after each case line, the line
/// `expectLines[i]` of the case at index i (cases as parsed from `text`; "" = none). Keeps the
/// other lines and the file's line ending (LF or CRLF).
std::string replaceExpectations(const std::string& text, const std::vector<TestCase>& cases,
                                const std::vector<std::string>& expectLines);

} // namespace navbench
