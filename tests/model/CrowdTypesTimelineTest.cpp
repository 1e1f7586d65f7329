// The crowd timeline (app/model/CrowdTimeline.h) with two agent types, without a window: small
// agents on one navmesh and a big one on another (tests/crowd/CorridorWorld.h) in one crowd; a step
// back and forward gives the state of going straight there, bit for bit; the history keeps the
// types (its .crowd.txt names them); the Crowd model's new agents take the chosen type.
#include "app/model/CrowdModel.h"
#include "nav/crowd/CrowdScenario.h"
#include "tests/crowd/CorridorWorld.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using navbench::CrowdTimeline;
using namespace nav::crowd;

struct TwoMeshes {
  std::unique_ptr<nav::NavMesh> small = crowdtest::corridorWorld(0.3f), big = crowdtest::corridorWorld(0.9f);
  const nav::NavMesh* list[2] = {small.get(), big.get()};
};

TwoMeshes& meshes() {
  static TwoMeshes m;
  return m;
}

// Two small agents cross left to right, one big agent (priority 1: it gives way) right to left.
const char* const kCrossing = "crowd 8 0.9\n"
                              "navmesh big\n"
                              "agent 3 0 5 radius 0.3 maxSpeed 3\n"
                              "agent 3 0 7 radius 0.3 maxSpeed 3\n"
                              "agent 27 0 6 type big radius 0.9 maxSpeed 2.5 priority 1\n"
                              "target 0 29 0 5\n"
                              "target 1 29 0 7\n"
                              "target 2 3 0 6\n"
                              "tick 240 0.05\n";

/// Every agent's kinematic and path state as bits.
std::vector<uint32_t> agentBits(const CrowdTimeline& tl) {
  std::vector<uint32_t> out;
  out.push_back(uint32_t(tl.tick()));
  for (int i = 0; i < tl.agentsSeen(); ++i) {
    const CrowdAgent* ag = tl.agent(i);
    out.push_back(ag ? 1u : 0u);
    if (!ag) continue;
    out.push_back(uint32_t(ag->params.navType));
    out.push_back(uint32_t(ag->targetState));
    out.push_back(uint32_t(ag->corridor.getPathCount()));
    for (int k = 0; k < ag->corridor.getPathCount(); ++k) out.push_back(uint32_t(ag->corridor.getPath()[k]));
    out.push_back(uint32_t(ag->nneis));
    for (const float* v : {ag->npos, ag->vel, ag->dvel, ag->nvel})
      for (int k = 0; k < 3; ++k) {
        uint32_t b = 0;
        std::memcpy(&b, &v[k], 4);
        out.push_back(b);
      }
  }
  return out;
}

bool adoptCrossing(CrowdTimeline& tl, std::string* why) {
  Scenario parsed, full;
  int ticks = 0;
  if (!parseScenario(kCrossing, "crossing", &parsed, why) || !CrowdTimeline::expand(parsed, &full, &ticks, why))
    return false;
  tl.adopt(std::move(full), ticks);
  return true;
}

} // namespace

TEST(CrowdTypesTimeline, StepBackAndForwardEqualGoingStraightThere) {
  CrowdTimeline tl;
  std::string why;
  ASSERT_TRUE(adoptCrossing(tl, &why)) << why;
  EXPECT_EQ(tl.agentTypeCount(), 2);
  // One mesh for a history of two types: refused, detached.
  EXPECT_FALSE(tl.attach(meshes().list[0], &why));
  EXPECT_NE(why.find("2 agent types, the crowd 1 navmesh"), std::string::npos) << why;
  EXPECT_FALSE(tl.attached());

  ASSERT_TRUE(tl.attach(meshes().list, 2, &why)) << why;
  ASSERT_EQ(tl.crowd()->getNavTypeCount(), 2);
  std::vector<std::vector<uint32_t>> straight{agentBits(tl)};
  for (int t = 1; t <= tl.totalTicks(); ++t) {
    ASSERT_TRUE(tl.advance(0.05f, &why)) << why;
    straight.push_back(agentBits(tl));
  }
  ASSERT_EQ(tl.tick(), 240);
  // The big agent plans on its own mesh; the small ones reached the right room.
  EXPECT_EQ(tl.agent(2)->params.navType, 1);
  EXPECT_GT(tl.agent(0)->npos[0], 25.0f);
  EXPECT_GT(tl.agent(1)->npos[0], 25.0f);
  EXPECT_LT(tl.agent(2)->npos[0], 12.0f) << "the big agent crossed too";

  // Back one tick at a time through the crossing, then forward again.
  for (int t = 239; t >= 60; --t) {
    tl.goTo(t, 0.05f);
    ASSERT_EQ(agentBits(tl), straight[size_t(t)]) << "step back to tick " << t;
  }
  for (int t = 61; t <= 240; ++t) {
    tl.goTo(t, 0.05f);
    ASSERT_EQ(agentBits(tl), straight[size_t(t)]) << "step forward to tick " << t;
  }

  // The history keeps its types: written, it names them.
  std::string text;
  ASSERT_TRUE(writeScenario(tl.compact(), &text, &why)) << why;
  EXPECT_NE(text.find("navmesh big\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" type big"), std::string::npos) << text;
}

TEST(CrowdTypesTimeline, AgentTypesAndTheModelsNewAgents) {
  navbench::CrowdModel m;
  CrowdTimeline& tl = m.timeline();
  std::string why;
  EXPECT_FALSE(tl.setAgentTypes({"default"}, &why));
  EXPECT_FALSE(tl.setAgentTypes({"dog", "dog"}, &why));
  EXPECT_NE(why.find("declared twice"), std::string::npos) << why;
  ASSERT_TRUE(tl.setAgentTypes({"big"}, &why)) << why;
  ASSERT_TRUE(tl.attach(meshes().list, 2, &why)) << why;
  EXPECT_EQ(tl.agentTypeCount(), 2);

  // New agents take the chosen type, priority and radius (clamped to the crowd's types / radius).
  m.options.agentType = 1;
  m.options.priority = 3;
  m.options.radius = 0.3f;
  ScenarioAgentParams p = m.agentParams();
  EXPECT_EQ(p.navType, 1);
  EXPECT_EQ(p.avoidancePriority, 3);
  EXPECT_FLOAT_EQ(p.radius, 0.3f);
  EXPECT_FLOAT_EQ(p.collisionQueryRange, 0.3f * 12.0f);
  m.options.agentType = 7;
  m.options.radius = 50.0f;
  p = m.agentParams();
  EXPECT_EQ(p.navType, 1);
  EXPECT_FLOAT_EQ(p.radius, tl.history().maxAgentRadius);

  // An agent of type big is placed on the big mesh: 1.9 m off the corridor's centre line is beyond
  // the crowd's extents (1.2 m: MAXRADIUS 0.6) of the big agents' corridor (1.3 m away) but within
  // them of the small agents' (0.7 m away).
  ScenarioCommand c;
  c.op = ScenarioOp::Agent;
  c.v[0] = 16;
  c.v[2] = 7.9f;
  c.agentParams = p;
  EXPECT_FALSE(tl.issue({c}, &why)) << "placed on the small agents' corridor";
  EXPECT_NE(why.find("no navmesh polygon"), std::string::npos) << why;
  c.agentParams.navType = 0;
  c.agentParams.radius = 0.3f;
  EXPECT_TRUE(tl.issue({c}, &why)) << why;
  // Types are fixed once agents exist.
  EXPECT_FALSE(tl.setAgentTypes({"big", "dog"}, &why));
}
