#include "nav/crowd/CrowdScenario.h"

#include "nav/base/AtomicFile.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace nav::crowd {

void defaultAvoidPresets(ScenarioAvoidParams out[SCENARIO_AVOID_PRESETS]) {
  for (int i = 0; i < SCENARIO_AVOID_PRESETS; ++i) out[i] = ScenarioAvoidParams();
  const uint8_t q[4][3] = {{5, 2, 1}, {5, 2, 2}, {7, 2, 3}, {7, 3, 3}};
  for (int i = 0; i < 4; ++i) {
    out[i].velBias = 0.5f;
    out[i].adaptiveDivs = q[i][0];
    out[i].adaptiveRings = q[i][1];
    out[i].adaptiveDepth = q[i][2];
  }
}

namespace {

/// Exact (round-trip) text of a float, for the writer.
std::string fmtFloat(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(v));
  return b;
}

/// A float for messages (7 digits: 0.6f reads "0.6").
std::string fmtMsg(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.7g", double(v));
  return b;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Splits a line (comment removed) into whitespace-separated tokens.
void tokenize(const char* s, size_t n, std::vector<std::string>& out) {
  out.clear();
  size_t i = 0;
  while (i < n) {
    while (i < n && isSpace(s[i])) ++i;
    if (i >= n || s[i] == '#') break;
    size_t j = i;
    while (j < n && !isSpace(s[j]) && s[j] != '#') ++j;
    out.emplace_back(s + i, j - i);
    i = j;
  }
}

/// A C float (decimal, exponent, hex float or hex int); false if the token is not one whole
/// number or is not finite (nan, inf, or too big for a float).
bool parseFloat(const std::string& t, float* out) {
  if (t.empty() || t.size() > 64) return false;
  const char* s = t.c_str();
  char* end = nullptr;
  errno = 0;
  const float v = std::strtof(s, &end);
  if (end != s + t.size()) return false;
  if (!std::isfinite(v)) return false; // nan, inf, or an overflow (HUGE_VALF); underflow is fine
  *out = v;
  return true;
}

/// A decimal or 0x-hex integer (optional sign); false when not one whole integer or |v| > 2^31-1.
bool parseInt(const std::string& t, long long* out) {
  if (t.empty() || t.size() > 32) return false;
  const char* s = t.c_str();
  size_t k = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const bool hex = s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X');
  if (!(hex ? std::isxdigit(static_cast<unsigned char>(s[k + 2])) : std::isdigit(static_cast<unsigned char>(s[k]))))
    return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s, &end, hex ? 16 : 10);
  if (end != s + t.size() || errno == ERANGE) return false;
  if (v > 2147483647LL || v < -2147483647LL) return false;
  *out = v;
  return true;
}

std::string rangeF(float lo, float hi, bool loOpen) {
  return std::string(loOpen ? "(" : "[") + fmtMsg(lo) + ", " + fmtMsg(hi) + "]";
}

/// Checks an agent's parameters; "" when valid.
std::string checkAgentParams(const ScenarioAgentParams& p, float maxAgentRadius) {
  auto inRange = [](float v, float lo, float hi, bool loOpen) {
    return std::isfinite(v) && (loOpen ? v > lo : v >= lo) && v <= hi;
  };
  struct F { const char* key; float v, lo, hi; bool loOpen; };
  const F fs[] = {
      {"radius", p.radius, 0.0f, maxAgentRadius, true},
      {"height", p.height, 0.0f, SCENARIO_MAX_PARAM, true},
      {"maxAccel", p.maxAcceleration, 0.0f, SCENARIO_MAX_PARAM, false},
      {"maxSpeed", p.maxSpeed, 0.0f, SCENARIO_MAX_PARAM, false},
      {"collisionQueryRange", p.collisionQueryRange, 0.0f, SCENARIO_MAX_PARAM, true},
      {"pathOptimizationRange", p.pathOptimizationRange, 0.0f, SCENARIO_MAX_PARAM, true},
      {"separationWeight", p.separationWeight, 0.0f, SCENARIO_MAX_PARAM, false},
  };
  for (const F& f : fs)
    if (!inRange(f.v, f.lo, f.hi, f.loOpen))
      return std::string(f.key) + " " + fmtMsg(f.v) + " is outside " + rangeF(f.lo, f.hi, f.loOpen) +
             (f.v > f.hi && std::strcmp(f.key, "radius") == 0 ? " (the crowd's MAXRADIUS)" : "");
  if (p.updateFlags > SCENARIO_ALL_UPDATE_FLAGS)
    return "updateFlags " + std::to_string(p.updateFlags) + " has bits outside 0x1f";
  if (p.obstacleAvoidanceType >= SCENARIO_AVOID_PRESETS)
    return "avoidType " + std::to_string(p.obstacleAvoidanceType) + " is outside 0..7";
  if (p.queryFilterType >= SCENARIO_FILTER_TYPES)
    return "filterType " + std::to_string(p.queryFilterType) + " is outside 0..15";
  return "";
}

std::string checkAvoid(const ScenarioAvoidParams& a) {
  auto bad = [](float v, float lo, float hi, bool loOpen) {
    return !(std::isfinite(v) && (loOpen ? v > lo : v >= lo) && v <= hi);
  };
  struct F { const char* key; float v, lo, hi; bool loOpen; };
  const F fs[] = {
      {"VELBIAS", a.velBias, 0.0f, 1.0f, false},
      {"WDESVEL", a.weightDesVel, 0.0f, SCENARIO_MAX_PARAM, false},
      {"WCURVEL", a.weightCurVel, 0.0f, SCENARIO_MAX_PARAM, false},
      {"WSIDE", a.weightSide, 0.0f, SCENARIO_MAX_PARAM, false},
      {"WTOI", a.weightToi, 0.0f, SCENARIO_MAX_PARAM, false},
      {"HORIZ", a.horizTime, 0.0f, SCENARIO_MAX_PARAM, true},
  };
  for (const F& f : fs)
    if (bad(f.v, f.lo, f.hi, f.loOpen))
      return std::string(f.key) + " " + fmtMsg(f.v) + " is outside " + rangeF(f.lo, f.hi, f.loOpen);
  struct I { const char* key; int v, lo, hi; };
  const I is[] = {{"GRID", a.gridSize, 1, 255},
                  {"DIVS", a.adaptiveDivs, 1, 32},
                  {"RINGS", a.adaptiveRings, 1, 4},
                  {"DEPTH", a.adaptiveDepth, 0, 16}};
  for (const I& i : is)
    if (i.v < i.lo || i.v > i.hi)
      return std::string(i.key) + " " + std::to_string(i.v) + " is outside " + std::to_string(i.lo) + ".." +
             std::to_string(i.hi);
  return "";
}

std::string checkPos(const float* v, float limit, const char* what) {
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(v[k]) || std::fabs(v[k]) > limit)
      return std::string(what) + " (" + fmtMsg(v[0]) + ", " + fmtMsg(v[1]) + ", " + fmtMsg(v[2]) +
             ") is not finite or beyond +-" + fmtMsg(limit);
  return "";
}

/// "" when name is a valid type name (1..SCENARIO_MAX_TYPE_NAME of [A-Za-z0-9_.-]).
std::string checkTypeName(const std::string& name) {
  if (name.empty() || name.size() > SCENARIO_MAX_TYPE_NAME)
    return "type name '" + name.substr(0, 64) + "' must have 1.." + std::to_string(SCENARIO_MAX_TYPE_NAME) + " characters";
  for (char ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != '-')
      return "type name '" + name.substr(0, 64) + "' may hold only letters, digits, '_', '.' and '-'";
  return "";
}

const char* opName(ScenarioOp op) {
  switch (op) {
  case ScenarioOp::Crowd: return "crowd";
  case ScenarioOp::Avoid: return "avoid";
  case ScenarioOp::Agent: return "agent";
  case ScenarioOp::Target: return "target";
  case ScenarioOp::Velocity: return "velocity";
  case ScenarioOp::Reset: return "reset";
  case ScenarioOp::Remove: return "remove";
  case ScenarioOp::Tick: return "tick";
  }
  return "?";
}

} // namespace

std::string checkScenarioCommand(const ScenarioCommand& c, int maxAgents, float maxAgentRadius, int agentsSoFar,
                                 int navTypeCount) {
  (void)maxAgents;
  switch (c.op) {
  case ScenarioOp::Crowd: return "crowd is not a command of the list (it sets Scenario::maxAgents)";
  case ScenarioOp::Avoid:
    if (c.agent < 0 || c.agent >= SCENARIO_AVOID_PRESETS)
      return "avoid index " + std::to_string(c.agent) + " is outside 0..7";
    return checkAvoid(c.avoid);
  case ScenarioOp::Agent: {
    std::string e = checkPos(c.v, SCENARIO_MAX_COORD, "position");
    if (e.empty()) e = checkAgentParams(c.agentParams, maxAgentRadius);
    if (e.empty() && c.agentParams.navType >= navTypeCount)
      e = "agent type " + std::to_string(c.agentParams.navType) + " is not among the scenario's " +
          std::to_string(navTypeCount) + " type(s)";
    return e;
  }
  case ScenarioOp::Target:
  case ScenarioOp::Velocity:
  case ScenarioOp::Reset:
  case ScenarioOp::Remove:
    if (c.agent < 0 || c.agent >= agentsSoFar)
      return "agent " + std::to_string(c.agent) + " does not exist (" + std::to_string(agentsSoFar) +
             " agent line(s) so far; indices start at 0)";
    if (c.op == ScenarioOp::Target) return checkPos(c.v, SCENARIO_MAX_COORD, "target");
    if (c.op == ScenarioOp::Velocity) return checkPos(c.v, SCENARIO_MAX_VELOCITY, "velocity");
    return "";
  case ScenarioOp::Tick:
    if (c.ticks < 1 || c.ticks > SCENARIO_MAX_TICKS)
      return "tick count " + std::to_string(c.ticks) + " is outside 1.." + std::to_string(SCENARIO_MAX_TICKS);
    if (!std::isfinite(c.dt) || c.dt <= 0.0f || c.dt > SCENARIO_MAX_DT)
      return "tick DT " + fmtMsg(c.dt) + " is outside (0, " + fmtMsg(SCENARIO_MAX_DT) + "] seconds";
    return "";
  }
  return "unknown command";
}

bool parseScenario(const std::string& text, const std::string& name, Scenario* out, std::string* why) {
  Scenario s;
  std::vector<std::string> tok;
  std::vector<uint8_t> alive; // per agent index: 1 while added and not removed (static count)
  int aliveCount = 0;
  long long totalTicks = 0;
  int lineNo = 0;
  bool sawCommand = false;
  size_t pos = 0;
  auto fail = [&](const std::string& problem) {
    if (why) *why = name + ":" + std::to_string(lineNo) + ": " + problem;
    return false;
  };
  if (text.size() > SCENARIO_MAX_FILE_BYTES) {
    if (why) *why = name + ": " + std::to_string(text.size()) + " bytes, over the limit of " +
                    std::to_string(SCENARIO_MAX_FILE_BYTES) + " bytes";
    return false;
  }
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    ++lineNo;
    const size_t len = eol - pos;
    const char* line = text.data() + pos;
    pos = eol + 1;
    if (len > SCENARIO_MAX_LINE) return fail("line longer than " + std::to_string(SCENARIO_MAX_LINE) + " characters");
    if (std::memchr(line, '\0', len)) return fail("NUL byte in the line (not a text file?)");
    tokenize(line, len, tok);
    if (tok.empty()) continue;
    const std::string& cmd = tok[0];
    const int nargs = int(tok.size()) - 1;
    auto arity = [&](int n, const char* usage) -> bool {
      if (nargs == n) return true;
      fail(cmd + " takes " + std::to_string(n) + " value(s), got " + std::to_string(nargs) + " (usage: " + usage + ")");
      return false;
    };
    auto getF = [&](int i, const char* what, float* v) -> bool {
      if (parseFloat(tok[size_t(i)], v)) return true;
      fail(std::string(what) + " '" + tok[size_t(i)] + "' is not a finite number");
      return false;
    };
    auto getI = [&](int i, const char* what, long long lo, long long hi, long long* v) -> bool {
      if (!parseInt(tok[size_t(i)], v)) {
        fail(std::string(what) + " '" + tok[size_t(i)] + "' is not an integer");
        return false;
      }
      if (*v < lo || *v > hi) {
        fail(std::string(what) + " " + std::to_string(*v) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
        return false;
      }
      return true;
    };
    if (s.commands.size() >= size_t(SCENARIO_MAX_COMMANDS))
      return fail("more than " + std::to_string(SCENARIO_MAX_COMMANDS) + " commands");

    ScenarioCommand c;
    c.line = lineNo;
    long long iv = 0;
    if (cmd == "crowd") {
      if (!arity(2, "crowd MAXAGENTS MAXRADIUS")) return false;
      if (s.hasCrowdLine) return fail("a second crowd line (the crowd is initialised once)");
      if (sawCommand) return fail("crowd must come before every other command");
      if (!getI(1, "MAXAGENTS", 1, SCENARIO_MAX_AGENTS, &iv)) return false;
      float r = 0;
      if (!getF(2, "MAXRADIUS", &r)) return false;
      if (!(r > 0.0f && r <= SCENARIO_MAX_AGENT_RADIUS))
        return fail("MAXRADIUS " + fmtMsg(r) + " is outside (0, " + fmtMsg(SCENARIO_MAX_AGENT_RADIUS) + "]");
      s.maxAgents = int(iv);
      s.maxAgentRadius = r;
      s.hasCrowdLine = true;
      sawCommand = true;
      continue;
    }
    sawCommand = true;
    if (cmd == "navmesh") {
      if (nargs < 1 || nargs > 2)
        return fail("navmesh takes NAME [PATH], got " + std::to_string(nargs) + " value(s)");
      if (s.agentCount > 0) return fail("navmesh must come before every agent line");
      const std::string& tname = tok[1];
      std::string e = checkTypeName(tname);
      if (!e.empty()) return fail(e);
      if (tname == SCENARIO_DEFAULT_TYPE)
        return fail(std::string("type '") + SCENARIO_DEFAULT_TYPE + "' is the mesh the scenario is run on; name another");
      for (const ScenarioNavType& t : s.navTypes)
        if (t.name == tname) return fail("type '" + tname + "' declared twice (first on line " + std::to_string(t.line) + ")");
      if (int(s.navTypes.size()) + 1 >= SCENARIO_MAX_NAV_TYPES)
        return fail("more than " + std::to_string(SCENARIO_MAX_NAV_TYPES - 1) + " navmesh lines");
      s.navTypes.push_back({tname, nargs == 2 ? tok[2] : std::string(), lineNo});
      continue;
    }
    if (cmd == "avoid") {
      if (!arity(11, "avoid IDX VELBIAS WDESVEL WCURVEL WSIDE WTOI HORIZ GRID DIVS RINGS DEPTH")) return false;
      c.op = ScenarioOp::Avoid;
      if (!getI(1, "avoid IDX", 0, SCENARIO_AVOID_PRESETS - 1, &iv)) return false;
      c.agent = int(iv);
      ScenarioAvoidParams& a = c.avoid;
      if (!getF(2, "VELBIAS", &a.velBias) || !getF(3, "WDESVEL", &a.weightDesVel) ||
          !getF(4, "WCURVEL", &a.weightCurVel) || !getF(5, "WSIDE", &a.weightSide) || !getF(6, "WTOI", &a.weightToi) ||
          !getF(7, "HORIZ", &a.horizTime))
        return false;
      if (!getI(8, "GRID", 1, 255, &iv)) return false;
      a.gridSize = uint8_t(iv);
      if (!getI(9, "DIVS", 1, 32, &iv)) return false;
      a.adaptiveDivs = uint8_t(iv);
      if (!getI(10, "RINGS", 1, 4, &iv)) return false;
      a.adaptiveRings = uint8_t(iv);
      if (!getI(11, "DEPTH", 0, 16, &iv)) return false;
      a.adaptiveDepth = uint8_t(iv);
    } else if (cmd == "agent") {
      if (nargs < 3 || (nargs - 3) % 2 != 0)
        return fail("agent takes X Y Z then KEY VALUE pairs, got " + std::to_string(nargs) + " value(s)");
      c.op = ScenarioOp::Agent;
      if (!getF(1, "X", &c.v[0]) || !getF(2, "Y", &c.v[1]) || !getF(3, "Z", &c.v[2])) return false;
      ScenarioAgentParams& p = c.agentParams;
      bool setColl = false, setOpt = false;
      uint32_t seen = 0;
      for (int k = 4; k + 1 <= nargs; k += 2) {
        const std::string& key = tok[size_t(k)];
        static const char* const keys[] = {"radius", "height", "maxAccel", "maxSpeed", "collisionQueryRange",
                                           "pathOptimizationRange", "separationWeight", "updateFlags",
                                           "avoidType", "filterType", "type", "priority"};
        int ki = -1;
        for (int q = 0; q < 12; ++q)
          if (key == keys[q]) ki = q;
        if (ki < 0)
          return fail("unknown agent key '" + key + "' (keys: radius height maxAccel maxSpeed collisionQueryRange "
                      "pathOptimizationRange separationWeight updateFlags avoidType filterType type priority)");
        if (seen & (1u << ki)) return fail("agent key '" + key + "' given twice");
        seen |= 1u << ki;
        switch (ki) {
        case 0: if (!getF(k + 1, "radius", &p.radius)) return false; break;
        case 1: if (!getF(k + 1, "height", &p.height)) return false; break;
        case 2: if (!getF(k + 1, "maxAccel", &p.maxAcceleration)) return false; break;
        case 3: if (!getF(k + 1, "maxSpeed", &p.maxSpeed)) return false; break;
        case 4: if (!getF(k + 1, "collisionQueryRange", &p.collisionQueryRange)) return false; setColl = true; break;
        case 5: if (!getF(k + 1, "pathOptimizationRange", &p.pathOptimizationRange)) return false; setOpt = true; break;
        case 6: if (!getF(k + 1, "separationWeight", &p.separationWeight)) return false; break;
        case 7: if (!getI(k + 1, "updateFlags", 0, SCENARIO_ALL_UPDATE_FLAGS, &iv)) return false; p.updateFlags = uint8_t(iv); break;
        case 8: if (!getI(k + 1, "avoidType", 0, SCENARIO_AVOID_PRESETS - 1, &iv)) return false; p.obstacleAvoidanceType = uint8_t(iv); break;
        case 9: if (!getI(k + 1, "filterType", 0, SCENARIO_FILTER_TYPES - 1, &iv)) return false; p.queryFilterType = uint8_t(iv); break;
        case 10: {
          const std::string& tname = tok[size_t(k + 1)];
          int t = tname == SCENARIO_DEFAULT_TYPE ? 0 : -1;
          for (size_t q = 0; q < s.navTypes.size() && t < 0; ++q)
            if (s.navTypes[q].name == tname) t = int(q) + 1;
          if (t < 0) {
            std::string known = SCENARIO_DEFAULT_TYPE;
            for (const ScenarioNavType& nt : s.navTypes) known += ", " + nt.name;
            return fail("agent " + std::to_string(s.agentCount) + ": unknown type '" + tname.substr(0, 64) +
                        "' (types: " + known + "; a `navmesh NAME PATH` line before the agents declares one)");
          }
          p.navType = uint8_t(t);
          break;
        }
        case 11: if (!getI(k + 1, "priority", 0, 255, &iv)) return false; p.avoidancePriority = uint8_t(iv); break;
        }
      }
      if (!setColl) p.collisionQueryRange = p.radius * 12.0f;
      if (!setOpt) p.pathOptimizationRange = p.radius * 30.0f;
    } else if (cmd == "target" || cmd == "velocity") {
      const bool target = cmd == "target";
      if (!arity(4, target ? "target I X Y Z" : "velocity I VX VY VZ")) return false;
      c.op = target ? ScenarioOp::Target : ScenarioOp::Velocity;
      if (!getI(1, "agent index", 0, SCENARIO_MAX_AGENT_LINES - 1, &iv)) return false;
      c.agent = int(iv);
      if (!getF(2, target ? "X" : "VX", &c.v[0]) || !getF(3, target ? "Y" : "VY", &c.v[1]) ||
          !getF(4, target ? "Z" : "VZ", &c.v[2]))
        return false;
    } else if (cmd == "reset" || cmd == "remove") {
      if (!arity(1, cmd == "reset" ? "reset I" : "remove I")) return false;
      c.op = cmd == "reset" ? ScenarioOp::Reset : ScenarioOp::Remove;
      if (!getI(1, "agent index", 0, SCENARIO_MAX_AGENT_LINES - 1, &iv)) return false;
      c.agent = int(iv);
    } else if (cmd == "tick") {
      if (!arity(2, "tick N DT")) return false;
      c.op = ScenarioOp::Tick;
      if (!getI(1, "tick count N", 1, SCENARIO_MAX_TICKS, &iv)) return false;
      c.ticks = int(iv);
      if (!getF(2, "DT", &c.dt)) return false;
      totalTicks += c.ticks;
      if (totalTicks > SCENARIO_MAX_TICKS)
        return fail("more than " + std::to_string(SCENARIO_MAX_TICKS) + " ticks in all");
    } else {
      return fail("unknown command '" + cmd + "' (commands: crowd navmesh avoid agent target velocity reset remove tick)");
    }

    if (c.op == ScenarioOp::Agent) {
      if (s.agentCount >= SCENARIO_MAX_AGENT_LINES)
        return fail("more than " + std::to_string(SCENARIO_MAX_AGENT_LINES) + " agent lines");
    }
    const std::string e = checkScenarioCommand(c, s.maxAgents, s.maxAgentRadius, s.agentCount,
                                               1 + int(s.navTypes.size()));
    if (!e.empty()) return fail(e);
    if (c.op == ScenarioOp::Agent) {
      if (aliveCount + 1 > s.maxAgents)
        return fail("agent " + std::to_string(s.agentCount) + " would be agent number " +
                    std::to_string(aliveCount + 1) + " in the crowd at once, over MAXAGENTS " +
                    std::to_string(s.maxAgents) + " (raise it with a first line `crowd MAXAGENTS MAXRADIUS`, at most " +
                    std::to_string(SCENARIO_MAX_AGENTS) + ")");
      c.agent = s.agentCount++;
      alive.push_back(1);
      ++aliveCount;
    } else if (c.op == ScenarioOp::Remove && alive[size_t(c.agent)]) {
      alive[size_t(c.agent)] = 0;
      --aliveCount;
    }
    s.commands.push_back(c);
  }
  s.tickCount = int(totalTicks);
  *out = std::move(s);
  return true;
}

bool loadScenarioFile(const std::string& path, Scenario* out, std::string* why) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    if (why) *why = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::string text;
  char buf[65536];
  size_t n = 0;
  bool tooBig = false;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    text.append(buf, n);
    if (text.size() > SCENARIO_MAX_FILE_BYTES) {
      tooBig = true;
      break;
    }
  }
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err) {
    if (why) *why = path + ": read error";
    return false;
  }
  if (tooBig) {
    if (why) *why = path + ": over the limit of " + std::to_string(SCENARIO_MAX_FILE_BYTES) + " bytes";
    return false;
  }
  return parseScenario(text, path, out, why);
}

bool writeScenario(const Scenario& s, std::string* text, std::string* why) {
  auto fail = [&](size_t i, const std::string& problem) {
    if (why) *why = "command " + std::to_string(i) + " (" + opName(s.commands[i].op) + "): " + problem;
    return false;
  };
  if (s.maxAgents < 1 || s.maxAgents > SCENARIO_MAX_AGENTS || !(s.maxAgentRadius > 0.0f) ||
      !(s.maxAgentRadius <= SCENARIO_MAX_AGENT_RADIUS)) {
    if (why) *why = "crowd " + std::to_string(s.maxAgents) + " " + fmtMsg(s.maxAgentRadius) + " is outside the limits";
    return false;
  }
  std::string o = "crowd " + std::to_string(s.maxAgents) + " " + fmtFloat(s.maxAgentRadius) + "\n";
  if (int(s.navTypes.size()) + 1 > SCENARIO_MAX_NAV_TYPES) {
    if (why) *why = std::to_string(s.navTypes.size()) + " navmesh lines, over the limit";
    return false;
  }
  for (size_t t = 0; t < s.navTypes.size(); ++t) {
    const ScenarioNavType& nt = s.navTypes[t];
    std::string e = checkTypeName(nt.name);
    if (e.empty() && nt.name == SCENARIO_DEFAULT_TYPE) e = "type 'default' declared by a navmesh line";
    for (size_t q = 0; q < t && e.empty(); ++q)
      if (s.navTypes[q].name == nt.name) e = "type '" + nt.name + "' declared twice";
    const std::string line = "navmesh " + nt.name + (nt.path.empty() ? "" : " " + nt.path);
    if (e.empty() && (line.size() > SCENARIO_MAX_LINE || nt.path.find_first_of(" \t\r\n\v\f#") != std::string::npos ||
                      nt.path.find('\0') != std::string::npos))
      e = "type '" + nt.name + "': its path has a space, '#' or NUL, or makes a line over " +
          std::to_string(SCENARIO_MAX_LINE) + " characters";
    if (!e.empty()) {
      if (why) *why = e;
      return false;
    }
    o += line + "\n";
  }
  int agents = 0, aliveCount = 0;
  std::vector<uint8_t> alive;
  const ScenarioAgentParams def;
  for (size_t i = 0; i < s.commands.size(); ++i) {
    const ScenarioCommand& c = s.commands[i];
    const std::string e = checkScenarioCommand(c, s.maxAgents, s.maxAgentRadius, agents, 1 + int(s.navTypes.size()));
    if (!e.empty()) return fail(i, e);
    switch (c.op) {
    case ScenarioOp::Crowd: return fail(i, "crowd inside the command list");
    case ScenarioOp::Avoid: {
      const ScenarioAvoidParams& a = c.avoid;
      o += "avoid " + std::to_string(c.agent) + " " + fmtFloat(a.velBias) + " " + fmtFloat(a.weightDesVel) + " " +
           fmtFloat(a.weightCurVel) + " " + fmtFloat(a.weightSide) + " " + fmtFloat(a.weightToi) + " " +
           fmtFloat(a.horizTime) + " " + std::to_string(a.gridSize) + " " + std::to_string(a.adaptiveDivs) + " " +
           std::to_string(a.adaptiveRings) + " " + std::to_string(a.adaptiveDepth) + "\n";
      break;
    }
    case ScenarioOp::Agent: {
      if (aliveCount + 1 > s.maxAgents) return fail(i, "more agents at once than MAXAGENTS");
      const ScenarioAgentParams& p = c.agentParams;
      o += "agent " + fmtFloat(c.v[0]) + " " + fmtFloat(c.v[1]) + " " + fmtFloat(c.v[2]);
      auto keyF = [&](const char* k, float v, float d) {
        if (std::memcmp(&v, &d, sizeof v) != 0) o += std::string(" ") + k + " " + fmtFloat(v);
      };
      keyF("radius", p.radius, def.radius);
      keyF("height", p.height, def.height);
      keyF("maxAccel", p.maxAcceleration, def.maxAcceleration);
      keyF("maxSpeed", p.maxSpeed, def.maxSpeed);
      keyF("collisionQueryRange", p.collisionQueryRange, p.radius * 12.0f);
      keyF("pathOptimizationRange", p.pathOptimizationRange, p.radius * 30.0f);
      keyF("separationWeight", p.separationWeight, def.separationWeight);
      if (p.updateFlags != def.updateFlags) {
        char b[16];
        std::snprintf(b, sizeof b, "0x%x", unsigned(p.updateFlags));
        o += std::string(" updateFlags ") + b;
      }
      if (p.obstacleAvoidanceType != def.obstacleAvoidanceType)
        o += " avoidType " + std::to_string(p.obstacleAvoidanceType);
      if (p.queryFilterType != def.queryFilterType) o += " filterType " + std::to_string(p.queryFilterType);
      if (p.navType != def.navType) o += " type " + scenarioTypeName(s, p.navType);
      if (p.avoidancePriority != def.avoidancePriority) o += " priority " + std::to_string(p.avoidancePriority);
      o += "\n";
      ++agents;
      alive.push_back(1);
      ++aliveCount;
      break;
    }
    case ScenarioOp::Target:
    case ScenarioOp::Velocity:
      o += std::string(c.op == ScenarioOp::Target ? "target " : "velocity ") + std::to_string(c.agent) + " " +
           fmtFloat(c.v[0]) + " " + fmtFloat(c.v[1]) + " " + fmtFloat(c.v[2]) + "\n";
      break;
    case ScenarioOp::Reset: o += "reset " + std::to_string(c.agent) + "\n"; break;
    case ScenarioOp::Remove:
      o += "remove " + std::to_string(c.agent) + "\n";
      if (alive[size_t(c.agent)]) {
        alive[size_t(c.agent)] = 0;
        --aliveCount;
      }
      break;
    case ScenarioOp::Tick: o += "tick " + std::to_string(c.ticks) + " " + fmtFloat(c.dt) + "\n"; break;
    }
  }
  *text = std::move(o);
  return true;
}

std::string scenarioTypeName(const Scenario& s, int t) {
  if (t == 0) return SCENARIO_DEFAULT_TYPE;
  if (t < 0 || t > int(s.navTypes.size())) return "";
  return s.navTypes[size_t(t - 1)].name;
}

std::string scenarioTypeMeshPath(const Scenario& s, int t, const std::string& scenarioPath, const std::string& meshPath) {
  if (t <= 0 || t > int(s.navTypes.size())) return meshPath;
  const ScenarioNavType& nt = s.navTypes[size_t(t - 1)];
  if (nt.path.empty()) {
    const size_t slash = meshPath.find_last_of('/');
    const size_t nameAt = slash == std::string::npos ? 0 : slash + 1;
    std::string stem = meshPath;
    if (stem.size() >= nameAt + 4 && stem.compare(stem.size() - 4, 4, ".bin") == 0) stem.resize(stem.size() - 4);
    return stem + "." + nt.name + ".bin";
  }
  if (nt.path[0] == '/') return nt.path;
  const size_t slash = scenarioPath.find_last_of('/');
  return slash == std::string::npos ? nt.path : scenarioPath.substr(0, slash + 1) + nt.path;
}

bool saveScenarioFile(const Scenario& s, const std::string& path, std::string* why) {
  std::string text, w;
  if (!writeScenario(s, &text, &w)) {
    if (why) *why = path + ": not written: " + w;
    return false;
  }
  base::AtomicFile f(path);
  if (!f.open(w)) {
    if (why) *why = w;
    return false;
  }
  std::fwrite(text.data(), 1, text.size(), f.file());
  if (!f.commit(w)) {
    if (why) *why = w;
    return false;
  }
  return true;
}

} // namespace nav::crowd
