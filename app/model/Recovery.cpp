#include "app/model/Recovery.h"

#include "app/Settings.h" // absolutePath

#include <cstdlib>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

std::string recoveryDir() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && *state) return (fs::path(state) / "navbench" / "recovery").string();
  const char* home = std::getenv("HOME");
  if (home && *home) return (fs::path(home) / ".local" / "state" / "navbench" / "recovery").string();
  return {};
}

std::string recoveryPath(const std::string& dir, const std::string& levelPath) {
  if (dir.empty() || levelPath.empty()) return {};
  // bakeSettingsHash is the project's stable text hash: "fnv1a64:" + 16 hex digits.
  const std::string hash = bakeSettingsHash(absolutePath(levelPath));
  return (fs::path(dir) / (hash.substr(hash.find(':') + 1) + ".json")).string();
}

void RecoveryJournal::setLevel(const std::string& levelPath) {
  m_level = levelPath.empty() ? std::string() : absolutePath(levelPath);
  m_path = recoveryPath(m_dir, m_level);
  m_signature.clear();
  m_owned = false;
}

bool RecoveryJournal::exists() const {
  std::error_code ec;
  return !m_path.empty() && fs::exists(m_path, ec);
}

bool RecoveryJournal::write(const Scenario& s, std::string& why) {
  if (m_path.empty()) {
    why = "no level open (or no state folder: set XDG_STATE_HOME or HOME)";
    return false;
  }
  std::error_code ec;
  fs::create_directories(fs::path(m_path).parent_path(), ec);
  if (ec) {
    why = fs::path(m_path).parent_path().string() + ": cannot create the folder: " + ec.message();
    return false;
  }
  if (!saveScenarioFile(m_path, s, why)) return false;
  m_owned = true;
  ++m_writes;
  return true;
}

bool RecoveryJournal::read(Scenario& out, std::string& why) const {
  if (m_path.empty()) {
    why = "no level open";
    return false;
  }
  Scenario s;
  if (!loadScenarioFile(m_path, s, why)) return false;
  // Written with absolute paths; a journal naming another level (a hash collision, or a file put
  // there by hand) is not this level's unsaved work.
  if (s.level.empty() || absolutePath(s.level) != m_level) {
    why = m_path + ": level: the journal is for '" + s.level + "', not " + m_level;
    return false;
  }
  out = std::move(s);
  return true;
}

bool RecoveryJournal::remove(std::string& why) {
  m_owned = false;
  m_signature.clear();
  std::error_code ec;
  if (m_path.empty() || !fs::exists(m_path, ec)) return true;
  if (!fs::remove(m_path, ec) && ec) {
    why = m_path + ": cannot remove: " + ec.message();
    return false;
  }
  return true;
}

bool RecoveryJournal::update(bool dirty, const std::string& signature, const std::function<Scenario()>& scenario,
                             std::string& why) {
  if (m_path.empty()) return true;
  if (!dirty) return !m_owned || remove(why);
  if (signature == m_signature && m_owned) return true;
  m_signature = signature; // a failed write is not retried every frame, only at the next change
  return write(scenario(), why);
}

bool RecoveryJournal::flush(bool dirty, const std::function<Scenario()>& scenario, std::string& why) {
  if (m_path.empty() || !dirty) return true;
  return write(scenario(), why);
}

} // namespace navbench
