// BakeJob.h: a bake on a background thread, for a UI that must stay responsive.
//
//   nav::bake::BakeJob job;
//   job.start(level.input, settings, /*threads*/ 0, &why);   // copies the input
//   each frame:  BakeProgress p = job.progress();  draw a bar from p.tilesDone / p.tilesTotal;
//                if (cancelClicked) job.cancel();
//                if (job.finished()) { job.takeResult(&mesh, &report);  // mesh null on failure
//                                      if (mesh) baker.adoptNavMesh(std::move(mesh), settings); }
// The job bakes its own copy of the input, so the caller may keep drawing (and even editing) its
// current level and mesh meanwhile. Destroying a running job cancels it and waits.
#pragma once

#include "nav/bake/Bake.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>

namespace nav::bake {

class BakeJob {
public:
  BakeJob() = default;
  ~BakeJob();
  BakeJob(const BakeJob&) = delete;
  BakeJob& operator=(const BakeJob&) = delete;

  /// Starts baking. False (nothing started) if a job is already running or the input or settings
  /// are invalid (`why` says which). A finished, untaken result is discarded.
  bool start(const BakeInput& input, const BakeSettings& settings, int threads, std::string* why);
  /// True between start() and the end of the bake.
  bool running() const { return m_started && !m_finished.load(); }
  /// True once the bake ended (success, failure or cancel) and the result is not taken yet.
  bool finished() const { return m_started && m_finished.load(); }
  /// Latest progress (safe from any thread).
  BakeProgress progress() const;
  /// Asks the bake to stop; it finishes soon after with report.cancelled.
  void cancel() { m_cancel.store(true); }
  /// Waits for the end of the bake, then hands over the report and, on success, the new mesh
  /// (null otherwise). False if no job was started.
  bool takeResult(std::unique_ptr<NavMesh>* mesh, BakeReport* report);

private:
  void join();
  std::thread m_thread;
  std::unique_ptr<Baker> m_baker;
  BakeSettings m_settings;
  BakeReport m_report;
  bool m_ok = false;
  bool m_started = false;
  std::atomic<bool> m_finished{false};
  std::atomic<bool> m_cancel{false};
  std::atomic<int> m_stage{0}, m_done{0}, m_total{0};
};

} // namespace nav::bake
