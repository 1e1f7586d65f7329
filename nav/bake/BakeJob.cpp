#include "nav/bake/BakeJob.h"

namespace nav::bake {

BakeJob::~BakeJob() {
  cancel();
  join();
}

void BakeJob::join() {
  if (m_thread.joinable()) m_thread.join();
}

bool BakeJob::start(const BakeInput& input, const BakeSettings& settings, int threads, std::string* why) {
  if (running()) {
    if (why) *why = "a bake is already running";
    return false;
  }
  join();
  if (!settings.validate(why)) return false;
  auto baker = std::make_unique<Baker>();
  if (!baker->setInput(input, why)) return false;
  m_baker = std::move(baker);
  m_settings = settings;
  m_report = BakeReport();
  m_ok = false;
  m_cancel.store(false);
  m_finished.store(false);
  m_stage.store(int(BakeStage::Prepare));
  m_done.store(0);
  m_total.store(0);
  m_started = true;
  m_thread = std::thread([this, threads]() {
    BakeOptions opt;
    opt.threads = threads;
    opt.cancel = &m_cancel;
    opt.progress = [this](const BakeProgress& p) {
      m_total.store(p.tilesTotal);
      m_done.store(p.tilesDone);
      m_stage.store(int(p.stage));
    };
    m_ok = m_baker->bake(m_settings, opt, &m_report);
    m_finished.store(true);
  });
  return true;
}

BakeProgress BakeJob::progress() const {
  BakeProgress p;
  p.stage = BakeStage(m_stage.load());
  p.tilesDone = m_done.load();
  p.tilesTotal = m_total.load();
  return p;
}

bool BakeJob::takeResult(std::unique_ptr<NavMesh>* mesh, BakeReport* report) {
  if (!m_started) return false;
  join();
  if (report) *report = std::move(m_report);
  if (mesh) *mesh = m_ok ? m_baker->releaseNavMesh() : nullptr;
  m_baker.reset();
  m_started = false;
  m_finished.store(false);
  return true;
}

} // namespace nav::bake
