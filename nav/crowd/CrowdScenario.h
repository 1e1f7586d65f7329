// CrowdScenario.h: crowd scenario files (`.crowd.txt`, ../shared/formats/crowd.md): a plain text
// list of commands (init, avoidance presets, agents, move requests, removals, ticks) run in order
// on one navmesh. Parsed into a Scenario (every value checked here, once), written back as text.
//
// Parsing refuses a bad line with "FILE:LINE: problem" and returns false; nothing is run.
// Limits (refused beyond them, the limit named in the message) are the constants below.
// Standard library only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nav::crowd {

/// Hard limits of a scenario file.
constexpr int SCENARIO_MAX_AGENTS = 4096;          ///< `crowd MAXAGENTS` [Limit: 1..4096]
constexpr float SCENARIO_MAX_AGENT_RADIUS = 100.0f; ///< `crowd ... MAXRADIUS` [Limit: (0, 100] wu]
constexpr int SCENARIO_MAX_AGENT_LINES = 65536;     ///< `agent` lines in a file
constexpr int SCENARIO_MAX_COMMANDS = 1000000;      ///< command lines in a file
constexpr int SCENARIO_MAX_TICKS = 1000000;         ///< updates over the whole file (sum of tick N)
constexpr float SCENARIO_MAX_DT = 10.0f;            ///< `tick N DT` [Limit: (0, 10] s]
constexpr float SCENARIO_MAX_COORD = 1.0e6f;        ///< |x|, |y|, |z| of positions [wu]
constexpr float SCENARIO_MAX_VELOCITY = 1.0e4f;     ///< |component| of `velocity` [wu/s]
constexpr float SCENARIO_MAX_PARAM = 1.0e4f;        ///< agent speeds, accelerations, ranges, weights
constexpr size_t SCENARIO_MAX_FILE_BYTES = 64u << 20; ///< 64 MiB
constexpr size_t SCENARIO_MAX_LINE = 4096;          ///< characters per line
/// Agent types: `default` (the command line's mesh) and up to 15 `navmesh` lines.
constexpr int SCENARIO_MAX_NAV_TYPES = 16;
constexpr size_t SCENARIO_MAX_TYPE_NAME = 32;       ///< characters of a type NAME ([A-Za-z0-9_.-])
/// The agent type of an agent with no `type` key: the mesh the scenario is run on.
constexpr const char* SCENARIO_DEFAULT_TYPE = "default";

/// Avoidance preset slots (DetourCrowd's DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS).
constexpr int SCENARIO_AVOID_PRESETS = 8;
/// Query filter slots (DT_CROWD_MAX_QUERY_FILTER_TYPE).
constexpr int SCENARIO_FILTER_TYPES = 16;

/// Update flags (DetourCrowd's UpdateFlags).
enum ScenarioUpdateFlags : uint8_t {
  SCENARIO_ANTICIPATE_TURNS = 1,
  SCENARIO_OBSTACLE_AVOIDANCE = 2,
  SCENARIO_SEPARATION = 4,
  SCENARIO_OPTIMIZE_VIS = 8,
  SCENARIO_OPTIMIZE_TOPO = 16,
  SCENARIO_ALL_UPDATE_FLAGS = 31,
};

/// An agent's parameters as the file gives them; defaults are RecastDemo's CrowdTool with a 0.6 m
/// agent. collisionQueryRange / pathOptimizationRange default to radius x 12 / x 30 when the line
/// does not set them (applied by the parser; here they hold the 0.6 m agent's values).
struct ScenarioAgentParams {
  float radius = 0.6f;                 ///< [Limit: (0, crowd's MAXRADIUS]] [wu]
  float height = 2.0f;                 ///< [Limit: (0, 1e4]] [wu]
  float maxAcceleration = 8.0f;        ///< key maxAccel [Limit: [0, 1e4]] [wu/s^2]
  float maxSpeed = 3.5f;               ///< [Limit: [0, 1e4]] [wu/s]
  float collisionQueryRange = 0.6f * 12.0f;   ///< [Limit: (0, 1e4]] [wu]
  float pathOptimizationRange = 0.6f * 30.0f; ///< [Limit: (0, 1e4]] [wu]
  float separationWeight = 2.0f;       ///< [Limit: [0, 1e4]]
  uint8_t updateFlags = SCENARIO_ALL_UPDATE_FLAGS; ///< [Limit: 0..0x1f]
  uint8_t obstacleAvoidanceType = 3;   ///< key avoidType [Limit: 0..7]
  uint8_t queryFilterType = 0;         ///< key filterType [Limit: 0..15]
  /// key type NAME: 0 = `default`, k = the scenario's navTypes[k - 1] [Limit: < 1 + navTypes]
  uint8_t navType = 0;
  /// key priority [Limit: 0..255]: lower = more important (Crowd.h's avoidance priority)
  uint8_t avoidancePriority = 0;
};

/// A `navmesh NAME [PATH]` line: agent type NAME plans on the tile set PATH (relative to the
/// scenario file's folder unless absolute; empty: MESH.NAME.bin beside the run's MESH.bin).
struct ScenarioNavType {
  std::string name;
  std::string path;
  int line = 0;
};

/// One obstacle avoidance preset (DetourCrowd's dtObstacleAvoidanceParams); the defaults are
/// those dtCrowd::init gives all eight.
struct ScenarioAvoidParams {
  float velBias = 0.4f;       ///< [Limit: [0, 1]]
  float weightDesVel = 2.0f;  ///< [Limit: [0, 1e4]]
  float weightCurVel = 0.75f; ///< [Limit: [0, 1e4]]
  float weightSide = 0.75f;   ///< [Limit: [0, 1e4]]
  float weightToi = 2.5f;     ///< [Limit: [0, 1e4]]
  float horizTime = 2.5f;     ///< [Limit: (0, 1e4]] [s]
  uint8_t gridSize = 33;      ///< [Limit: 1..255]
  uint8_t adaptiveDivs = 7;   ///< [Limit: 1..32] (DetourCrowd's pattern size)
  uint8_t adaptiveRings = 2;  ///< [Limit: 1..4]
  uint8_t adaptiveDepth = 5;  ///< [Limit: 0..16]
};

/// The eight presets a scenario starts with: all as dtCrowd::init sets them, then 0..3 RecastDemo's
/// low / medium / good / high quality (velBias 0.5, divs / rings / depth 5/2/1, 5/2/2, 7/2/3, 7/3/3).
void defaultAvoidPresets(ScenarioAvoidParams out[SCENARIO_AVOID_PRESETS]);

enum class ScenarioOp : uint8_t { Crowd, Avoid, Agent, Target, Velocity, Reset, Remove, Tick };

/// One command line.
struct ScenarioCommand {
  ScenarioOp op = ScenarioOp::Tick;
  int line = 0;      ///< 1-based line in the file (0: built in memory)
  int agent = -1;    ///< Agent index (order of `agent` lines): agent (its own), target, velocity,
                     ///< reset, remove; avoid: the preset index 0..7.
  float v[3] = {0, 0, 0}; ///< agent / target: position; velocity: the velocity.
  int ticks = 0;     ///< tick: N
  float dt = 0;      ///< tick: DT [s]
  ScenarioAgentParams agentParams; ///< agent
  ScenarioAvoidParams avoid;       ///< avoid
};

/// A parsed scenario. `crowd` (if any) is not in `commands`: it sets maxAgents / maxAgentRadius.
struct Scenario {
  int maxAgents = 128;
  float maxAgentRadius = 0.6f;
  bool hasCrowdLine = false;  ///< The file had a `crowd` line (the writer always writes one).
  /// `navmesh` lines in order: agent types 1, 2, ... (type 0 is `default`). Empty: one type, and
  /// traces carry no type.
  std::vector<ScenarioNavType> navTypes;
  std::vector<ScenarioCommand> commands;
  int agentCount = 0;         ///< `agent` commands (indices 0 .. agentCount-1)
  int tickCount = 0;          ///< Sum of the tick commands' N: the trace's length.
};

/// Parses scenario text. `name` prefixes messages ("name:LINE: problem"). False with *why on the
/// first bad line; *out is then unspecified.
bool parseScenario(const std::string& text, const std::string& name, Scenario* out, std::string* why);
/// Reads and parses a file (at most SCENARIO_MAX_FILE_BYTES). Messages name the path.
bool loadScenarioFile(const std::string& path, Scenario* out, std::string* why);

/// The scenario as text that parses back to the same commands and values (floats with %.9g;
/// agent keys only where they differ from their defaults). Refused (false, *why) when a value is
/// out of the limits above, so what is written always reads back.
bool writeScenario(const Scenario& s, std::string* text, std::string* why);
/// writeScenario into a file, atomically.
bool saveScenarioFile(const Scenario& s, const std::string& path, std::string* why);

/// Checks one command against the limits (as the parser does); "" when valid. `agentsSoFar` is the
/// number of `agent` commands before it. Used by writeScenario and by code building scenarios.
/// navTypeCount: agent types the scenario declares (1 + its `navmesh` lines).
std::string checkScenarioCommand(const ScenarioCommand& c, int maxAgents, float maxAgentRadius, int agentsSoFar,
                                 int navTypeCount = 1);

/// The name of agent type t of s (`default` for 0), "" when out of range.
std::string scenarioTypeName(const Scenario& s, int t);
/// Where type t's tile set is: navTypes[t - 1].path against the scenario file's folder
/// (scenarioPath's), or MESH.NAME.bin beside meshPath (its `.bin` replaced) when the line has no
/// PATH; meshPath itself for t = 0.
std::string scenarioTypeMeshPath(const Scenario& s, int t, const std::string& scenarioPath, const std::string& meshPath);

} // namespace nav::crowd
