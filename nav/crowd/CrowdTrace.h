// CrowdTrace.h: crowd traces (../shared/formats/crowd.md): one record per crowd update, the state
// of every agent of the scenario by its index (the order of its `agent` line). Written as JSONL
// (one object a line, floats with %.9g), compared by crowd.md's rule. Standard library only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nav::crowd {

/// One agent after an update. Inactive agents (removed, or never added) carry only i.
struct AgentRecord {
  int i = 0;            ///< The agent's index in the scenario.
  bool active = false;
  int state = 0;        ///< 0 invalid, 1 walking, 2 off-mesh.
  float pos[3] = {0, 0, 0};
  float vel[3] = {0, 0, 0};
  float dvel[3] = {0, 0, 0};
  float nvel[3] = {0, 0, 0};
  int targetState = 0;  ///< 0 none .. 6 velocity (DetourCrowd's MoveRequestState).
  int npath = 0;        ///< Corridor length.
  uint64_t path0 = 0;   ///< First corridor poly (0 when the corridor is empty).
  uint64_t pathN = 0;   ///< Last corridor poly.
  int ncorners = 0;
  int nneis = 0;
  /// The agent's type name, only when the scenario declares types (`navmesh` lines); "" otherwise
  /// (no "type" field in the trace). Compared as the other fields.
  std::string type;
};

/// The agents after one update (tick is 1-based).
struct TickRecord {
  int tick = 0;
  std::vector<AgentRecord> agents;
};

/// Absolute tolerance of pos / vel / dvel / nvel components (relative above 1).
constexpr float TRACE_FLOAT_TOLERANCE = 1e-4f;

/// Appends one JSONL line (with its '\n') for the record.
void appendTraceLine(const TickRecord& r, std::string* out);
/// The whole trace as JSONL.
std::string traceToJsonl(const std::vector<TickRecord>& trace);
/// Writes the trace to a file, atomically. False with *why naming the file.
bool saveTraceFile(const std::vector<TickRecord>& trace, const std::string& path, std::string* why);

/// True when a and b agree within TRACE_FLOAT_TOLERANCE (|a - b| <= tol * max(1, |a|, |b|)).
bool traceFloatsEqual(float a, float b);

/// Compares two traces by crowd.md's rule: tick by tick, agent by agent; active, state,
/// targetState, npath, path0, pathN, ncorners, nneis equal; pos, vel, dvel, nvel within the
/// tolerance. "" when identical, else the first difference: "tick T agent I: FIELD a vs b" (or a
/// count that differs). nameA / nameB label the two sides in the message.
std::string compareTraces(const std::vector<TickRecord>& a, const std::vector<TickRecord>& b,
                          const char* nameA = "a", const char* nameB = "b");
/// The same for one record (tick numbers included).
std::string compareTickRecords(const TickRecord& a, const TickRecord& b, const char* nameA = "a",
                               const char* nameB = "b");

} // namespace nav::crowd
