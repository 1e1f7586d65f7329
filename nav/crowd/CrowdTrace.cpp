#include "nav/crowd/CrowdTrace.h"

#include "nav/base/AtomicFile.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace nav::crowd {

namespace {

/// %.9g round-trips a float; JSON has no nan / inf, so those are written as null.
void appendFloat(float v, std::string* out) {
  if (!std::isfinite(v)) {
    *out += "null";
    return;
  }
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(v));
  *out += b;
}

void appendVec(const char* key, const float* v, std::string* out) {
  *out += ", \"";
  *out += key;
  *out += "\": [";
  for (int k = 0; k < 3; ++k) {
    if (k) *out += ", ";
    appendFloat(v[k], out);
  }
  *out += ']';
}

std::string fmt(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(v));
  return b;
}

} // namespace

void appendTraceLine(const TickRecord& r, std::string* out) {
  char b[160];
  std::snprintf(b, sizeof b, "{\"tick\": %d, \"agents\": [", r.tick);
  *out += b;
  for (size_t i = 0; i < r.agents.size(); ++i) {
    const AgentRecord& a = r.agents[i];
    if (i) *out += ", ";
    if (!a.active) {
      std::snprintf(b, sizeof b, "{\"i\": %d, \"active\": false}", a.i);
      *out += b;
      continue;
    }
    std::snprintf(b, sizeof b, "{\"i\": %d, \"active\": true, \"state\": %d", a.i, a.state);
    *out += b;
    appendVec("pos", a.pos, out);
    appendVec("vel", a.vel, out);
    appendVec("dvel", a.dvel, out);
    appendVec("nvel", a.nvel, out);
    std::snprintf(b, sizeof b,
                  ", \"targetState\": %d, \"npath\": %d, \"path0\": %" PRIu64 ", \"pathN\": %" PRIu64
                  ", \"ncorners\": %d, \"nneis\": %d}",
                  a.targetState, a.npath, a.path0, a.pathN, a.ncorners, a.nneis);
    *out += b;
    if (!a.type.empty()) {
      out->pop_back(); // the closing brace
      *out += ", \"type\": \"";
      for (char ch : a.type) {
        if (ch == '"' || ch == '\\') *out += '\\';
        if (static_cast<unsigned char>(ch) >= 0x20) *out += ch;
      }
      *out += "\"}";
    }
  }
  *out += "]}\n";
}

std::string traceToJsonl(const std::vector<TickRecord>& trace) {
  std::string out;
  for (const TickRecord& r : trace) appendTraceLine(r, &out);
  return out;
}

bool saveTraceFile(const std::vector<TickRecord>& trace, const std::string& path, std::string* why) {
  base::AtomicFile f(path);
  std::string w;
  if (!f.open(w)) {
    if (why) *why = w;
    return false;
  }
  std::string line;
  for (const TickRecord& r : trace) {
    line.clear();
    appendTraceLine(r, &line);
    std::fwrite(line.data(), 1, line.size(), f.file());
  }
  if (!f.commit(w)) {
    if (why) *why = w;
    return false;
  }
  return true;
}

bool traceFloatsEqual(float a, float b) {
  if (a == b) return true;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  const float scale = std::max(1.0f, std::max(std::fabs(a), std::fabs(b)));
  return std::fabs(a - b) <= TRACE_FLOAT_TOLERANCE * scale;
}

std::string compareTickRecords(const TickRecord& a, const TickRecord& b, const char* nameA, const char* nameB) {
  const std::string vs = std::string(" (") + nameA + " vs " + nameB + ")";
  const std::string at = "tick " + std::to_string(a.tick);
  if (a.tick != b.tick) return "tick numbers differ: " + std::to_string(a.tick) + " vs " + std::to_string(b.tick) + vs;
  if (a.agents.size() != b.agents.size())
    return at + ": agent counts differ: " + std::to_string(a.agents.size()) + " vs " + std::to_string(b.agents.size()) + vs;
  for (size_t k = 0; k < a.agents.size(); ++k) {
    const AgentRecord& x = a.agents[k];
    const AgentRecord& y = b.agents[k];
    const std::string ag = at + " agent " + std::to_string(x.i) + ": ";
    if (x.i != y.i) return at + ": agent index " + std::to_string(x.i) + " vs " + std::to_string(y.i) + vs;
    if (x.active != y.active)
      return ag + "active " + (x.active ? "true" : "false") + " vs " + (y.active ? "true" : "false") + vs;
    if (!x.active) continue;
    struct I { const char* name; uint64_t u, v; };
    const I is[] = {{"state", uint64_t(x.state), uint64_t(y.state)},
                    {"targetState", uint64_t(x.targetState), uint64_t(y.targetState)},
                    {"npath", uint64_t(x.npath), uint64_t(y.npath)},
                    {"path0", x.path0, y.path0},
                    {"pathN", x.pathN, y.pathN},
                    {"ncorners", uint64_t(x.ncorners), uint64_t(y.ncorners)},
                    {"nneis", uint64_t(x.nneis), uint64_t(y.nneis)}};
    for (const I& i : is)
      if (i.u != i.v) return ag + i.name + " " + std::to_string(i.u) + " vs " + std::to_string(i.v) + vs;
    if (x.type != y.type) return ag + "type '" + x.type + "' vs '" + y.type + "'" + vs;
    struct V { const char* name; const float* u; const float* v; };
    const V vs3[] = {{"pos", x.pos, y.pos}, {"vel", x.vel, y.vel}, {"dvel", x.dvel, y.dvel}, {"nvel", x.nvel, y.nvel}};
    for (const V& v : vs3)
      for (int c = 0; c < 3; ++c)
        if (!traceFloatsEqual(v.u[c], v.v[c]))
          return ag + v.name + "[" + std::to_string(c) + "] " + fmt(v.u[c]) + " vs " + fmt(v.v[c]) + " (" +
                 v.name + " (" + fmt(v.u[0]) + ", " + fmt(v.u[1]) + ", " + fmt(v.u[2]) + ") vs (" + fmt(v.v[0]) +
                 ", " + fmt(v.v[1]) + ", " + fmt(v.v[2]) + "))" + vs;
  }
  return "";
}

std::string compareTraces(const std::vector<TickRecord>& a, const std::vector<TickRecord>& b, const char* nameA,
                          const char* nameB) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t t = 0; t < n; ++t) {
    const std::string d = compareTickRecords(a[t], b[t], nameA, nameB);
    if (!d.empty()) return d;
  }
  if (a.size() != b.size())
    return "tick counts differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " (" + nameA +
           " vs " + nameB + ")";
  return "";
}

} // namespace nav::crowd
