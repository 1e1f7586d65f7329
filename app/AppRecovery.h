// AppRecovery.h: how the viewer stops on a signal. SIGTERM, SIGINT and SIGHUP only record the
// signal; the frame loop sees it (pendingStopSignal) at its next frame, writes the recovery journal
// (App::stopOnSignal, AppRecovery.cpp) and exits with code 128 + signal. A StopWatchdog ends the
// process 500 ms after the signal when the main thread is stuck in a wait (a level load, a bake
// being joined, a slow frame).
#pragma once

#include <atomic>
#include <thread>

namespace navbench {

/// Installs the handlers of SIGTERM, SIGINT and SIGHUP (ours, not SDL's: SDL turns them into a
/// quit event that may wait on a prompt).
void installStopSignals();
/// The signal received, or 0.
int pendingStopSignal();

/// A thread that ends the process (std::_Exit(128 + signal)) 500 ms after a stop signal; its
/// destructor stops it.
class StopWatchdog {
public:
  StopWatchdog();
  ~StopWatchdog();
  StopWatchdog(const StopWatchdog&) = delete;
  StopWatchdog& operator=(const StopWatchdog&) = delete;

private:
  void watch();
  std::atomic<bool> m_quit{false};
  std::thread m_thread;
};

} // namespace navbench
