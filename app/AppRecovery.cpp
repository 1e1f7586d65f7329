// AppRecovery.cpp: the recovery journal of unsaved edits (app/model/Recovery.h) as the viewer keeps,
// restores and flushes it, and the stop signals (AppRecovery.h).
#include "app/App.h"
#include "app/AppRecovery.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace navbench {

// SIGTERM, SIGINT, SIGHUP: the handler only records the signal (a lock-free atomic store is
// async-signal-safe, and the watchdog thread reads it without a race); the frame loop sees it at
// its next frame, writes the journal and exits.
namespace {
std::atomic<int> g_stopSignal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler stores into it");
extern "C" void onStopSignal(int sig) { g_stopSignal.store(sig); }
} // namespace

void installStopSignals() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = onStopSignal;
  sa.sa_flags = SA_RESTART; // reads and waits under way go on; the loop acts on the flag
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &sa, nullptr);
}

int pendingStopSignal() { return g_stopSignal.load(); }

// The journal is kept current at every edit, so at most the camera since the last edit is lost
// when the watchdog ends the process.
StopWatchdog::StopWatchdog() : m_thread([this] { watch(); }) {}

StopWatchdog::~StopWatchdog() {
  m_quit = true;
  m_thread.join();
}

void StopWatchdog::watch() {
  double seen = -1;
  while (!m_quit) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const int sig = g_stopSignal.load();
    if (sig == 0) continue;
    if (seen < 0) seen = nowMs();
    else if (nowMs() - seen > 500.0) {
      std::fprintf(stderr, "navbench: signal %d: stopped while busy\n", sig);
      std::_Exit(128 + sig);
    }
  }
}

void App::updateJournal() {
  if (m_journal.path().empty() || m_prompts.askingRecover()) return; // (the old journal waits for its answer)
  const bool dirty = m_doc.bake.unsaved();
  std::string why;
  // The history's version grows on every edit, undo, redo and tool input change: a new version is
  // a new journal.
  if (!m_journal.update(dirty, dirty ? std::to_string(m_doc.history.version()) : std::string(), [this] { return m_doc.currentScenario(""); }, why))
    m_log.warning("recovery: " + why);
}

void App::checkJournal(int& exitCode) {
  m_journalCheck = false;
  if (!m_journal.exists()) {
    if (m_opt.recover) m_log.info("--recover: no unsaved edits kept for " + m_journal.level());
    return;
  }
  Scenario s;
  std::string why;
  if (!m_journal.read(s, why)) { // a broken or foreign journal: said, and nothing changes
    m_log.error("recovery: " + why + " (not restored)");
    m_scenes.notify("Recovery journal not restored: " + why, true);
    if (m_headless && m_opt.recover) {
      exitCode = 1;
      m_running = false;
    }
    return;
  }
  if (m_opt.recover) {
    if (!m_prompts.restore(s) && m_headless) {
      exitCode = 1;
      m_running = false;
    } else if (!m_opt.toolName.empty()) { // an explicit --tool wins over the journal's tool
      const int index = m_doc.findTool(m_opt.toolName);
      if (index >= 0 && index != m_doc.activeTool) m_doc.setActiveTool(index);
    }
  } else if (!m_headless) {
    m_prompts.askRecover(s);
  } else {
    m_log.info("unsaved edits of " + m_journal.level() + " are kept in " + m_journal.path() + " (--recover restores them)");
  }
}

void App::stopOnSignal(int sig) {
  std::fprintf(stderr, "navbench: signal %d (%s): stopping\n", sig, strsignal(sig));
  if (!m_headless && !m_journal.path().empty() && !m_prompts.askingRecover()) {
    std::string why;
    const bool dirty = m_doc.bake.unsaved();
    if (!m_journal.flush(dirty, [this] { return m_doc.currentScenario(""); }, why))
      std::fprintf(stderr, "navbench: recovery: %s\n", why.c_str());
    else if (dirty)
      std::fprintf(stderr, "navbench: unsaved edits kept in %s (navbench %s --recover restores them)\n",
                   m_journal.path().c_str(), m_journal.level().c_str());
  }
  // What a script asked for (--dump-state) and the user's layout and settings (small atomic
  // files) are kept too; no prompt, no joins of bake threads: out now (the watchdog covers a
  // stuck write).
  if (!m_opt.dumpStatePath.empty()) {
    std::string err;
    if (!writeState(m_opt.dumpStatePath, err)) std::fprintf(stderr, "navbench: --dump-state: %s\n", err.c_str());
  }
  if (!m_headless) {
    if (m_imguiReady) saveImguiIni(m_imguiIni);
    saveSettingsAtExit();
  }
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(128 + sig);
}

} // namespace navbench
