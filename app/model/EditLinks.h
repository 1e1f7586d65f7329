// EditLinks.h: the Off-Mesh Link tool's model (RecastDemo's OffMeshConnectionTool; its view is
// app/tools/ToolOffMeshLinks.cpp). A click sets the start, the next click the end: a link with
// the options of `next` (direction, end radius, area, flags) is added. A click near an end of a
// link (with no start set, and without Shift) selects it for editing or deletion. Edits go
// through LevelEditor (ends over the navmesh, length within the bake's reach; re-baked in the
// background, undoable); a refused one sets the message (and the log) and changes nothing.
#pragma once

#include "app/model/EditMessage.h"
#include "nav/bake/Bake.h"

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>

namespace navbench {

class EditLinks {
public:
  void init(const EditContext& ctx) { m_ctx = ctx; }
  LevelEditor* editor() const { return m_ctx.editor; }

  void reset();
  /// A click on the level at `hit` seen from `rayStart` (a link end is picked within its radius or
  /// a few pixels: a share of the view distance) [Unit: wu].
  void click(const glm::vec3& rayStart, const glm::vec3& hit, bool shift);
  /// Drops the start and the selection (Esc).
  void clear();
  void select(int index); ///< -1: none.
  bool applySelected(const nav::bake::OffMeshLink& l, const char* what);
  bool removeSelected();
  /// An undo / redo may have changed the list: follow the selected link, or drop the selection.
  void syncSelection();
  /// The link with an end nearest `p` within max(its radius, pickRadius), or -1.
  int linkNear(const glm::vec3& p, float pickRadius) const;
  /// The xz length a link from the start to `end` would have, and whether the bake connects it.
  bool tooLong(const glm::vec3& end) const;

  bool hasStart() const { return m_hasStart; }
  const glm::vec3& start() const { return m_start; }
  int selected() const { return m_sel.index; }
  const nav::bake::OffMeshLink& selectedLink() const { return m_sel.value; }

  nav::bake::OffMeshLink next;     ///< The options of the next link (its ends unused).
  nav::bake::OffMeshLink editLink; ///< The panel's fields for the selected link (a radius being typed).
  EditMessage message;

  void dumpState(nlohmann::json& out) const;

private:
  void fail(const std::string& why);
  EditContext m_ctx;
  bool m_hasStart = false;
  glm::vec3 m_start{0.0f};
  EditSelection<nav::bake::OffMeshLink> m_sel;
};

} // namespace navbench
