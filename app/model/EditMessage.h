// EditMessage.h: what the edit tools' models share: the last outcome of an edit tool, shown in
// its panel and dumped by --dump-state ("message", "messageIsError": what was done, or why an
// action was refused, also logged), and an area's label.
#pragma once

#include "app/Log.h"
#include "nav/NavAreas.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace navbench {

class LevelEditor;
class NavState;

/// What an edit tool's model works on (null where there is none: a view without an app).
struct EditContext {
  LevelEditor* editor = nullptr;
  NavState* nav = nullptr;
  Log* log = nullptr;
};

/// The item a tool has selected in one of the editor's lists, followed by value: an undo / redo
/// (or another edit) may move it in the list or drop it (index -1).
template <class T>
struct EditSelection {
  int index = -1;
  T value; ///< Its value when selected (or last edited here).
  void follow(const std::vector<T>& list, bool (*same)(const T&, const T&)) {
    if (index < 0 || (index < int(list.size()) && same(list[size_t(index)], value))) return;
    index = -1;
    for (size_t i = 0; i < list.size() && index < 0; ++i)
      if (same(list[i], value)) index = int(i);
  }
};

/// An area by name ("water") or number ("7").
inline std::string areaLabel(uint8_t area) {
  const char* n = nav::areaName(area);
  return n ? std::string(n) : std::to_string(int(area));
}

struct EditMessage {
  std::string text;
  bool error = false;

  /// What was done (not logged: the editor logs its edits itself).
  void done(const std::string& t) {
    text = t;
    error = false;
  }
  /// A refused action: shown as `t`, logged (when `log` is given) as `logPrefix` + `t`.
  void fail(Log* log, const std::string& t, const std::string& logPrefix = std::string()) {
    text = t;
    error = true;
    if (log) log->error(logPrefix + t);
  }
  void clear() {
    text.clear();
    error = false;
  }
  /// The end of an action: `err` empty: done(ok) and true; else fail(log, what + ": " + err).
  bool outcome(Log* log, const std::string& logPrefix, const std::string& what, const std::string& err, const std::string& ok) {
    if (err.empty()) {
      done(ok);
      return true;
    }
    fail(log, what + ": " + err, logPrefix);
    return false;
  }
  void dump(nlohmann::json& out) const {
    out["message"] = text;
    out["messageIsError"] = error;
  }
};

} // namespace navbench
