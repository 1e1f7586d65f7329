#include "app/model/BakeRunner.h"

#include "nav/TileSetFile.h"
#include "nav/bake/Agents.h"
#include "nav/bake/LevelFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

bool BakeRunner::setSource(const std::string& levelPath, Log& log) {
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s = settings;
  std::string why;
  // An OBJ with a level file of its own beside it (same stem, naming this OBJ): that file's
  // settings, volumes and links are the level's, and its .bin was baked with them, so re-baked
  // tiles must use them too (the OBJ alone would drop the pool's water, the door's area...).
  std::string inputPath = levelPath;
  if (fs::path(levelPath).extension() != ".json") {
    const std::string sibling = fs::path(levelPath).replace_extension(".json").string();
    nav::bake::Level lf;
    std::error_code ec;
    if (fs::is_regular_file(sibling, ec) && nav::bake::loadLevelFile(sibling, &lf, nullptr) &&
        fs::equivalent(nav::bake::resolveObjPath(sibling, lf), levelPath, ec)) {
      inputPath = sibling;
      log.info("bake input: " + levelPath + " with the settings, volumes and links of " + sibling);
    }
  }
  if (!nav::bake::loadBakeInput(inputPath, &in, &s, &why)) {
    log.error("bake input: " + why);
    return false;
  }
  dropRunningBake(&log);
  m_agentBuild = false;
  m_failure.clear();
  m_input = std::move(in);
  settings = s;
  m_source = levelPath;
  m_savedSettings = s;
  m_savedVolumes = m_input.volumes;
  m_savedLinks = m_input.links;
  m_savedRules = m_input.areaRules;
  m_unsaved = false; // the app asked before replacing an unsaved bake
  m_savePath = fs::path(levelPath).replace_extension(".bin").string();
  return true;
}

void BakeRunner::dropRunningBake(Log* log) {
  if (!m_job.running() && !m_job.finished()) return;
  if (m_job.running() && log) log->info("bake of " + m_source + " cancelled: another level replaced it");
  m_job.cancel();
  m_job.takeResult(nullptr, nullptr); // waits for the worker to stop
  m_userBuild = false;
}

void BakeRunner::clearSource() {
  dropRunningBake(nullptr);
  m_agentBuild = false;
  m_failure.clear();
  m_unsaved = false;
  m_savedSettings = settings;
  m_source.clear();
  m_input = nav::bake::BakeInput{};
  m_savedVolumes.clear();
  m_savedLinks.clear();
  m_savedRules.clear();
}

void BakeRunner::setEdits(std::vector<nav::bake::ConvexVolume> volumes, std::vector<nav::bake::OffMeshLink> links) {
  m_input.volumes = std::move(volumes);
  m_input.links = std::move(links);
}

bool sameVolume(const nav::bake::ConvexVolume& a, const nav::bake::ConvexVolume& b) {
  return a.verts == b.verts && a.hmin == b.hmin && a.hmax == b.hmax && a.area == b.area && a.agents == b.agents;
}

bool sameLink(const nav::bake::OffMeshLink& a, const nav::bake::OffMeshLink& b) {
  return std::equal(a.start, a.start + 3, b.start) && std::equal(a.end, a.end + 3, b.end) && a.radius == b.radius &&
         a.bidirectional == b.bidirectional && a.area == b.area && a.flags == b.flags && a.userId == b.userId &&
         a.agents == b.agents;
}

bool BakeRunner::editsChanged() const {
  if (m_source.empty()) return false;
  return !std::equal(m_input.volumes.begin(), m_input.volumes.end(), m_savedVolumes.begin(), m_savedVolumes.end(), sameVolume) ||
         !std::equal(m_input.links.begin(), m_input.links.end(), m_savedLinks.begin(), m_savedLinks.end(), sameLink) ||
         m_input.areaRules != m_savedRules;
}

bool BakeRunner::build(Log& log) {
  if (m_source.empty()) {
    log.error("bake: no level open (open an OBJ or a level file first)");
    return false;
  }
  if (bakeAgents) {
    const int started = bakeAgents(m_input, settings, threads);
    if (started >= 0) {
      m_report.clear();
      m_failure.clear();
      m_userBuild = false;
      m_agentBuild = true;
      m_agentBakes = started;
      if (started > 0) log.info("bake started: " + m_source + " (each agent type with its overrides)");
      return started > 0;
    }
  }
  std::string why;
  if (!m_job.start(m_input, settings, threads, &why)) {
    log.error("bake: " + why);
    return false;
  }
  log.info("bake started: " + m_source);
  m_report.clear();
  m_failure.clear();
  m_userBuild = false;
  return true;
}

void BakeRunner::agentBakesEnded(std::vector<std::string> report) {
  if (!m_agentBuild) return;
  m_report = std::move(report);
  if (m_userBuild && m_agentBakes > 0) m_unsaved = true;
  m_agentBuild = false;
  m_userBuild = false;
  m_agentBakes = 0;
}

bool BakeRunner::buildByUser(Log& log) {
  if (!build(log)) return false;
  m_userBuild = true;
  return true;
}

bool BakeRunner::settingsChanged() const {
  return !m_source.empty() && nav::bake::settingsToJson(settings) != nav::bake::settingsToJson(m_savedSettings);
}

std::string BakeRunner::levelFilePath() const {
  if (m_source.empty()) return std::string();
  fs::path p(m_source);
  if (p.extension() == ".json") return m_source;
  p.replace_extension(".json");
  return p.string();
}

bool BakeRunner::saveSettings(Log& log) {
  const std::string path = levelFilePath();
  if (path.empty()) {
    log.error("save settings: no level open");
    return false;
  }
  nav::bake::Level level;
  std::string why;
  std::error_code ec;
  if (path == m_source || fs::exists(path, ec)) {
    if (!nav::bake::loadLevelFile(path, &level, &why)) {
      log.error("save settings: " + why);
      return false;
    }
    if (path != m_source) { // an OBJ's sibling level file: only if it is this OBJ's
      const std::string obj = nav::bake::resolveObjPath(path, level);
      if (!fs::equivalent(obj, m_source, ec)) {
        log.error(path + ": save settings: this level file is for " + obj + ", not " + m_source + "; not changed");
        return false;
      }
    }
  } else {
    level.objPath = fs::path(m_source).filename().string();
  }
  level.settings = settings;
  // The volumes and links edited in the viewer; a level file the input was not read from (an
  // OBJ's sibling) keeps its own unless they were edited here.
  if (path == m_source || editsChanged()) {
    level.volumes = m_input.volumes;
    level.links = m_input.links;
    level.areaRules = m_input.areaRules;
  }
  if (!nav::bake::saveLevelFile(path, level, &why)) {
    log.error(path + ": cannot save settings: " + why);
    return false;
  }
  m_savedSettings = settings;
  m_savedVolumes = m_input.volumes;
  m_savedLinks = m_input.links;
  m_savedRules = m_input.areaRules;
  log.info("saved bake settings to " + path);
  return true;
}

void BakeRunner::discard() {
  m_unsaved = false;
  m_savedSettings = settings;
  m_savedVolumes = m_input.volumes;
  m_savedLinks = m_input.links;
  m_savedRules = m_input.areaRules;
}

bool BakeRunner::saveAll(const NavState& nav, Log& log) {
  if ((settingsChanged() || editsChanged()) && !saveSettings(log)) return false;
  return !m_unsaved || save(nav, log);
}

bool BakeRunner::save(const NavState& nav, Log& log) {
  if (!nav.loaded()) {
    log.error("save navmesh: no navmesh open");
    return false;
  }
  if (agentMeshes) {
    const std::vector<std::pair<std::string, const nav::NavMesh*>> meshes = agentMeshes();
    if (!meshes.empty()) return saveAgents(nav, meshes, log);
  }
  std::string why;
  std::unique_ptr<nav::NavMesh> other;
  if (meshToSave && !meshToSave(nav.mesh(), &other, &why)) {
    log.error(m_savePath + ": not saved: " + why);
    return false;
  }
  if (nav::statusFailed(nav::saveTileSetFile(other ? *other : nav.mesh(), m_savePath, &why))) {
    log.error(m_savePath + ": cannot save: " + why);
    return false;
  }
  log.info("saved " + m_savePath);
  m_unsaved = false;
  return true;
}

bool BakeRunner::saveAgents(const NavState& nav, const std::vector<std::pair<std::string, const nav::NavMesh*>>& meshes,
                            Log& log) {
  std::string why;
  for (const auto& m : meshes)
    if (!m.second) {
      log.error(m_savePath + ": not saved: agent " + m.first + " has no navmesh yet (its bake runs)");
      return false;
    }
  std::vector<std::string> outs, temps;
  auto dropTemps = [&temps]() {
    for (const std::string& t : temps) std::remove(t.c_str());
  };
  for (const auto& m : meshes) {
    const std::string out = nav::bake::agentFilePath(m_savePath, m.first);
    std::unique_ptr<nav::NavMesh> other;
    if (m.second == &nav.mesh() && meshToSave && !meshToSave(nav.mesh(), &other, &why)) {
      dropTemps();
      log.error(out + ": not saved (nor the other agents'): " + why);
      return false;
    }
    const std::string temp = out + ".saving";
    if (nav::statusFailed(nav::saveTileSetFile(other ? *other : *m.second, temp, &why))) {
      dropTemps();
      log.error(out + ": cannot save (nor the other agents'): " + why);
      return false;
    }
    outs.push_back(out);
    temps.push_back(temp);
  }
  // Every agent's file written: they go into place (each rename is atomic).
  std::string saved;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (std::rename(temps[i].c_str(), outs[i].c_str()) != 0) {
      const std::string problem = std::strerror(errno);
      for (size_t k = i; k < temps.size(); ++k) std::remove(temps[k].c_str());
      log.error(outs[i] + ": cannot save: " + problem + (saved.empty() ? "" : " (saved:" + saved + ")"));
      return false;
    }
    saved += " " + outs[i];
  }
  log.info("saved" + saved);
  m_unsaved = false;
  return true;
}

bool BakeRunner::poll(NavState& nav, Log& log) {
  if (!m_job.finished()) return false;
  std::unique_ptr<nav::NavMesh> mesh;
  nav::bake::BakeReport rep;
  m_job.takeResult(&mesh, &rep);
  m_report = rep.log;
  const bool userBuild = m_userBuild;
  m_userBuild = false;
  char buf[256];
  for (int i = 0; i < nav::bake::BAKE_STAGE_COUNT; ++i) {
    if (rep.stageMs[i] <= 0) continue;
    std::snprintf(buf, sizeof buf, "%-20s %9.2f ms", nav::bake::bakeStageName(nav::bake::BakeStage(i)), rep.stageMs[i]);
    m_report.push_back(buf);
  }
  std::snprintf(buf, sizeof buf, "total %.1f ms wall, %d threads, %d tiles (%dx%d grid), %d polys", rep.totalMs, rep.threads,
                rep.tileCount, rep.tilesX, rep.tilesY, rep.polyCount);
  m_report.push_back(buf);
  if (!mesh) {
    m_failure = rep.cancelled ? "was cancelled" : "failed: " + rep.error;
    log.error(rep.cancelled ? "bake cancelled" : "bake failed: " + rep.error);
    return false;
  }
  nav.adopt(std::move(*mesh), m_source + " (baked)");
  if (userBuild) m_unsaved = true;
  log.info(std::string("bake done: ") + buf);
  return true;
}

} // namespace navbench
