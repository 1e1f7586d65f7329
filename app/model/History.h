// History.h: the viewer's one undo history (Ctrl+Z / Ctrl+Y). Each step names the client that
// made it; the client keeps the step's data in its own list and undoes / redoes its latest step
// when the history says so: the level editor's edits (volumes, links, tiles removed, polys
// disabled: app/model/LevelEditor.h) and the tools' input changes (a tester's start / end, an
// obstacle). So one Ctrl+Z undoes whatever was done last, whichever tool did it.
//
// version() grows by one on every push, undo, redo, noteChange() and reset() and never goes back, so a
// journal (the recovery file) knows when what it wrote is stale; onChange is called after each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace navbench {

/// Something whose changes are steps of the history. It keeps each step's data itself, in the
/// order it pushed them; the history calls undo() for its latest done step and redo() for its
/// latest undone one (the history's order and the client's agree: a client pushes one step per
/// change it records, and drops its redo list when it pushes).
class HistoryClient {
public:
  virtual ~HistoryClient() = default;
  virtual void undo() = 0;
  virtual void redo() = 0;
};

/// Moves the last element of `from` to the end of `to`, passing it to `use` on the way (a step
/// undone or redone); false when `from` is empty.
template <class T, class Use>
bool moveLast(std::vector<T>& from, std::vector<T>& to, Use&& use) {
  if (from.empty()) return false;
  T s = std::move(from.back());
  from.pop_back();
  use(s);
  to.push_back(std::move(s));
  return true;
}

class History {
public:
  /// What the history last did (for onChange).
  enum class Change { Push, Undo, Redo, Note, Reset };
  /// At most this many steps are kept to undo (the oldest are forgotten).
  static constexpr size_t kMaxSteps = 512;

  /// `client` recorded a change (its new latest step): it becomes the step to undo, and the steps
  /// undone before are forgotten. `what` names it in the log and in the Edit menu ("added volume
  /// 3"); "" for the tools' input steps, which are not logged.
  void push(HistoryClient* client, std::string what = std::string());
  bool canUndo() const { return !m_done.empty(); }
  bool canRedo() const { return !m_undone.empty(); }
  /// The latest done step's client undoes it; false when there is none.
  bool undo();
  /// The latest undone step's client does it again; false when there is none.
  bool redo();
  /// Names of the step undo() / redo() would take ("" for input steps and when there is none).
  const std::string& undoName() const;
  const std::string& redoName() const;
  size_t undoCount() const { return m_done.size(); }
  size_t redoCount() const { return m_undone.size(); }
  /// A change that is no step (it cannot be undone, e.g. a tile rebuilt from the level) but
  /// changes what a journal writes: the version grows.
  void noteChange();
  /// A new level or navmesh is open: every step is forgotten (the version still grows).
  void reset();
  /// Forget the steps of `client` (it is going away); other steps are kept.
  void forget(const HistoryClient* client);

  /// Grows by one on every push, undo, redo, noteChange and reset; starts at 0.
  uint64_t version() const { return m_version; }
  /// Called after every change, with what happened (the version has grown already).
  std::function<void(Change)> onChange;

private:
  struct Step {
    HistoryClient* client = nullptr;
    std::string what;
  };
  void changed(Change c);
  /// Moves the latest step of `from` to `to`, its client undoing (or, `forward`, redoing) it.
  bool replay(std::vector<Step>& from, std::vector<Step>& to, bool forward);
  std::vector<Step> m_done, m_undone;
  uint64_t m_version = 0;
};

} // namespace navbench
