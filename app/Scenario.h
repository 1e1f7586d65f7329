// Scenario.h: everything needed to reproduce what the viewer shows, as a small JSON file (issue 7):
// the level and/or tile set, the bake settings hash, the camera, the active tool with its inputs
// and options (start/end as exact floats), the query filter and node budget, the draw toggles and
// a free-form note. Saved from File > Save scenario, copied as text, and embedded in screenshots
// (PNG text chunk kScenarioPngKeyword), so a bug report's PNG reopens the exact scenario.
//
//   {
//     "navbenchScenario": 1,                     // marker + format version (level files have none)
//     "level": "../assets/levels/default.json",  // relative to the scenario file when possible; "" = none
//     "navmesh": "../assets/levels/default.bin", // the tile set; "" = the level's own (.bin beside it, or baked)
//     "bakeSettingsHash": "fnv1a64:...",         // of the level file's bake settings; "" = unknown
//     "camera": {"target": [x, y, z], "yaw": r, "pitch": r, "distance": wu, "fovY": r},
//     "tool": {"name": "Pathfind Straight", "state": {...}},   // state: Tool::saveScenario
//     "filter": {"includeFlags": 15, "excludeFlags": 0, "heuristicScale": 0.999, "maxNodes": 4096,
//                "areas": [{"area": 1, "cost": 10.0, "enterCost": 0.0}, ...]},  // areas != (1, 0)
//     "navDraw": {...}, "view": {...},           // NavDrawOptions, ViewSettings fields by name
//     "note": "free text",
//     "edits": {...}, "check": {...},            // optional: level edits, the Check panel's state,
//     "why": {"visible": true},                  // optional: the Why panel shown
//     "capture": {"query": 3}                    // optional, with a path capture (.nbcap) navmesh: the selected query
//   }
//
// Floats are written exactly: each float is stored as the shortest decimal that reads back (as a
// double, then cast to float, which is what the parser does) to the same float, so save -> open ->
// save is byte-identical and every value round-trips bit for bit. Keys are sorted.
//
// No SDL, ImGui or GL here (navbench_core): parseScenario and scenarioFromPngText are pure
// functions of their input, fuzzed by tests/fuzz.
#pragma once

#include "app/NavDrawOptions.h"
#include "app/ViewSettings.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace navbench {

/// The format version written by this build; files with a higher version are refused.
constexpr int kScenarioVersion = 1;
/// The top-level key that marks a JSON file as a scenario (level files do not have it).
constexpr const char* kScenarioMarker = "navbenchScenario";
/// Keyword of the PNG text chunk (zTXt for long text) holding a scenario's JSON in screenshots.
constexpr const char* kScenarioPngKeyword = "navbench-scenario";
/// Largest scenario text accepted [Unit: bytes].
constexpr size_t kMaxScenarioBytes = 4u << 20;
/// Largest note accepted [Unit: bytes].
constexpr size_t kMaxScenarioNoteBytes = 64u << 10;

/// Plain camera fields (render::Camera's, which core cannot include).
struct ScenarioCamera {
  float target[3] = {0, 0, 0}; ///< [Unit: wu]
  float yaw = 0.6f;            ///< [Unit: rad], finite
  float pitch = 0.9f;          ///< [Unit: rad] [Limit: -1.55..1.55]
  float distance = 50;         ///< [Unit: wu] [Limit: > 0]
  float fovY = 0.785398185f;   ///< [Unit: rad] [Limit: 0.1..3]
};

/// One area whose costs differ from the QueryFilter constructor's (cost 1, entering cost 0).
struct ScenarioAreaCost {
  int area = 0;         ///< [Limit: 0..63]
  float cost = 1;       ///< [Limit: > 0, finite]
  float enterCost = 0;  ///< [Limit: >= 0, finite]
};

/// The query filter (nav::QueryFilter's plain fields) and the node budget.
struct ScenarioFilter {
  int includeFlags = 0xffff; ///< [Limit: 0..65535]
  int excludeFlags = 0;      ///< [Limit: 0..65535]
  float heuristicScale = 0.999f; ///< [Limit: 0..10]
  int maxNodes = 4096;       ///< [Limit: 1..65535]
  std::vector<ScenarioAreaCost> areas; ///< Sorted by area, each area at most once.
};

struct Scenario {
  int version = kScenarioVersion;
  std::string level;   ///< Level (.obj or level .json), relative to the scenario file or absolute; "" = none.
  std::string navmesh; ///< Tile set (.bin, .tcache or a path capture's .nbcap), relative or absolute; "" = none / the level's own.
  std::string bakeSettingsHash; ///< bakeSettingsHash() of the level file's settings; "" = unknown.
  ScenarioCamera camera;
  std::string toolName;                             ///< Tool::name() of the active tool.
  nlohmann::json toolState = nlohmann::json::object(); ///< What that tool's saveScenario() wrote.
  ScenarioFilter filter;
  /// The navmesh drawing toggles; `changes` is not saved (a view choice, kept when a scenario opens).
  NavDrawOptions navDraw;
  ViewSettings view;
  std::string note;
  /// Level edits not in the level file yet (LevelEditor::saveScenario: volumes, links, removed
  /// tiles, disabled polys), so a bug report made mid-edit reopens as seen; null = none. Checked
  /// in detail when applied (LevelEditor::loadScenario).
  nlohmann::json edits;
  /// The Check panel (CheckModel::saveScenario: options, selected finding, heatmap, shown); null =
  /// none. Checked when applied (CheckModel::loadScenario); the checks re-run (deterministic).
  nlohmann::json check;
  /// The Why panel (WhyModel::saveScenario: {"visible": bool}); null = hidden.
  nlohmann::json why;
  /// The Agents panel (AgentSet::saveScenario: active agent, compare / reach toggles); null = the
  /// level has one agent type.
  nlohmann::json agents;
  /// With a path capture (.nbcap) navmesh: its selected query (the Captured queries panel's row,
  /// from 0); -1 = none. Checked against the capture's query count when applied.
  int captureQuery = -1;
};

/// The scenario as JSON text (sorted keys, 2-space indent, exact floats, trailing newline).
std::string toJson(const Scenario& s);
/// Parses and validates scenario JSON text. On failure returns false, leaves `out` unchanged and
/// sets `error` to the problem, naming the JSON path ("camera.distance: must be in (0, 1e+09], got -1";
/// nav/base/Json.h's messages).
bool parseScenario(const std::string& text, Scenario& out, std::string& error);
/// True when `text` is a JSON object with the kScenarioMarker key (a scenario, not a level file).
bool looksLikeScenario(const std::string& text);

/// Reads a scenario .json file. Errors name the file ("bug.json: camera.yaw: ...").
bool loadScenarioFile(const std::string& path, Scenario& out, std::string& error);
/// Writes toJson(s) to `path` atomically (temp file + rename). Errors name the file.
bool saveScenarioFile(const std::string& path, const Scenario& s, std::string& error);

/// A PNG's text chunks (keyword, text) -> the scenario in its kScenarioPngKeyword chunk. Errors:
/// no such chunk, or parseScenario's message prefixed with the keyword.
bool scenarioFromPngText(const std::vector<std::pair<std::string, std::string>>& text, Scenario& out, std::string& error);

/// The JSON value written for a float: the shortest decimal that reads back to exactly `f`
/// (nav/base/Json.h, the one writer of exact floats).
using base::exactFloat;
using base::exactVec3;

/// A stable hash of a bake settings text (nav::bake::settingsToJson): "fnv1a64:<16 hex digits>".
std::string bakeSettingsHash(const std::string& settingsJson);

/// `path` relative to directory `baseDir` when both are on the same root (lexically, generic
/// '/' separators), else absolute. "" stays "".
std::string relativeTo(const std::string& baseDir, const std::string& path);
/// A path from a scenario saved in `baseDir`: absolute paths as they are, relative ones joined
/// to baseDir (lexically normalised). "" stays "".
std::string resolveFrom(const std::string& baseDir, const std::string& path);

} // namespace navbench
