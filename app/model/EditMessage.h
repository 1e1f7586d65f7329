// EditMessage.h: what the edit tools' models share: the last outcome of an edit tool, shown in
// its panel and dumped by --dump-state ("message", "messageIsError": what was done, or why an
// action was refused, also logged), and an area's label.
#pragma once

#include "app/Log.h"
#include "nav/bake/Areas.h"

#include <nlohmann/json.hpp>

#include <string>

namespace navbench {

/// An area by name ("water") or number ("7").
inline std::string areaLabel(uint8_t area) {
  const char* n = nav::bake::areaName(area);
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
  void dump(nlohmann::json& out) const {
    out["message"] = text;
    out["messageIsError"] = error;
  }
};

} // namespace navbench
