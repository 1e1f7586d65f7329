// FuzzCapture.cpp: the path capture reader (nav/CaptureFile.h, .nbcap) from memory, and, where the
// replay model is built, the replay of what it accepts. A load either succeeds or fails with a
// message naming the source; an accepted capture saves, reloads and saves to the same bytes, and
// its queries replay (stage by stage and from scratch) without a crash or sanitizer report.
#include "FuzzUtil.h"

#include "nav/CaptureFile.h"
#if __has_include("app/model/CaptureReplay.h") && defined(NAVBENCH_FUZZ_CAPTURE_REPLAY)
#include "app/model/CaptureReplay.h"
#endif

#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nav::NavMesh mesh;
  nav::Capture cap;
  std::string why;
  const bool ok = nav::statusSucceeded(nav::loadCapture(data, size, mesh, cap, &why, "fuzz"));
  if (fuzz::refused(ok, why)) {
    if (why.rfind("fuzz: ", 0) != 0) __builtin_trap(); // a refusal names its source
    if (!cap.queries.empty()) __builtin_trap();       // and leaves the output untouched
    return 0;
  }
  if (cap.queries.empty()) __builtin_trap();
  // Saved, reloaded and saved again: the same bytes from then on (the first save may reorder the
  // tiles into slot order and rewrite their links, as a tile set's does).
  std::vector<uint8_t> once, twice, thrice;
  if (nav::statusFailed(nav::saveCapture(mesh, cap, once, &why))) __builtin_trap();
  nav::NavMesh again, third;
  nav::Capture back, back2;
  if (nav::statusFailed(nav::loadCapture(once.data(), once.size(), again, back, &why, "resaved"))) __builtin_trap();
  if (nav::statusFailed(nav::saveCapture(again, back, twice, &why))) __builtin_trap();
  if (nav::statusFailed(nav::loadCapture(twice.data(), twice.size(), third, back2, &why, "resaved"))) __builtin_trap();
  if (nav::statusFailed(nav::saveCapture(third, back2, thrice, &why)) || twice != thrice) __builtin_trap();
#ifdef NAVBENCH_FUZZ_CAPTURE_REPLAY
  // The first queries only: a hostile file may hold 65,536 searches of 65,535 nodes each.
  nav::Capture few;
  for (size_t i = 0; i < cap.queries.size() && i < 16; ++i) few.queries.push_back(cap.queries[i]);
  for (const navbench::CaptureQueryResult& r : navbench::replayCapture(mesh, few))
    if (r.outcome == navbench::CaptureOutcome::Differs && r.difference.field.empty()) __builtin_trap();
  (void)navbench::replayCapture(mesh, few, &again);
#endif
  return 0;
}
