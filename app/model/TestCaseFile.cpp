// TestCaseFile.cpp: see TestCaseFile.h.
#include "app/model/TestCaseFile.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace navbench {
namespace {

/// The words of a line as `std::istream >>` splits them in the "C" locale (whitespace: space,
/// \t, \n, \v, \f, \r), without building a stream per line. [b, e) stays in the caller's text.
struct Word {
  const char* b;
  const char* e;
  std::string str() const { return std::string(b, size_t(e - b)); }
  bool is(const char* s) const { return size_t(e - b) == std::strlen(s) && std::memcmp(b, s, size_t(e - b)) == 0; }
};
inline bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
/// The next word at or after `p` (before `end`); false when only whitespace is left.
inline bool nextWord(const char*& p, const char* end, Word& w) {
  while (p < end && isSpace(*p)) ++p;
  if (p == end) return false;
  w.b = p;
  while (p < end && !isSpace(*p)) ++p;
  w.e = p;
  return true;
}

/// strtof / strtoul straight on a word in the text: the word ends at whitespace or at the text's
/// terminating NUL, so the number parse cannot run past it. Accepted as the string-copy version
/// (std::string(word).c_str()) accepts: the parse ends at the word's end or at a NUL in it.
bool parseFloatWord(const Word& w, float* out) {
  char* end = nullptr;
  *out = std::strtof(w.b, &end);
  return end && (end == w.e || *end == '\0') && std::isfinite(*out);
}
bool parseHexWord(const Word& w, uint16_t* out) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(w.b, &end, 0);
  if (!end || !(end == w.e || *end == '\0') || v > 0xffff) return false;
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

/// Is this comment line (first word `first`, the rest from `p`) an `# expect` line? When it is,
/// `p` is left before its key=value words; when not, the caller ignores the line.
bool isExpectLine(const char*& p, const char* end, const Word& first) {
  if (first.is("#expect")) return true;
  Word w;
  return first.is("#") && nextWord(p, end, w) && w.is("expect");
}

bool isStatus(bool raycast, const std::string& s) {
  if (raycast) return s == "hit" || s == "clear" || s == "nostart" || s == "failed";
  return s == "complete" || s == "partial" || s == "nostart" || s == "noend" || s == "failed";
}

/// Parses the key=value words of an expectation into `e`; false with the problem in `why`.
bool parseExpect(const char* p, const char* end, bool raycast, TestCaseExpect& e, std::string* why) {
  std::string word;
  std::string seen = " ";
  int nkeys = 0;
  Word w;
  while (nextWord(p, end, w)) {
    word = w.str();
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

/// [p, end) without leading and trailing spaces and tabs.
std::string restOfLine(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t')) --end;
  return std::string(p, size_t(end - p));
}

} // namespace

bool parseTestCases(const std::string& text, const std::string& name, std::vector<TestCase>& cases, std::string* why,
                    TestCaseHeader* header) {
  int lineNo = 0;
  const size_t firstCase = cases.size();
  const char* const textEnd = text.data() + text.size();
  for (const char* lineStart = text.data(); lineStart < textEnd;) {
    const char* lineEnd = static_cast<const char*>(std::memchr(lineStart, '\n', size_t(textEnd - lineStart)));
    if (!lineEnd) lineEnd = textEnd;
    const char* const next = lineEnd == textEnd ? textEnd : lineEnd + 1;
    ++lineNo;
    if (lineEnd > lineStart && lineEnd[-1] == '\r') --lineEnd;
    const char* p = lineStart;
    Word kind;
    if (!nextWord(p, lineEnd, kind)) {
      lineStart = next;
      continue;
    }
    const auto where = [&] { return name + ":" + std::to_string(lineNo) + ": "; };
    if (kind.b[0] == '#') {
      if (!isExpectLine(p, lineEnd, kind)) {
        lineStart = next;
        continue;
      }
      if (cases.size() == firstCase) {
        *why = where() + "bad expectation: no pf/rc line above it";
        return false;
      }
      TestCase& c = cases.back();
      if (c.expect.present) {
        *why = where() + "bad expectation: the case on line " + std::to_string(c.line) + " already has one (line " +
               std::to_string(c.expect.line) + ")";
        return false;
      }
      TestCaseExpect e;
      std::string problem;
      if (!parseExpect(p, lineEnd, c.raycast, e, &problem)) {
        *why = where() + "bad expectation: " + problem;
        return false;
      }
      e.present = true;
      e.line = lineNo;
      c.expect = e;
      if (header) header->expectCount++;
      lineStart = next;
      continue;
    }
    if (kind.is("s") || kind.is("f")) {
      if (header) (kind.is("s") ? header->sample : header->geometry) = restOfLine(p, lineEnd);
      lineStart = next;
      continue;
    }
    if (!kind.is("pf") && !kind.is("rc")) {
      *why = where() + "unknown line kind '" + kind.str() + "' (expected s, f, pf or rc)";
      return false;
    }
    Word tok[8];
    int ntok = 0;
    Word w;
    while (nextWord(p, lineEnd, w)) {
      if (ntok < 8) tok[ntok] = w;
      ++ntok;
    }
    if (ntok != 8) {
      *why = where() + "'" + kind.str() + "' needs 8 values (sx sy sz ex ey ez inc exc), got " + std::to_string(ntok);
      return false;
    }
    TestCase c;
    c.line = lineNo;
    c.raycast = kind.is("rc");
    for (int i = 0; i < 3; ++i)
      if (!parseFloatWord(tok[i], &c.s[i]) || !parseFloatWord(tok[i + 3], &c.e[i])) {
        *why = where() + "bad coordinate in '" + std::string(lineStart, size_t(lineEnd - lineStart)) + "'";
        return false;
      }
    if (!parseHexWord(tok[6], &c.inc) || !parseHexWord(tok[7], &c.exc)) {
      *why = where() + "bad flags '" + tok[6].str() + " " + tok[7].str() + "' (expected 16-bit numbers like 0x3)";
      return false;
    }
    cases.push_back(c);
    lineStart = next;
  }
  return true;
}

bool readTestCaseFile(const std::string& path, std::vector<TestCase>& cases, std::string* why, TestCaseHeader* header) {
  // One read into a string sized from the file (no stream buffers, no copy). The size is only a
  // hint: a file that grew since, a stream with no size or a size past 1 GiB (a directory reports
  // LONG_MAX) is read on in chunks.
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *why = path + ": cannot open test-case file";
    return false;
  }
  std::string text;
  long size = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  std::rewind(f);
  if (size > 0 && size <= (1L << 30)) {
    text.resize(size_t(size));
    text.resize(std::fread(&text[0], 1, text.size(), f));
  }
  char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) text.append(chunk, n);
  const bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) {
    *why = path + ": cannot read test-case file";
    return false;
  }
  return parseTestCases(text, path, cases, why, header);
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
    const char* p = lineText.data();
    const char* const lineEnd = p + lineText.size();
    Word first;
    if (nextWord(p, lineEnd, first) && first.b[0] == '#' && isExpectLine(p, lineEnd, first)) continue; // replaced below
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
