#include "app/panels/BakePanel.h"

#include "app/Document.h"
#include "app/panels/Panels.h"

#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

bool BakePanel::setSource(const std::string& levelPath, Log& log) {
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
  m_failure.clear();
  m_input = std::move(in);
  settings = s;
  m_source = levelPath;
  m_savedSettings = s;
  m_savedVolumes = m_input.volumes;
  m_savedLinks = m_input.links;
  m_unsaved = false; // the app asked before replacing an unsaved bake
  fs::path bin(levelPath);
  bin.replace_extension(".bin");
  std::snprintf(m_savePath, sizeof m_savePath, "%s", bin.string().c_str());
  return true;
}

void BakePanel::dropRunningBake(Log* log) {
  if (!m_job.running() && !m_job.finished()) return;
  if (m_job.running() && log) log->info("bake of " + m_source + " cancelled: another level replaced it");
  m_job.cancel();
  m_job.takeResult(nullptr, nullptr); // waits for the worker to stop
  m_userBuild = false;
}

void BakePanel::clearSource() {
  dropRunningBake(nullptr);
  m_failure.clear();
  m_unsaved = false;
  m_savedSettings = settings;
  m_source.clear();
  m_input = nav::bake::BakeInput{};
  m_savedVolumes.clear();
  m_savedLinks.clear();
}

void BakePanel::setEdits(std::vector<nav::bake::ConvexVolume> volumes, std::vector<nav::bake::OffMeshLink> links) {
  m_input.volumes = std::move(volumes);
  m_input.links = std::move(links);
}

bool BakePanel::editsChanged() const {
  if (m_source.empty()) return false;
  auto sameVolume = [](const nav::bake::ConvexVolume& a, const nav::bake::ConvexVolume& b) {
    return a.verts == b.verts && a.hmin == b.hmin && a.hmax == b.hmax && a.area == b.area;
  };
  auto sameLink = [](const nav::bake::OffMeshLink& a, const nav::bake::OffMeshLink& b) {
    return std::equal(a.start, a.start + 3, b.start) && std::equal(a.end, a.end + 3, b.end) && a.radius == b.radius &&
           a.bidirectional == b.bidirectional && a.area == b.area && a.flags == b.flags && a.userId == b.userId;
  };
  return !std::equal(m_input.volumes.begin(), m_input.volumes.end(), m_savedVolumes.begin(), m_savedVolumes.end(), sameVolume) ||
         !std::equal(m_input.links.begin(), m_input.links.end(), m_savedLinks.begin(), m_savedLinks.end(), sameLink);
}

bool BakePanel::build(Log& log) {
  if (m_source.empty()) {
    log.error("bake: no level open (open an OBJ or a level file first)");
    return false;
  }
  std::string why;
  if (!m_job.start(m_input, settings, m_threads, &why)) {
    log.error("bake: " + why);
    return false;
  }
  log.info("bake started: " + m_source);
  m_report.clear();
  m_failure.clear();
  m_userBuild = false;
  return true;
}

bool BakePanel::buildByUser(Log& log) {
  if (!build(log)) return false;
  m_userBuild = true;
  return true;
}

bool BakePanel::settingsChanged() const {
  return !m_source.empty() && nav::bake::settingsToJson(settings) != nav::bake::settingsToJson(m_savedSettings);
}

std::string BakePanel::levelFilePath() const {
  if (m_source.empty()) return std::string();
  fs::path p(m_source);
  if (p.extension() == ".json") return m_source;
  p.replace_extension(".json");
  return p.string();
}

bool BakePanel::saveSettings(Log& log) {
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
  }
  if (!nav::bake::saveLevelFile(path, level, &why)) {
    log.error(path + ": cannot save settings: " + why);
    return false;
  }
  m_savedSettings = settings;
  m_savedVolumes = m_input.volumes;
  m_savedLinks = m_input.links;
  log.info("saved bake settings to " + path);
  return true;
}

bool BakePanel::saveAll(const NavState& nav, Log& log) {
  if ((settingsChanged() || editsChanged()) && !saveSettings(log)) return false;
  return !m_unsaved || save(nav, log);
}

bool BakePanel::save(const NavState& nav, Log& log) {
  if (!nav.loaded()) {
    log.error("save navmesh: no navmesh open");
    return false;
  }
  std::string why;
  std::unique_ptr<nav::NavMesh> other;
  if (meshToSave && !meshToSave(nav.mesh(), &other, &why)) {
    log.error(std::string(m_savePath) + ": not saved: " + why);
    return false;
  }
  if (nav::statusFailed(nav::saveTileSetFile(other ? *other : nav.mesh(), m_savePath, &why))) {
    log.error(std::string(m_savePath) + ": cannot save: " + why);
    return false;
  }
  log.info(std::string("saved ") + m_savePath);
  m_unsaved = false;
  return true;
}

bool BakePanel::poll(NavState& nav, Log& log) {
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

void BakePanel::progressBar() {
  const nav::bake::BakeProgress p = m_job.progress();
  const float frac = p.tilesTotal > 0 ? float(p.tilesDone) / float(p.tilesTotal) : 0.0f;
  char over[96];
  std::snprintf(over, sizeof over, "%s %d/%d", nav::bake::bakeStageName(p.stage), p.tilesDone, p.tilesTotal);
  ImGui::ProgressBar(frac, ImVec2(-1, 0), over);
  if (ImGui::Button("Cancel")) m_job.cancel();
}

void BakePanel::drawNoNavmesh(Log& log, float* buttonCentre) {
  if (buttonCentre) buttonCentre[0] = buttonCentre[1] = -1.0f;
  if (m_job.running()) {
    ImGui::TextWrapped("Baking the navmesh of %s...", fs::path(m_source).filename().string().c_str());
    progressBar();
    return;
  }
  if (m_source.empty()) {
    ImGui::TextWrapped("No navmesh open: open a level (.obj or level .json) to bake one, or a .bin tile set "
                       "(File > Open, or drop it here).");
    return;
  }
  if (!m_failure.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.3f, 1.0f));
    ImGui::TextWrapped("The bake of %s %s", fs::path(m_source).filename().string().c_str(), m_failure.c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextWrapped("No navmesh for %s yet.", fs::path(m_source).filename().string().c_str());
  }
  if (ImGui::Button("Bake")) build(log);
  if (buttonCentre) {
    buttonCentre[0] = (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f;
    buttonCentre[1] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
  }
  ImGui::SameLine();
  ImGui::TextDisabled("with the Bake panel's settings");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("View > Bake panel: the settings, Cancel, Save .bin");
  ImGui::TextWrapped("Or open a .bin tile set (File > Open, or drop it here).");
}

bool BakePanel::draw(NavState& nav, Log& log, bool* open) {
  const bool adopted = false; // poll() runs in the frame loop, panel shown or not
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetMainViewport()->Size.x - 720, 30), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(400, 540), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Bake", open)) {
    ImGui::End();
    return adopted;
  }
  ImGui::TextWrapped("%s", m_source.empty() ? "No level open." : m_source.c_str());
  const bool busy = m_job.running();
  ImGui::BeginDisabled(busy);
  int n = 0;
  const nav::bake::SettingRange* ranges = nav::bake::settingRanges(&n);
  nav::bake::BakeSettings& s = settings;
  struct Field {
    const char* name;
    float* f;
    int* i;
  };
  const Field fields[] = {{"cellSize", &s.cellSize, nullptr},
                          {"cellHeight", &s.cellHeight, nullptr},
                          {"agentHeight", &s.agentHeight, nullptr},
                          {"agentRadius", &s.agentRadius, nullptr},
                          {"agentMaxClimb", &s.agentMaxClimb, nullptr},
                          {"agentMaxSlope", &s.agentMaxSlope, nullptr},
                          {"regionMinSize", nullptr, &s.regionMinSize},
                          {"regionMergeSize", nullptr, &s.regionMergeSize},
                          {"edgeMaxLen", &s.edgeMaxLen, nullptr},
                          {"edgeMaxError", &s.edgeMaxError, nullptr},
                          {"vertsPerPoly", nullptr, &s.vertsPerPoly},
                          {"detailSampleDist", &s.detailSampleDist, nullptr},
                          {"detailSampleMaxError", &s.detailSampleMaxError, nullptr},
                          {"tileSize", nullptr, &s.tileSize}};
  for (int r = 0; r < n; ++r) {
    for (const Field& f : fields) {
      if (std::strcmp(f.name, ranges[r].name) != 0) continue;
      char label[96];
      std::snprintf(label, sizeof label, "%s%s%s%s", ranges[r].name, ranges[r].unit[0] ? " (" : "", ranges[r].unit,
                    ranges[r].unit[0] ? ")" : "");
      if (f.f) ImGui::SliderFloat(label, f.f, ranges[r].min, ranges[r].max, "%.2f");
      else ImGui::SliderInt(label, f.i, int(ranges[r].min), int(ranges[r].max));
    }
  }
  int part = int(s.partition);
  const char* parts[] = {"watershed", "monotone", "layers"};
  if (ImGui::Combo("partition", &part, parts, 3)) s.partition = nav::bake::Partition(part);
  ImGui::Checkbox("tiled", &s.tiled);
  ImGui::Checkbox("filter low hanging obstacles", &s.filterLowHangingObstacles);
  ImGui::Checkbox("filter ledge spans", &s.filterLedgeSpans);
  ImGui::Checkbox("filter low height spans", &s.filterWalkableLowHeightSpans);
  ImGui::SliderInt("threads (0 = all)", &m_threads, 0, 16);
  if (ImGui::Button("Defaults")) s = nav::bake::BakeSettings{};
  ImGui::SameLine();
  if (ImGui::Button("Build (Ctrl+B)")) buildByUser(log);
  ImGui::EndDisabled();
  if (busy) progressBar();
  ImGui::Separator();
  ImGui::InputText("##save", m_savePath, sizeof m_savePath);
  ImGui::SameLine();
  ImGui::BeginDisabled(!nav.loaded() || busy);
  if (ImGui::Button("Save .bin")) save(nav, log);
  ImGui::EndDisabled();
  ImGui::BeginDisabled(m_source.empty() || busy);
  if (ImGui::Button("Save settings to level file")) saveSettings(log);
  ImGui::EndDisabled();
  if (!m_source.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Writes %s", levelFilePath().c_str());
  if (settingsChanged()) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Settings changed since opened or saved.");
  if (m_unsaved) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Not saved: this bake exists only in memory.");
  if (!m_report.empty() && ImGui::CollapsingHeader("Build log", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::BeginChild("bakelog", ImVec2(0, 160), true, ImGuiWindowFlags_HorizontalScrollbar);
    for (const std::string& l : m_report) ImGui::TextUnformatted(l.c_str());
    ImGui::EndChild();
  }
  ImGui::End();
  return adopted;
}

} // namespace navbench

namespace navbench {
namespace {
class BakeWindow final : public Panel {
public:
  BakeWindow() : Panel(false) {}
  const char* name() const override { return "Bake"; }
  const char* menuLabel() const override { return "Bake panel"; }
  int menuOrder() const override { return 3; }
  void draw(PanelContext& ctx) override {
    if (m_visible) ctx.doc.bake.draw(ctx.doc.nav, ctx.log, &m_visible);
  }
};
} // namespace

std::unique_ptr<Panel> makeBakePanel() { return std::make_unique<BakeWindow>(); }
} // namespace navbench
