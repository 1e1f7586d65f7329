#include "app/Log.h"

#include <chrono>
#include <cstdio>

namespace navbench {

namespace {
double nowSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
} // namespace

Log::Log() : m_start(nowSeconds()) {}

void Log::add(LogLevel level, const std::string& text) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_entries.size() >= kMaxEntries) m_entries.erase(m_entries.begin(), m_entries.begin() + kMaxEntries / 4);
  m_entries.push_back({level, nowSeconds() - m_start, text});
  ++m_version;
  if (m_echo) {
    const char* tag = level == LogLevel::Error ? "error: " : level == LogLevel::Warning ? "warning: " : "";
    std::fprintf(stderr, "navbench: %s%s\n", tag, text.c_str());
  }
}

void Log::clear() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_entries.clear();
  ++m_version;
}

std::vector<LogEntry> Log::entries() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_entries;
}

unsigned Log::version() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_version;
}

} // namespace navbench
