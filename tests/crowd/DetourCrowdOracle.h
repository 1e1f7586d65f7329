// DetourCrowdOracle.h: the oracle side of the crowd trace tests and benchmarks. Debian's
// DetourCrowd 1.5.1 as a nav::crowd::ScenarioRunner adapter (nav/crowd/CrowdRunner.h), the levels
// the tests run on (baked once, loaded into both Detour and nav from the same tile blobs:
// tests/query/DualMesh.h), and a seeded generator of crowd scenarios.
#pragma once

#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"

#include "DualMesh.h"

#include <DetourCrowd.h>
#include <DetourNavMeshQuery.h>

#include <cstdint>
#include <string>
#include <vector>

namespace crowdtest {

/// dtCrowd as a ScenarioRunner adapter (see nav/crowd/CrowdRunner.h for the contract).
class DetourCrowdAdapter {
public:
  explicit DetourCrowdAdapter(dtNavMesh* mesh) : m_mesh(mesh) {}
  ~DetourCrowdAdapter();
  DetourCrowdAdapter(const DetourCrowdAdapter&) = delete;
  DetourCrowdAdapter& operator=(const DetourCrowdAdapter&) = delete;

  bool init(int maxAgents, float maxAgentRadius);
  void setAvoidance(int idx, const nav::crowd::ScenarioAvoidParams& p);
  const float* halfExtents() const { return m_crowd->getQueryHalfExtents(); }
  bool findNearest(const float* pos, int filterType, uint64_t* ref, float* nearest) const;
  /// dtCrowd has one mesh: agent type 0 only.
  int navTypeCount() const { return 1; }
  bool findNearest(const float* pos, int navType, int filterType, uint64_t* ref, float* nearest) const {
    if (navType != 0) return false;
    return findNearest(pos, filterType, ref, nearest);
  }
  int addAgent(const float* pos, const nav::crowd::ScenarioAgentParams& p);
  void removeAgent(int slot) { m_crowd->removeAgent(slot); }
  bool requestMoveTarget(int slot, uint64_t ref, const float* pos) {
    return m_crowd->requestMoveTarget(slot, dtPolyRef(ref), pos);
  }
  bool requestMoveVelocity(int slot, const float* vel) { return m_crowd->requestMoveVelocity(slot, vel); }
  bool resetMoveTarget(int slot) { return m_crowd->resetMoveTarget(slot); }
  void update(float dt) { m_crowd->update(dt, nullptr); }
  void record(int slot, nav::crowd::AgentRecord* r) const;

  dtCrowd* crowd() { return m_crowd; }

private:
  dtNavMesh* m_mesh;
  dtCrowd* m_crowd = nullptr;
};

/// A level both crowds run on (cached for the process): the project's default level, a generated
/// world, or a ../shared level. null (and *why) when it cannot be made; *why starts with
/// "SKIP: " when the file is simply absent (../shared not present).
/// offMesh: with DualMesh's 24 random off-mesh links (and random areas / flags).
const querytest::DualMesh* defaultLevel(bool tiled, bool offMesh, std::string* why);
const querytest::DualMesh* sharedLevel(const char* obj, bool tiled, bool offMesh, std::string* why);
/// A generated world (app/cli/WorldGen.h) of `size` metres, baked tiled.
const querytest::DualMesh* generatedWorld(float size, uint64_t seed, std::string* why);

/// What a generated scenario exercises.
struct GenOptions {
  uint64_t seed = 1;
  int agents = 16;            ///< agent lines at the start [1..]
  int rounds = 4;             ///< rounds of (commands, tick chunk)
  int ticksPerRound = 20;
  int flagBase = -1;          ///< updateFlags of agent i = (flagBase + i) % 32; -1: random
  bool changes = true;        ///< retargets, velocity requests, resets, removals, new agents (slot reuse)
  bool offMeshAgents = true;  ///< some agents start at off-mesh link ends, targeting the other end
  bool avoidLines = true;     ///< random `avoid` presets
  bool unplaceable = true;    ///< an agent far above the mesh (not added) and commands naming it
};

/// A seeded random scenario on the mesh (positions from nav's findRandomPoint).
nav::crowd::Scenario generateScenario(const querytest::DualMesh& mesh, const GenOptions& o);

/// The first field whose bits differ (dvel, nvel, vel, pos order per agent; ints first), or "".
std::string firstBitDifference(const nav::crowd::TickRecord& a, const nav::crowd::TickRecord& b);

/// Runs the scenario on both crowds; "" when the traces are identical (crowd.md), else the first
/// difference (with the first bitwise difference, which may come earlier). traces (optional): [0] ours, [1] DetourCrowd's.
std::string runBoth(const querytest::DualMesh& mesh, const nav::crowd::Scenario& s,
                    std::vector<nav::crowd::TickRecord>* ours = nullptr,
                    std::vector<nav::crowd::TickRecord>* theirs = nullptr);

} // namespace crowdtest
