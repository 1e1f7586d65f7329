// EditPrune.h: the Prune tool's model (RecastDemo's NavMeshPruneTool, issue 19; its view is
// app/tools/ToolPrune.cpp). From a clicked poly, every poly reachable is found by a flood over the
// navmesh links (internal, tile-border and off-mesh connection links, followed in their
// direction, so a one-way link leads only one way) through the polys the query filter passes; the
// rest is unreachable. apply() sets nav::FLAG_DISABLED on the unreachable polys
// (LevelEditor::setDisabled: undoable, kept across rebakes); enableAll() clears it everywhere;
// setRemoveOnSave() leaves disabled polys out of the saved navmesh (LevelEditor::setRemoveOnSave).
//
// Bad input changes nothing and says why in the message and the log: a click with no navmesh poly
// under it, apply with nothing to prune, an edit LevelEditor refuses.
#pragma once

#include "app/model/EditMessage.h"
#include "nav/NavTypes.h"

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace navbench {

class EditPrune {
public:
  void init(const EditContext& ctx) { m_ctx = ctx; }

  void reset();
  /// A click on the level at `hit`: flood from the navmesh poly nearest it.
  void click(const glm::vec3& hit);
  /// A click on the 3D view was released (`hoverHit` false: nothing under it): a click on the sky
  /// never reaches click(), so it is said here.
  void clickReleased(bool hoverHit);
  /// The navmesh or the filter changed: flood again from the same point (refs of rebaked tiles
  /// change).
  void refresh();
  bool apply();
  bool enableAll();
  bool save();
  bool setRemoveOnSave(bool on);
  bool removeOnSave() const;

  bool hasStart() const { return m_hasStart; }
  const glm::vec3& start() const { return m_start; }
  const std::vector<nav::PolyRef>& reachable() const { return m_reachable; }
  const std::vector<nav::PolyRef>& unreachable() const { return m_unreachable; }
  /// Polys carrying FLAG_DISABLED (their refs into `out` when given).
  int countDisabled(std::vector<nav::PolyRef>* out) const;
  EditMessage message;

  void dumpState(nlohmann::json& out) const;

private:
  void flood();
  void fail(const std::string& msg) { message.fail(m_ctx.log, msg, "Prune: "); }
  bool outcome(const char* what, const std::string& err, const std::string& ok) {
    return message.outcome(m_ctx.log, "Prune: ", what, err, ok);
  }
  EditContext m_ctx;
  bool m_hasStart = false;
  glm::vec3 m_start{0.0f};
  nav::PolyRef m_startRef = 0;
  std::vector<nav::PolyRef> m_reachable, m_unreachable;
  bool m_clickSeen = false;
};

} // namespace navbench
