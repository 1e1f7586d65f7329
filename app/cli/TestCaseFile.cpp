// TestCaseFile.cpp: see TestCaseFile.h.
#include "app/cli/TestCaseFile.h"

#include <cmath>
#include <cstdio>
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
  return !tok.empty() && end && !*end && std::isfinite(*out);
}

bool parseCount(const std::string& tok, int* out) {
  char* end = nullptr;
  const long v = std::strtol(tok.c_str(), &end, 10);
  if (tok.empty() || !end || *end || v < 0 || v > 1000000000L) return false;
  *out = int(v);
  return true;
}

/// Is this comment line (first word `first`, the rest in `ls`) an `# expect` line? When it is,
/// `ls` is left at its key=value words; when not, the caller ignores the line.
bool isExpectLine(std::istringstream& ls, const std::string& first) {
  if (first == "#expect") return true;
  std::string word;
  return first == "#" && ls >> word && word == "expect";
}

bool isStatus(bool raycast, const std::string& s) {
  if (raycast) return s == "hit" || s == "clear" || s == "nostart" || s == "failed";
  return s == "complete" || s == "partial" || s == "nostart" || s == "noend" || s == "failed";
}

/// Parses the key=value words of an expectation into `e`; false with the problem in `why`.
bool parseExpect(std::istringstream& ls, bool raycast, TestCaseExpect& e, std::string* why) {
  std::string word;
  std::string seen = " ";
  int nkeys = 0;
  while (ls >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) {
      *why = "'" + word + "' is not key=value";
      return false;
    }
    const std::string key = word.substr(0, eq), val = word.substr(eq + 1);
    if (seen.find(" " + key + " ") != std::string::npos) {
      *why = "key '" + key + "' given twice";
      return false;
    }
    seen += key + " ";
    ++nkeys;
    const char* kind = raycast ? "rc" : "pf";
    if (key == "status") {
      if (!isStatus(raycast, val)) {
        *why = std::string("status '") + val + "' is not one of " +
               (raycast ? "hit, clear, nostart, failed" : "complete, partial, nostart, noend, failed") + " (" + kind +
               " case)";
        return false;
      }
      e.status = val;
    } else if (!raycast && (key == "corridor" || key == "straight")) {
      if (!parseCount(val, key == "corridor" ? &e.corridor : &e.straight)) {
        *why = key + "='" + val + "' is not a count";
        return false;
      }
    } else if (raycast && key == "visited") {
      if (!parseCount(val, &e.visited)) {
        *why = key + "='" + val + "' is not a count";
        return false;
      }
    } else if (!raycast && key == "len") {
      if (!parseFloat(val, &e.len) || e.len < 0) {
        *why = "len='" + val + "' is not a length";
        return false;
      }
      e.hasLen = true;
    } else if (raycast && key == "t") {
      if (!parseFloat(val, &e.t) || e.t < 0) {
        *why = "t='" + val + "' is not a ray parameter";
        return false;
      }
      e.hasT = true;
    } else if (raycast && key == "normal") {
      std::string parts[3];
      size_t at = 0;
      int n = 0;
      for (; n < 3; ++n) {
        const size_t comma = val.find(',', at);
        parts[n] = val.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
      if (n != 2 || !parseFloat(parts[0], &e.normal[0]) || !parseFloat(parts[1], &e.normal[1]) ||
          !parseFloat(parts[2], &e.normal[2])) {
        *why = "normal='" + val + "' is not x,y,z";
        return false;
      }
      e.hasNormal = true;
    } else {
      *why = std::string("unknown key '") + key + "' for a " + kind + " case (" +
             (raycast ? "status, t, normal, visited" : "status, corridor, straight, len") + ")";
      return false;
    }
  }
  if (!nkeys) {
    *why = "no key=value after 'expect'";
    return false;
  }
  return true;
}

std::string restOfLine(std::istringstream& ls) {
  std::string rest;
  std::getline(ls, rest);
  const size_t a = rest.find_first_not_of(" \t");
  if (a == std::string::npos) return std::string();
  const size_t b = rest.find_last_not_of(" \t");
  return rest.substr(a, b - a + 1);
}

} // namespace

bool parseTestCases(const std::string& text, const std::string& name, std::vector<TestCase>& cases, std::string* why,
                    TestCaseHeader* header) {
  std::istringstream in(text);
  std::string lineText;
  int lineNo = 0;
  const size_t firstCase = cases.size();
  while (std::getline(in, lineText)) {
    ++lineNo;
    if (!lineText.empty() && lineText.back() == '\r') lineText.pop_back();
    std::istringstream ls(lineText);
    std::string kind;
    if (!(ls >> kind)) continue;
    const std::string where = name + ":" + std::to_string(lineNo) + ": ";
    if (kind[0] == '#') {
      if (!isExpectLine(ls, kind)) continue;
      if (cases.size() == firstCase) {
        *why = where + "bad expectation: no pf/rc line above it";
        return false;
      }
      TestCase& c = cases.back();
      if (c.expect.present) {
        *why = where + "bad expectation: the case on line " + std::to_string(c.line) + " already has one (line " +
               std::to_string(c.expect.line) + ")";
        return false;
      }
      TestCaseExpect e;
      std::string problem;
      if (!parseExpect(ls, c.raycast, e, &problem)) {
        *why = where + "bad expectation: " + problem;
        return false;
      }
      e.present = true;
      e.line = lineNo;
      c.expect = e;
      if (header) header->expectCount++;
      continue;
    }
    if (kind == "s" || kind == "f") {
      if (header) (kind == "s" ? header->sample : header->geometry) = restOfLine(ls);
      continue;
    }
    if (kind != "pf" && kind != "rc") {
      *why = where + "unknown line kind '" + kind + "' (expected s, f, pf or rc)";
      return false;
    }
    std::vector<std::string> tok;
    std::string t;
    while (ls >> t) tok.push_back(t);
    if (tok.size() != 8) {
      *why = where + "'" + kind + "' needs 8 values (sx sy sz ex ey ez inc exc), got " + std::to_string(tok.size());
      return false;
    }
    TestCase c;
    c.line = lineNo;
    c.raycast = kind == "rc";
    for (int i = 0; i < 3; ++i)
      if (!parseFloat(tok[size_t(i)], &c.s[i]) || !parseFloat(tok[size_t(i + 3)], &c.e[i])) {
        *why = where + "bad coordinate in '" + lineText + "'";
        return false;
      }
    if (!parseHex(tok[6], &c.inc) || !parseHex(tok[7], &c.exc)) {
      *why = where + "bad flags '" + tok[6] + " " + tok[7] + "' (expected 16-bit numbers like 0x3)";
      return false;
    }
    cases.push_back(c);
  }
  return true;
}

bool readTestCaseFile(const std::string& path, std::vector<TestCase>& cases, std::string* why, TestCaseHeader* header) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = path + ": cannot open test-case file";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseTestCases(ss.str(), path, cases, why, header);
}

std::string formatExpect(bool raycast, const TestCaseExpect& e) {
  std::string o = "# expect";
  char b[128];
  if (!e.status.empty()) o += " status=" + e.status;
  if (!raycast) {
    if (e.corridor >= 0) o += " corridor=" + std::to_string(e.corridor);
    if (e.straight >= 0) o += " straight=" + std::to_string(e.straight);
    if (e.hasLen) {
      std::snprintf(b, sizeof b, " len=%.4f", double(e.len));
      o += b;
    }
  } else {
    if (e.hasT) {
      std::snprintf(b, sizeof b, " t=%.6f", double(e.t));
      o += b;
    }
    if (e.hasNormal) {
      std::snprintf(b, sizeof b, " normal=%.5f,%.5f,%.5f", double(e.normal[0]), double(e.normal[1]), double(e.normal[2]));
      o += b;
    }
    if (e.visited >= 0) o += " visited=" + std::to_string(e.visited);
  }
  return o;
}

std::string formatCase(const TestCase& c) {
  char b[320];
  std::snprintf(b, sizeof b, "%s  %f %f %f  %f %f %f  0x%x 0x%x", c.raycast ? "rc" : "pf", double(c.s[0]), double(c.s[1]),
                double(c.s[2]), double(c.e[0]), double(c.e[1]), double(c.e[2]), unsigned(c.inc), unsigned(c.exc));
  return b;
}

std::string replaceExpectations(const std::string& text, const std::vector<TestCase>& cases,
                                const std::vector<std::string>& expectLines) {
  const bool crlf = text.find("\r\n") != std::string::npos;
  const char* nl = crlf ? "\r\n" : "\n";
  std::string out;
  out.reserve(text.size() + cases.size() * 64);
  size_t next = 0; // index of the next case (cases are in line order)
  int lineNo = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    const bool hasNl = end != std::string::npos;
    if (!hasNl) end = text.size();
    std::string lineText = text.substr(at, end - at);
    at = hasNl ? end + 1 : end;
    ++lineNo;
    if (!lineText.empty() && lineText.back() == '\r') lineText.pop_back();
    std::istringstream ls(lineText);
    std::string first;
    if (ls >> first && first[0] == '#' && isExpectLine(ls, first)) continue; // replaced below
    out += lineText;
    out += nl;
    if (next < cases.size() && cases[next].line == lineNo) {
      if (next < expectLines.size() && !expectLines[next].empty()) {
        out += expectLines[next];
        out += nl;
      }
      ++next;
    }
  }
  return out;
}

} // namespace navbench
