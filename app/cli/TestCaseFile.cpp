// TestCaseFile.cpp: see TestCaseFile.h.
#include "app/cli/TestCaseFile.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace navbench {
namespace {

bool parseHex(const std::string& tok, uint16_t* out) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(tok.c_str(), &end, 0);
  if (!end || *end || v > 0xffff) return false;
  *out = uint16_t(v);
  return true;
}

bool parseFloat(const std::string& tok, float* out) {
  char* end = nullptr;
  *out = std::strtof(tok.c_str(), &end);
  return end && !*end && std::isfinite(*out);
}

} // namespace

bool parseTestCases(const std::string& text, const std::string& name, std::vector<TestCase>& cases, std::string* why) {
  std::istringstream in(text);
  std::string lineText;
  int lineNo = 0;
  while (std::getline(in, lineText)) {
    ++lineNo;
    if (!lineText.empty() && lineText.back() == '\r') lineText.pop_back();
    std::istringstream ls(lineText);
    std::string kind;
    if (!(ls >> kind) || kind[0] == '#') continue;
    if (kind == "s" || kind == "f") continue;
    if (kind != "pf" && kind != "rc") {
      *why = name + ":" + std::to_string(lineNo) + ": unknown line kind '" + kind + "' (expected s, f, pf or rc)";
      return false;
    }
    std::vector<std::string> tok;
    std::string t;
    while (ls >> t) tok.push_back(t);
    if (tok.size() != 8) {
      *why = name + ":" + std::to_string(lineNo) + ": '" + kind + "' needs 8 values (sx sy sz ex ey ez inc exc), got " +
             std::to_string(tok.size());
      return false;
    }
    TestCase c;
    c.line = lineNo;
    c.raycast = kind == "rc";
    for (int i = 0; i < 3; ++i)
      if (!parseFloat(tok[size_t(i)], &c.s[i]) || !parseFloat(tok[size_t(i + 3)], &c.e[i])) {
        *why = name + ":" + std::to_string(lineNo) + ": bad coordinate in '" + lineText + "'";
        return false;
      }
    if (!parseHex(tok[6], &c.inc) || !parseHex(tok[7], &c.exc)) {
      *why = name + ":" + std::to_string(lineNo) + ": bad flags '" + tok[6] + " " + tok[7] +
             "' (expected 16-bit numbers like 0x3)";
      return false;
    }
    cases.push_back(c);
  }
  return true;
}

bool readTestCaseFile(const std::string& path, std::vector<TestCase>& cases, std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = path + ": cannot open test-case file";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseTestCases(ss.str(), path, cases, why);
}

} // namespace navbench
