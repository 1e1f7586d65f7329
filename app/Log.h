// Log.h: the app's message log, shown in the log panel and optionally echoed to stderr.
// Thread-safe (background work such as baking may log).
#pragma once

#include <cstdarg>
#include <mutex>
#include <string>
#include <vector>

namespace navbench {

enum class LogLevel { Info, Warning, Error };

struct LogEntry {
  LogLevel level;
  double time; ///< Seconds since the log was created.
  std::string text;
};

class Log {
public:
  Log();
  void add(LogLevel level, const std::string& text);
  void info(const std::string& text) { add(LogLevel::Info, text); }
  void warning(const std::string& text) { add(LogLevel::Warning, text); }
  void error(const std::string& text) { add(LogLevel::Error, text); }
  void clear();

  /// A copy of the entries (at most kMaxEntries, oldest dropped first).
  std::vector<LogEntry> entries() const;
  /// Increases on every add/clear, so a panel can tell when to scroll.
  unsigned version() const;
  /// Echo every message to stderr as "navbench: <text>" (CLI / headless mode).
  void setEcho(bool on) { m_echo = on; }

  static constexpr size_t kMaxEntries = 2000;

private:
  mutable std::mutex m_mutex;
  std::vector<LogEntry> m_entries;
  unsigned m_version = 0;
  bool m_echo = false;
  double m_start;
};

} // namespace navbench
