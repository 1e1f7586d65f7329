// Tool.h: the interface of a viewer tool (a tester mode: picking, path finding, raycast...).
//
// One click, as data: the app turns a mouse click on the 3D view (ignored while ImGui wants the
// mouse) into a camera ray, intersects it with the level (Level::raycast: the first surface drawn,
// front sides only unless View > Two-sided level is on), and calls the active
// tool's onClick(rayStart, hitPos, shift). Every frame the app then calls update(dt), draw(dd) to
// fill debug-draw batches (flushed by the app after the level is drawn) and drawUi() inside the
// tool panel. step() is the "advance one step" action (a Step button / the Space key), for tools
// that iterate (sliced path search, path following).
//
// Tools own their result buffers. They reach app state only through the ToolContext given at
// init(): models (app/model/), never panels.
#pragma once

#include "app/model/History.h"

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>

namespace render {
class DebugDraw;
}

namespace navbench {

class AgentSet;
class BakeRunner;
class HierSearch;
class Level;
class LevelEditor;
class Log;
class Tool;
class NavState;
struct ViewSettings;

/// What a tool may use from the app. Pointers stay valid from init() until the tool is destroyed;
/// the objects they point to may change contents (e.g. a new level is opened: onLevelChanged()).
struct ToolContext {
  const Level* level = nullptr;
  Log* log = nullptr;
  NavState* nav = nullptr; ///< The open navmesh (nav->loaded() false when none).
  /// The level point under the mouse this frame, when *hoverHit (false: nothing under the cursor,
  /// or ImGui has the mouse). Set by the app; null where there is no app (tests).
  const glm::vec3* hoverPos = nullptr;
  const bool* hoverHit = nullptr;
  /// The view settings (twoSidedLevel: which sides of the level a ray hits, as the app picks);
  /// null where there is no app (tests): front sides only.
  const ViewSettings* view = nullptr;
  /// The level's editor (convex volumes, off-mesh links, tiles, pruning; app/model/LevelEditor.h);
  /// null where there is no app (tests).
  LevelEditor* editor = nullptr;
  /// The app's one undo history (app/model/History.h): Ctrl+Z / Ctrl+Y undo edits and start / end
  /// changes in the order they were made. Null where there is no app.
  History* history = nullptr;
  /// A tool calls this after it recorded an input change in its own undo list: the tool becomes
  /// the history's latest step (history->push(tool)). May be empty.
  std::function<void(const Tool*)> inputChanged;
  /// The bake runner: with no navmesh open the tools offer its bake (drawNoNavmesh,
  /// app/tools/BakeButtonUi.h). Null where there is no app (tests).
  BakeRunner* bake = nullptr;
  /// The open navmesh's hierarchical planner (app/model/HierSearch.h), shared by the path modes
  /// and the A* Stepper. Null where there is no app (tests): each model builds its own.
  HierSearch* hier = nullptr;
  /// The level's agent types (app/model/AgentSet.h; disabled without them): the Crowd tool's
  /// agents take the active type. Null where there is no app (tests).
  AgentSet* agents = nullptr;
};

/// A tool is a HistoryClient: a tool that records input changes keeps them in its own undo list
/// and undoes / redoes the latest when the history says so (Tester: start / end).
class Tool : public HistoryClient {
public:
  ~Tool() override = default;

  /// Short name for the tool list ("Pick", "Path find"...).
  virtual const char* name() const = 0;
  /// The Tools panel lists these two to a row (the edit and simulation tools after the one-a-row
  /// query modes), so the list leaves room for a tool's panel at 1280x720.
  virtual bool pairedInList() const { return false; }
  /// Called once, before any other call.
  virtual void init(ToolContext& ctx) { m_ctx = &ctx; }
  /// Forget all results (the user pressed Reset, or the tool was switched off).
  virtual void reset() {}
  /// A click on the level: `rayStart` is the camera ray origin, `hitPos` the picked point
  /// [Unit: wu]; `shift` is true when Shift was held (tools use it for a second point).
  virtual void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) = 0;
  /// A left-button press on the level at `hitPos`: true = the tool takes the drag that may follow
  /// (the camera does not rotate): dragTo() as the mouse moves over the level, dragEnd() at the
  /// release (`hit` false: not over the level), which is then not a click. Default: not taken.
  virtual bool dragBegin(const glm::vec3& /*hitPos*/, bool /*shift*/) { return false; }
  virtual void dragTo(const glm::vec3& /*hitPos*/) {}
  virtual void dragEnd(const glm::vec3& /*hitPos*/, bool /*hit*/) {}
  /// A right click (no drag) on the level; default: a Shift+click (the testers' start point, as
  /// RecastDemo's input). The Crowd tool sets move targets with it.
  virtual void onRightClick(const glm::vec3& rayStart, const glm::vec3& hitPos) { onClick(rayStart, hitPos, true); }
  /// Advance one step (for tools that iterate); default: nothing.
  virtual void step() {}
  /// Per-frame update with the frame time in seconds.
  virtual void update(float /*dt*/) {}
  /// The tool's controls and readouts, inside the tool panel (ImGui calls only).
  virtual void drawUi() {}
  /// Fill debug-draw batches for the 3D view (no GL calls).
  virtual void draw(render::DebugDraw& /*dd*/) {}
  /// The level (or later the nav mesh) was replaced; drop what refers to the old one.
  virtual void onLevelChanged() { reset(); }
  /// The query filter or node budget changed: recompute results with it.
  virtual void onFilterChanged() {}
  /// Undo / redo the last input change (the history's Ctrl+Z / Ctrl+Y); default: nothing.
  void undo() override {}
  void redo() override {}
  /// The tool's inputs and results as JSON (for --dump-state and tests).
  virtual void dumpState(nlohmann::json& /*out*/) const {}
  /// Show the exact shortest path (nav::ShortestPath) next to the mode's own path, for the modes
  /// that have one (Pathfind Straight / Follow; --shortest); default: nothing.
  virtual void setShowShortest(bool /*on*/) {}
  /// Scenario files (app/Scenario.h): the tool's inputs and options (start/end as exact floats,
  /// mode options, stepper index...) as JSON. Keys are stable: a scenario saved, opened and saved
  /// again must be byte-identical. Default: nothing to save.
  virtual void saveScenario(nlohmann::json& /*out*/) const {}
  /// Restores what saveScenario() wrote and recomputes the results. On a bad value returns false
  /// with a message naming the key and the problem, and leaves the tool unchanged.
  virtual bool loadScenario(const nlohmann::json& /*in*/, std::string& /*error*/) { return true; }

protected:
  ToolContext* m_ctx = nullptr;
};

} // namespace navbench
