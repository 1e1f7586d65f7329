// ScenarioParseTest.cpp: crowd scenario files (../shared/formats/crowd.md): every command and key
// parses with crowd.md's defaults, every refusal names the file and line, and the writer's text
// parses back to the same scenario.
#include "nav/crowd/CrowdScenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

using namespace nav::crowd;

Scenario parseOk(const std::string& text) {
  Scenario s;
  std::string why;
  EXPECT_TRUE(parseScenario(text, "t.crowd.txt", &s, &why)) << why;
  return s;
}

/// The refusal message of `text` (which must be refused).
std::string refusal(const std::string& text) {
  Scenario s;
  std::string why;
  EXPECT_FALSE(parseScenario(text, "bad.crowd.txt", &s, &why)) << "accepted:\n" << text;
  return why;
}

void expectRefused(const std::string& text, int line, const char* fragment) {
  const std::string why = refusal(text);
  const std::string prefix = "bad.crowd.txt:" + std::to_string(line) + ": ";
  EXPECT_EQ(why.compare(0, prefix.size(), prefix), 0) << "message '" << why << "' should start with " << prefix;
  EXPECT_NE(why.find(fragment), std::string::npos) << "message '" << why << "' should mention '" << fragment << "'";
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Field by field (the structs have padding).
bool sameAgent(const ScenarioAgentParams& a, const ScenarioAgentParams& b) {
  return sameBits(a.radius, b.radius) && sameBits(a.height, b.height) &&
         sameBits(a.maxAcceleration, b.maxAcceleration) && sameBits(a.maxSpeed, b.maxSpeed) &&
         sameBits(a.collisionQueryRange, b.collisionQueryRange) &&
         sameBits(a.pathOptimizationRange, b.pathOptimizationRange) &&
         sameBits(a.separationWeight, b.separationWeight) && a.updateFlags == b.updateFlags &&
         a.obstacleAvoidanceType == b.obstacleAvoidanceType && a.queryFilterType == b.queryFilterType;
}
bool sameAvoid(const ScenarioAvoidParams& a, const ScenarioAvoidParams& b) {
  return sameBits(a.velBias, b.velBias) && sameBits(a.weightDesVel, b.weightDesVel) &&
         sameBits(a.weightCurVel, b.weightCurVel) && sameBits(a.weightSide, b.weightSide) &&
         sameBits(a.weightToi, b.weightToi) && sameBits(a.horizTime, b.horizTime) && a.gridSize == b.gridSize &&
         a.adaptiveDivs == b.adaptiveDivs && a.adaptiveRings == b.adaptiveRings && a.adaptiveDepth == b.adaptiveDepth;
}

TEST(ScenarioParse, DefaultsAreCrowdMds) {
  const Scenario s = parseOk("# a comment\n\n  agent 1 2 3   # trailing comment\ntick 2 0.1\n");
  EXPECT_FALSE(s.hasCrowdLine);
  EXPECT_EQ(s.maxAgents, 128);
  EXPECT_EQ(s.maxAgentRadius, 0.6f);
  ASSERT_EQ(s.commands.size(), 2u);
  const ScenarioCommand& a = s.commands[0];
  EXPECT_EQ(a.op, ScenarioOp::Agent);
  EXPECT_EQ(a.line, 3);
  EXPECT_EQ(a.agent, 0);
  EXPECT_EQ(a.v[0], 1.0f);
  EXPECT_EQ(a.v[2], 3.0f);
  const ScenarioAgentParams& p = a.agentParams;
  EXPECT_EQ(p.radius, 0.6f);
  EXPECT_EQ(p.height, 2.0f);
  EXPECT_EQ(p.maxAcceleration, 8.0f);
  EXPECT_EQ(p.maxSpeed, 3.5f);
  EXPECT_EQ(p.collisionQueryRange, 0.6f * 12.0f);
  EXPECT_EQ(p.pathOptimizationRange, 0.6f * 30.0f);
  EXPECT_EQ(p.separationWeight, 2.0f);
  EXPECT_EQ(p.updateFlags, 0x1f);
  EXPECT_EQ(p.obstacleAvoidanceType, 3);
  EXPECT_EQ(p.queryFilterType, 0);
  EXPECT_EQ(s.commands[1].ticks, 2);
  EXPECT_EQ(s.commands[1].dt, 0.1f);
  EXPECT_EQ(s.tickCount, 2);
  EXPECT_EQ(s.agentCount, 1);
}

TEST(ScenarioParse, RangesFollowTheAgentsRadius) {
  const Scenario s = parseOk("crowd 8 1.0\nagent 0 0 0 radius 0.4\nagent 0 0 0 radius 0.4 collisionQueryRange 3 "
                             "pathOptimizationRange 5\n");
  EXPECT_EQ(s.commands[0].agentParams.collisionQueryRange, 0.4f * 12.0f);
  EXPECT_EQ(s.commands[0].agentParams.pathOptimizationRange, 0.4f * 30.0f);
  EXPECT_EQ(s.commands[1].agentParams.collisionQueryRange, 3.0f);
  EXPECT_EQ(s.commands[1].agentParams.pathOptimizationRange, 5.0f);
}

TEST(ScenarioParse, EveryCommandAndKey) {
  const Scenario s = parseOk(
      "crowd 0x10 0.8\n"
      "avoid 5 0.3 1.5 0.5 0.6 2 2.25 21 6 3 4\n"
      "agent -1.5 0.25 2e1 radius 0.5 height 1.8 maxAccel 6 maxSpeed 4 collisionQueryRange 5 "
      "pathOptimizationRange 12 separationWeight 1 updateFlags 0x0b avoidType 7 filterType 15\n"
      "target 0 3 0 4\nvelocity 0 1 0 -1\nreset 0\ntick 3 0.05\nremove 0\nagent 1 1 1\n");
  EXPECT_TRUE(s.hasCrowdLine);
  EXPECT_EQ(s.maxAgents, 16);
  EXPECT_EQ(s.maxAgentRadius, 0.8f);
  ASSERT_EQ(s.commands.size(), 8u);
  const ScenarioAvoidParams& a = s.commands[0].avoid;
  EXPECT_EQ(s.commands[0].agent, 5);
  EXPECT_EQ(a.velBias, 0.3f);
  EXPECT_EQ(a.weightDesVel, 1.5f);
  EXPECT_EQ(a.weightCurVel, 0.5f);
  EXPECT_EQ(a.weightSide, 0.6f);
  EXPECT_EQ(a.weightToi, 2.0f);
  EXPECT_EQ(a.horizTime, 2.25f);
  EXPECT_EQ(a.gridSize, 21);
  EXPECT_EQ(a.adaptiveDivs, 6);
  EXPECT_EQ(a.adaptiveRings, 3);
  EXPECT_EQ(a.adaptiveDepth, 4);
  const ScenarioAgentParams& p = s.commands[1].agentParams;
  EXPECT_EQ(s.commands[1].v[2], 20.0f);
  EXPECT_EQ(p.radius, 0.5f);
  EXPECT_EQ(p.height, 1.8f);
  EXPECT_EQ(p.maxAcceleration, 6.0f);
  EXPECT_EQ(p.maxSpeed, 4.0f);
  EXPECT_EQ(p.collisionQueryRange, 5.0f);
  EXPECT_EQ(p.pathOptimizationRange, 12.0f);
  EXPECT_EQ(p.separationWeight, 1.0f);
  EXPECT_EQ(p.updateFlags, 0x0b);
  EXPECT_EQ(p.obstacleAvoidanceType, 7);
  EXPECT_EQ(p.queryFilterType, 15);
  EXPECT_EQ(s.commands[2].op, ScenarioOp::Target);
  EXPECT_EQ(s.commands[3].op, ScenarioOp::Velocity);
  EXPECT_EQ(s.commands[3].v[2], -1.0f);
  EXPECT_EQ(s.commands[4].op, ScenarioOp::Reset);
  EXPECT_EQ(s.commands[5].op, ScenarioOp::Tick);
  EXPECT_EQ(s.commands[6].op, ScenarioOp::Remove);
  EXPECT_EQ(s.commands[7].agent, 1);
  EXPECT_EQ(s.agentCount, 2);
}

TEST(ScenarioParse, PresetsAreDetourCrowdsThenRecastDemos) {
  ScenarioAvoidParams p[SCENARIO_AVOID_PRESETS];
  defaultAvoidPresets(p);
  const int q[4][3] = {{5, 2, 1}, {5, 2, 2}, {7, 2, 3}, {7, 3, 3}};
  for (int i = 0; i < SCENARIO_AVOID_PRESETS; ++i) {
    EXPECT_EQ(p[i].velBias, i < 4 ? 0.5f : 0.4f) << i;
    EXPECT_EQ(p[i].weightDesVel, 2.0f);
    EXPECT_EQ(p[i].weightCurVel, 0.75f);
    EXPECT_EQ(p[i].weightSide, 0.75f);
    EXPECT_EQ(p[i].weightToi, 2.5f);
    EXPECT_EQ(p[i].horizTime, 2.5f);
    EXPECT_EQ(p[i].gridSize, 33);
    EXPECT_EQ(p[i].adaptiveDivs, i < 4 ? q[i][0] : 7) << i;
    EXPECT_EQ(p[i].adaptiveRings, i < 4 ? q[i][1] : 2) << i;
    EXPECT_EQ(p[i].adaptiveDepth, i < 4 ? q[i][2] : 5) << i;
  }
}

TEST(ScenarioParse, Refusals) {
  expectRefused("fly 0 0 0\n", 1, "unknown command 'fly'");
  expectRefused("agent 0 0 0\n\ntick 1\n", 3, "tick takes 2 value(s), got 1");
  expectRefused("agent 0 0\n", 1, "agent takes X Y Z");
  expectRefused("agent 0 0 0 radius\n", 1, "KEY VALUE pairs");
  expectRefused("agent 0 0 0 speed 3\n", 1, "unknown agent key 'speed'");
  expectRefused("agent 0 0 0 radius 0.5 radius 0.4\n", 1, "given twice");
  expectRefused("agent 0 zero 0\n", 1, "Y 'zero' is not a finite number");
  expectRefused("agent 0 nan 0\n", 1, "'nan' is not a finite number");
  expectRefused("agent inf 0 0\n", 1, "'inf' is not a finite number");
  expectRefused("agent 1e39 0 0\n", 1, "'1e39' is not a finite number");
  expectRefused("agent 2e6 0 0\n", 1, "position (2000000, 0, 0) is not finite or beyond");
  expectRefused("agent 0 0 0 radius -1\n", 1, "radius -1 is outside (0, 0.6]");
  expectRefused("agent 0 0 0 radius 0\n", 1, "radius 0 is outside");
  expectRefused("agent 0 0 0 radius 0.7\n", 1, "the crowd's MAXRADIUS");
  expectRefused("agent 0 0 0 height 0\n", 1, "height 0 is outside");
  expectRefused("agent 0 0 0 maxSpeed 1e5\n", 1, "maxSpeed 100000 is outside");
  expectRefused("agent 0 0 0 maxAccel -2\n", 1, "maxAccel -2 is outside");
  expectRefused("agent 0 0 0 separationWeight nan\n", 1, "separationWeight 'nan'");
  expectRefused("agent 0 0 0 updateFlags 0x20\n", 1, "updateFlags 32 is outside 0..31");
  expectRefused("agent 0 0 0 updateFlags 1.5\n", 1, "updateFlags '1.5' is not an integer");
  expectRefused("agent 0 0 0 avoidType 8\n", 1, "avoidType 8 is outside 0..7");
  expectRefused("agent 0 0 0 filterType 16\n", 1, "filterType 16 is outside 0..15");
  expectRefused("avoid 8 0.4 2 0.75 0.75 2.5 2.5 33 7 2 5\n", 1, "avoid IDX 8 is outside 0..7");
  expectRefused("avoid -1 0.4 2 0.75 0.75 2.5 2.5 33 7 2 5\n", 1, "avoid IDX -1 is outside 0..7");
  expectRefused("avoid 0 0.4 2 0.75 0.75 2.5 2.5 33 7 2\n", 1, "avoid takes 11 value(s), got 10");
  expectRefused("avoid 0 1.5 2 0.75 0.75 2.5 2.5 33 7 2 5\n", 1, "VELBIAS 1.5 is outside [0, 1]");
  expectRefused("avoid 0 0.4 2 0.75 0.75 2.5 0 33 7 2 5\n", 1, "HORIZ 0 is outside");
  expectRefused("avoid 0 0.4 2 0.75 0.75 2.5 2.5 0 7 2 5\n", 1, "GRID 0 is outside 1..255");
  expectRefused("avoid 0 0.4 2 0.75 0.75 2.5 2.5 33 33 2 5\n", 1, "DIVS 33 is outside 1..32");
  expectRefused("avoid 0 0.4 2 0.75 0.75 2.5 2.5 33 7 5 5\n", 1, "RINGS 5 is outside 1..4");
  expectRefused("avoid 0 0.4 2 0.75 0.75 2.5 2.5 33 7 2 17\n", 1, "DEPTH 17 is outside 0..16");
  expectRefused("agent 0 0 0\ntick 0 0.1\n", 2, "tick count N 0 is outside 1..");
  expectRefused("agent 0 0 0\ntick -3 0.1\n", 2, "tick count N -3 is outside");
  expectRefused("agent 0 0 0\ntick 1 0\n", 2, "tick DT 0 is outside (0, 10] seconds");
  expectRefused("agent 0 0 0\ntick 1 -0.1\n", 2, "tick DT -0.1 is outside");
  expectRefused("agent 0 0 0\ntick 1 11\n", 2, "tick DT 11 is outside");
  expectRefused("tick 1000000 0.1\ntick 1 0.1\n", 2, "more than 1000000 ticks in all");
  expectRefused("agent 0 0 0\ntarget 1 0 0 0\n", 2, "agent 1 does not exist (1 agent line(s) so far");
  expectRefused("remove 0\n", 1, "agent 0 does not exist (0 agent line(s)");
  expectRefused("agent 0 0 0\nreset -1\n", 2, "agent index -1 is outside");
  expectRefused("agent 0 0 0\nvelocity 0 1 0\n", 2, "velocity takes 4 value(s), got 3");
  expectRefused("agent 0 0 0\nvelocity 0 2e4 0 0\n", 2, "velocity (20000, 0, 0) is not finite or beyond +-10000");
  expectRefused("agent 0 0 0\ntarget 0 0 -3e6 0\n", 2, "target (0, -3000000, 0)");
  expectRefused("agent 0 0 0\ncrowd 16 0.6\n", 2, "crowd must come before every other command");
  expectRefused("crowd 16 0.6\ncrowd 16 0.6\n", 2, "a second crowd line");
  expectRefused("crowd 0 0.6\n", 1, "MAXAGENTS 0 is outside 1..4096");
  expectRefused("crowd 4097 0.6\n", 1, "MAXAGENTS 4097 is outside 1..4096");
  expectRefused("crowd 16 0\n", 1, "MAXRADIUS 0 is outside (0, 100]");
  expectRefused("crowd 16 inf\n", 1, "MAXRADIUS 'inf' is not a finite number");
  expectRefused("crowd 2 0.6\nagent 0 0 0\nagent 0 0 0\nagent 0 0 0\n", 4, "over MAXAGENTS 2");
  expectRefused("crowd 0x 0.6\n", 1, "MAXAGENTS '0x' is not an integer");
  expectRefused(std::string("agent 0 0 0\n") + std::string(5000, ' ') + "tick 1 0.1\n", 2, "line longer than 4096");
  expectRefused(std::string("agent 0 0 0\ntick 1 0.1\0x\n", 24), 2, "NUL byte");
}

TEST(ScenarioParse, RemovedSlotsCountAgainAndMissingFileIsNamed) {
  // Two at once at most: the third agent line fits because one was removed first.
  const Scenario s = parseOk("crowd 2 0.6\nagent 0 0 0\nagent 1 0 0\nremove 0\nagent 2 0 0\nremove 0\ntarget 0 1 1 1\n");
  EXPECT_EQ(s.agentCount, 3);
  Scenario t;
  std::string why;
  EXPECT_FALSE(loadScenarioFile("/nonexistent/x.crowd.txt", &t, &why));
  EXPECT_NE(why.find("/nonexistent/x.crowd.txt: cannot open"), std::string::npos) << why;
}

TEST(ScenarioParse, WriterRoundTrips) {
  const std::string text =
      "crowd 5 0.9\navoid 2 0.3 1.5 0.5 0.6 2 2.25 21 6 3 4\n"
      "agent 0.1 0.2 0.3 radius 0.7 updateFlags 0x3 avoidType 0 filterType 2\n"
      "agent 1.00000012 2 3 maxSpeed 2.75 collisionQueryRange 4 separationWeight 0\n"
      "target 0 1 2 3\nvelocity 1 -1 0 0.5\ntick 7 0.0333333351\nreset 1\nremove 0\nagent 5 5 5\ntick 1 0.1\n";
  const Scenario a = parseOk(text);
  std::string written, why;
  ASSERT_TRUE(writeScenario(a, &written, &why)) << why;
  const Scenario b = parseOk(written);
  // Subnormals and exact hex floats survive the trip too.
  const Scenario tiny = parseOk("agent 0x1p-149 1e-45 -0 maxSpeed 0x1.8p1\n");
  EXPECT_EQ(tiny.commands[0].v[0], 0x1p-149f);
  EXPECT_EQ(tiny.commands[0].agentParams.maxSpeed, 3.0f);
  std::string tinyText;
  ASSERT_TRUE(writeScenario(tiny, &tinyText, &why)) << why;
  const Scenario tiny2 = parseOk(tinyText);
  EXPECT_TRUE(sameBits(tiny.commands[0].v[0], tiny2.commands[0].v[0]));
  EXPECT_TRUE(sameBits(tiny.commands[0].v[1], tiny2.commands[0].v[1]));
  EXPECT_TRUE(sameBits(tiny.commands[0].v[2], tiny2.commands[0].v[2]));
  EXPECT_EQ(a.maxAgents, b.maxAgents);
  EXPECT_TRUE(sameBits(a.maxAgentRadius, b.maxAgentRadius));
  EXPECT_EQ(a.agentCount, b.agentCount);
  EXPECT_EQ(a.tickCount, b.tickCount);
  ASSERT_EQ(a.commands.size(), b.commands.size());
  for (size_t i = 0; i < a.commands.size(); ++i) {
    const ScenarioCommand& x = a.commands[i];
    const ScenarioCommand& y = b.commands[i];
    EXPECT_EQ(x.op, y.op) << i;
    EXPECT_EQ(x.agent, y.agent) << i;
    EXPECT_EQ(x.ticks, y.ticks) << i;
    EXPECT_TRUE(sameBits(x.dt, y.dt)) << i;
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(sameBits(x.v[k], y.v[k])) << i;
    EXPECT_TRUE(sameAgent(x.agentParams, y.agentParams)) << i;
    EXPECT_TRUE(sameAvoid(x.avoid, y.avoid)) << i;
  }
  // Written once more, the text is the same (a fixed point).
  std::string again;
  ASSERT_TRUE(writeScenario(b, &again, &why)) << why;
  EXPECT_EQ(written, again);
}

TEST(ScenarioParse, WriterRefusesWhatCouldNotBeReadBack) {
  Scenario s;
  ScenarioCommand c;
  c.op = ScenarioOp::Agent;
  c.v[1] = std::nanf("");
  s.commands.push_back(c);
  std::string text, why;
  EXPECT_FALSE(writeScenario(s, &text, &why));
  EXPECT_NE(why.find("position"), std::string::npos) << why;
  s.commands[0].v[1] = 0;
  s.commands[0].agentParams.obstacleAvoidanceType = 9;
  EXPECT_FALSE(writeScenario(s, &text, &why));
  EXPECT_NE(why.find("avoidType 9"), std::string::npos) << why;
  // Saving is atomic and names the file on failure.
  EXPECT_FALSE(saveScenarioFile(s, "/nonexistent/dir/x.crowd.txt", &why));
  EXPECT_NE(why.find("/nonexistent/dir/x.crowd.txt"), std::string::npos) << why;
}

} // namespace
