// Recovery.h: the recovery journal ("nothing lost", issue 26). While the open level has unsaved
// work, its scenario (app/Scenario.h: level, tile set, camera, the active tool's inputs, and the
// level edits not in the level file, `edits`) is kept on disk, written atomically
// (nav/base/AtomicFile.h) each time the edit history changes and when the viewer is stopped by a
// signal. Opening the level again offers to restore it; `navbench LEVEL --recover` restores it
// without asking. A save or a discard removes it.
//
// Where: one file per level, <dir>/<fnv1a64 of the level's absolute path, 16 hex digits>.json,
// with <dir> = $XDG_STATE_HOME/navbench/recovery, or ~/.local/state/navbench/recovery when
// XDG_STATE_HOME is unset. The level path is the one the user opened (level .json or .obj), as
// the scenario's "level" key holds it (absolute). The file is a scenario file: it opens with the
// scenario reader, so a broken or hostile journal is refused with a message naming the file and
// the problem, and nothing changes.
//
// No SDL, ImGui or GL here (navbench_core).
#pragma once

#include "app/Scenario.h"

#include <functional>
#include <string>

namespace navbench {

/// The journals' folder ("" when neither XDG_STATE_HOME nor HOME is set: no journal).
std::string recoveryDir();
/// The journal of the level at `levelPath` in `dir` (the path made absolute and normal first).
std::string recoveryPath(const std::string& dir, const std::string& levelPath);

class RecoveryJournal {
public:
  explicit RecoveryJournal(std::string dir = recoveryDir()) : m_dir(std::move(dir)) {}

  /// The level now open ("" = none, or a tile set alone: nothing is journaled). Forgets what this
  /// session wrote for the previous level (the file stays).
  void setLevel(const std::string& levelPath);
  const std::string& level() const { return m_level; }
  /// The journal file of the open level ("" = none).
  const std::string& path() const { return m_path; }
  bool exists() const;
  /// The file holds this session's work (written, or restored from it): removed once clean.
  bool owned() const { return m_owned; }

  /// Writes `s` (paths absolute) atomically, creating the folder. False + `why` (naming the file).
  bool write(const Scenario& s, std::string& why);
  /// Reads the journal with the scenario reader; refuses one written for another level. False +
  /// `why` naming the file; `out` unchanged then.
  bool read(Scenario& out, std::string& why) const;
  /// Removes the journal (no file is not an error). The session no longer owns it.
  bool remove(std::string& why);
  /// The session now holds what the journal held (restored): it is kept up to date and removed
  /// once clean.
  void adopt() { m_owned = true; }

  /// Once a frame (or every few): keeps the journal in step with the document. `dirty`: something
  /// unsaved (what the unsaved-changes prompt asks about); `signature`: text that changes with
  /// every edit of the history (cheap: no file I/O); `scenario`: the state to write, called only
  /// when writing. Dirty and a new signature: written. Clean and owned: removed. Returns false
  /// with `why` when a write or removal failed (tried again at the next change).
  bool update(bool dirty, const std::string& signature, const std::function<Scenario()>& scenario, std::string& why);
  /// Writes now when dirty (a signal: the state may have changed since the last write).
  bool flush(bool dirty, const std::function<Scenario()>& scenario, std::string& why);
  int writes() const { return m_writes; } ///< Journal writes so far (tests).

private:
  std::string m_dir, m_level, m_path;
  std::string m_signature; ///< Of the last write ("" = none since setLevel / remove).
  bool m_owned = false;
  int m_writes = 0;
};

} // namespace navbench
