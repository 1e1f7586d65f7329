// ObstacleFile.cpp: the obstacle list of `navbench obstacles`, parsed with a message per bad line.
#include "nav/tilecache/ObstacleFile.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace nav::tilecache {

const char* obstacleKindName(ObstacleKind k) {
  switch (k) {
  case ObstacleKind::Cylinder: return "cylinder";
  case ObstacleKind::Box: return "box";
  case ObstacleKind::OrientedBox: return "obox";
  case ObstacleKind::Remove: return "remove";
  }
  return "?";
}

namespace {

/// A token's text shown in a message, cut to a readable length.
std::string shown(const std::string& t) { return t.size() > 40 ? t.substr(0, 40) + "..." : t; }

/// Splits a line (comment already cut) into whitespace-separated tokens.
void tokenize(const char* s, size_t n, std::vector<std::string>* out) {
  out->clear();
  size_t i = 0;
  while (i < n) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f')) ++i;
    const size_t b = i;
    while (i < n && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f')) ++i;
    if (i > b) out->emplace_back(s + b, i - b);
  }
}

/// A field as a finite float within +-OBSTACLE_MAX_COORD; else false and `problem`.
bool number(const std::string& tok, const char* field, float* out, std::string* problem) {
  const char* s = tok.c_str();
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(s, &end);
  if (end == s || *end != '\0') {
    *problem = std::string(field) + " '" + shown(tok) + "' is not a number";
    return false;
  }
  if (std::isnan(d)) {
    *problem = std::string(field) + " is NaN";
    return false;
  }
  if (std::isinf(d) || std::fabs(d) > double(OBSTACLE_MAX_COORD)) {
    *problem = std::string(field) + " " + shown(tok) + " is out of range (at most " + std::to_string(int(OBSTACLE_MAX_COORD)) +
               " in magnitude)";
    return false;
  }
  *out = float(d);
  return true;
}

} // namespace

bool parseObstacles(const char* text, size_t size, const std::string& name, ObstacleList* out, std::string* why) {
  if (!text && size) {
    if (why) *why = name + ": no text";
    return false;
  }
  ObstacleList list;
  std::vector<std::string> errors;
  int errorCount = 0;
  auto bad = [&](int line, const std::string& problem) {
    ++errorCount;
    if (int(errors.size()) < OBSTACLE_MAX_ERRORS) errors.push_back(name + ":" + std::to_string(line) + ": " + problem);
  };
  // Per obstacle line (numbered as written, bad ones included, so `remove N` means the same
  // line whatever else is wrong): its line, the line that removed it (0: none), whether it parsed.
  std::vector<int> obstacleLine, removedAt;
  std::vector<char> parsed;
  std::vector<std::string> tok;
  size_t pos = 0;
  int lineNo = 0;
  while (pos < size) {
    ++lineNo;
    const char* lineStart = text + pos;
    const char* nl = static_cast<const char*>(std::memchr(lineStart, '\n', size - pos));
    size_t len = nl ? size_t(nl - lineStart) : size - pos;
    pos += len + (nl ? 1 : 0);
    if (const void* hash = std::memchr(lineStart, '#', len)) len = size_t(static_cast<const char*>(hash) - lineStart);
    if (std::memchr(lineStart, '\0', len)) {
      bad(lineNo, "a NUL byte (not a text file?)");
      continue;
    }
    tokenize(lineStart, len, &tok);
    if (tok.empty()) continue;
    const std::string& kind = tok[0];
    ObstacleEntry e;
    e.line = lineNo;
    int fields = 0;
    const char* const* names = nullptr;
    static const char* const cylNames[] = {"X", "Y", "Z", "RADIUS", "HEIGHT"};
    static const char* const boxNames[] = {"MINX", "MINY", "MINZ", "MAXX", "MAXY", "MAXZ"};
    static const char* const oboxNames[] = {"CX", "CY", "CZ", "HX", "HY", "HZ", "YAW"};
    if (kind == "cylinder") {
      e.kind = ObstacleKind::Cylinder;
      fields = 5;
      names = cylNames;
    } else if (kind == "box") {
      e.kind = ObstacleKind::Box;
      fields = 6;
      names = boxNames;
    } else if (kind == "obox") {
      e.kind = ObstacleKind::OrientedBox;
      fields = 7;
      names = oboxNames;
    } else if (kind == "remove") {
      e.kind = ObstacleKind::Remove;
      fields = 1;
    } else {
      bad(lineNo, "unknown kind '" + shown(kind) + "' (expected cylinder, box, obox or remove)");
      continue;
    }
    if (e.kind != ObstacleKind::Remove) {
      if (int(obstacleLine.size()) >= OBSTACLE_MAX_COUNT) {
        bad(lineNo, "more than " + std::to_string(OBSTACLE_MAX_COUNT) + " obstacle lines");
        continue;
      }
      e.obstacle = int(obstacleLine.size());
      obstacleLine.push_back(lineNo);
      removedAt.push_back(0);
      parsed.push_back(0);
    }
    if (int(tok.size()) - 1 != fields) {
      static const char* const usage[] = {"cylinder X Y Z RADIUS HEIGHT", "box MINX MINY MINZ MAXX MAXY MAXZ",
                                          "obox CX CY CZ HX HY HZ YAW", "remove N"};
      bad(lineNo, kind + " takes " + std::to_string(fields) + " number" + (fields > 1 ? "s" : "") + ", got " +
                      std::to_string(tok.size() - 1) + " (" + usage[int(e.kind)] + ")");
      continue;
    }

    if (e.kind == ObstacleKind::Remove) {
      const std::string& t = tok[1];
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(t.c_str(), &end, 10);
      if (end == t.c_str() || *end != '\0' || errno == ERANGE) {
        bad(lineNo, "remove N: '" + shown(t) + "' is not a whole number");
        continue;
      }
      const int have = int(obstacleLine.size());
      if (n < 1 || n > have) {
        bad(lineNo, "remove " + shown(t) + ": there " + (have == 1 ? "is 1 obstacle line" : "are " + std::to_string(have) + " obstacle lines") +
                        " above this line (N counts cylinder, box and obox lines from 1)");
        continue;
      }
      const int idx = int(n - 1);
      if (!parsed[size_t(idx)]) {
        bad(lineNo, "remove " + std::to_string(n) + ": obstacle " + std::to_string(n) + " (line " +
                        std::to_string(obstacleLine[size_t(idx)]) + ") is itself refused");
        continue;
      }
      if (removedAt[size_t(idx)]) {
        bad(lineNo, "remove " + std::to_string(n) + ": obstacle " + std::to_string(n) + " (line " +
                        std::to_string(obstacleLine[size_t(idx)]) + ") was already removed at line " +
                        std::to_string(removedAt[size_t(idx)]));
        continue;
      }
      removedAt[size_t(idx)] = lineNo;
      e.obstacle = idx;
      list.entries.push_back(e);
      ++list.removeCount;
      continue;
    }

    bool ok = true;
    std::string problem;
    for (int i = 0; i < fields && ok; ++i) ok = number(tok[size_t(i) + 1], names[i], &e.v[i], &problem);
    if (ok) {
      switch (e.kind) {
      case ObstacleKind::Cylinder:
        if (!(e.v[3] > 0)) problem = "RADIUS " + shown(tok[4]) + " must be > 0";
        else if (!(e.v[4] > 0)) problem = "HEIGHT " + shown(tok[5]) + " must be > 0";
        break;
      case ObstacleKind::Box:
        for (int a = 0; a < 3 && problem.empty(); ++a)
          if (!(e.v[3 + a] > e.v[a]))
            problem = std::string(boxNames[3 + a]) + " " + shown(tok[size_t(4 + a)]) + " must be greater than " + boxNames[a] + " " +
                      shown(tok[size_t(1 + a)]);
        break;
      case ObstacleKind::OrientedBox:
        for (int a = 0; a < 3 && problem.empty(); ++a)
          if (!(e.v[3 + a] > 0)) problem = std::string(oboxNames[3 + a]) + " " + shown(tok[size_t(4 + a)]) + " must be > 0";
        break;
      case ObstacleKind::Remove: break;
      }
      ok = problem.empty();
    }
    if (!ok) {
      bad(lineNo, kind + ": " + problem);
      continue;
    }
    parsed[size_t(e.obstacle)] = 1;
    list.entries.push_back(e);
    ++list.obstacleCount;
  }
  if (errorCount) {
    if (why) {
      std::string msg;
      for (const std::string& l : errors) msg += (msg.empty() ? "" : "\n") + l;
      if (errorCount > int(errors.size()))
        msg += "\n" + name + ": ... and " + std::to_string(errorCount - int(errors.size())) + " more bad lines";
      *why = msg;
    }
    return false;
  }
  if (out) *out = std::move(list);
  return true;
}

bool loadObstacleFile(const std::string& path, ObstacleList* out, std::string* why) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    if (why) *why = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::string text;
  char chunk[65536];
  size_t n;
  bool tooBig = false;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) {
    if ((long long)(text.size() + n) > OBSTACLE_MAX_FILE_BYTES) {
      tooBig = true;
      break;
    }
    text.append(chunk, n);
  }
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (tooBig) {
    if (why) *why = path + ": larger than " + std::to_string(OBSTACLE_MAX_FILE_BYTES >> 20) + " MiB; not an obstacle file?";
    return false;
  }
  if (err) {
    if (why) *why = path + ": read error";
    return false;
  }
  return parseObstacles(text.data(), text.size(), path, out, why);
}

} // namespace nav::tilecache
