// FuzzCrowdScenario.cpp: the crowd scenario parser (nav/crowd/CrowdScenario.h). A refusal always
// says "fuzz:LINE: problem"; an accepted scenario holds only values inside the documented limits
// (every command passes checkScenarioCommand, agent indices exist, the tick count adds up), and its
// written text parses back to the same commands (agent types and priorities included) and writes the
// same text again.
#include "nav/crowd/CrowdScenario.h"

#include <cmath>
#include <cstring>
#include <string>

using namespace nav::crowd;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Scenario s;
  std::string why;
  if (!parseScenario(text, "fuzz", &s, &why)) {
    if (why.compare(0, 5, "fuzz:") != 0) __builtin_trap();
    return 0;
  }
  if (s.maxAgents < 1 || s.maxAgents > SCENARIO_MAX_AGENTS || !(s.maxAgentRadius > 0.0f) ||
      s.maxAgentRadius > SCENARIO_MAX_AGENT_RADIUS)
    __builtin_trap();
  int agents = 0;
  long long ticks = 0;
  for (const ScenarioCommand& c : s.commands) {
    if (!checkScenarioCommand(c, s.maxAgents, s.maxAgentRadius, agents, 1 + int(s.navTypes.size())).empty())
      __builtin_trap();
    if (c.op == ScenarioOp::Agent && c.agent != agents++) __builtin_trap();
    if (c.op == ScenarioOp::Tick) ticks += c.ticks;
  }
  if (agents != s.agentCount || ticks != s.tickCount || ticks > SCENARIO_MAX_TICKS) __builtin_trap();

  std::string written, again;
  if (!writeScenario(s, &written, &why)) __builtin_trap();
  Scenario t;
  if (!parseScenario(written, "written", &t, &why)) __builtin_trap();
  if (t.commands.size() != s.commands.size() || t.agentCount != s.agentCount || t.tickCount != s.tickCount ||
      t.maxAgents != s.maxAgents || t.maxAgentRadius != s.maxAgentRadius || t.navTypes.size() != s.navTypes.size() ||
      s.navTypes.size() + 1 > size_t(SCENARIO_MAX_NAV_TYPES))
    __builtin_trap();
  for (size_t i = 0; i < s.navTypes.size(); ++i)
    if (t.navTypes[i].name != s.navTypes[i].name || t.navTypes[i].path != s.navTypes[i].path) __builtin_trap();
  for (size_t i = 0; i < s.commands.size(); ++i) {
    const ScenarioCommand& a = s.commands[i];
    const ScenarioCommand& b = t.commands[i];
    if (a.op != b.op || a.agent != b.agent || a.ticks != b.ticks || a.dt != b.dt) __builtin_trap();
    for (int k = 0; k < 3; ++k)
      if (a.v[k] != b.v[k]) __builtin_trap();
    if (a.agentParams.radius != b.agentParams.radius || a.agentParams.updateFlags != b.agentParams.updateFlags ||
        a.agentParams.collisionQueryRange != b.agentParams.collisionQueryRange ||
        a.avoid.adaptiveDivs != b.avoid.adaptiveDivs || a.avoid.velBias != b.avoid.velBias ||
        a.agentParams.navType != b.agentParams.navType ||
        a.agentParams.avoidancePriority != b.agentParams.avoidancePriority)
      __builtin_trap();
  }
  if (!writeScenario(t, &again, &why) || again != written) __builtin_trap();
  return 0;
}
