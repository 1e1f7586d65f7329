// DocumentCapture.cpp: Document::openCapture (Document.h): a path capture (.nbcap) opened as the
// navmesh, with its queries in the document's CaptureSession.
#include "app/Document.h"

#include "nav/CaptureFile.h"

#include <cstdio>

namespace navbench {

bool Document::openCapture(const std::string& path, nav::NavMesh* preloadedMesh, nav::Capture* preloaded) {
  nav::NavMesh mesh;
  nav::Capture cap;
  if (!preloadedMesh || !preloaded) {
    std::string why;
    const nav::Status st = nav::loadCaptureFile(path, mesh, cap, &why);
    if (nav::statusFailed(st)) { // all or nothing: what was open stays
      m_log.error((why.empty() ? path + ": cannot load the capture" : why) +
                  (nav.loaded() ? " (keeping " + nav.path() + ")" : std::string()));
      m_host.notify(why.empty() ? path + ": cannot load the capture" : why, true);
      return false;
    }
    preloadedMesh = &mesh;
    preloaded = &cap;
  }
  if (!openNav(path, preloadedMesh)) return false;
  const size_t n = preloaded->queries.size();
  size_t rays = 0, stale = 0;
  for (const nav::CapturedQuery& q : preloaded->queries) {
    rays += q.kind == nav::CAPTURE_RAYCAST ? 1 : 0;
    stale += q.stale() ? 1 : 0;
  }
  capture.open(path, std::move(*preloaded));
  captureVisible = true;
  char buf[160];
  std::snprintf(buf, sizeof buf, ": %zu captured queries (%zu path, %zu raycast, %zu stale)", n, n - rays, rays, stale);
  m_log.info("opened capture " + path + buf);
  return true;
}

} // namespace navbench
