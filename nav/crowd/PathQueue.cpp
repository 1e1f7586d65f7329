// PathQueue.cpp: see PathQueue.h.
#include "nav/crowd/PathQueue.h"

#include "nav/NavMath.h"

#include <cstring>
#include <new>

namespace nav {
namespace crowd {

PathQueue::PathQueue() = default;
PathQueue::~PathQueue() = default;

void PathQueue::purge() {
  m_navquery.reset();
  for (PathQuery& q : m_queue) q.path.reset();
}

bool PathQueue::init(int maxPathSize, int maxSearchNodeCount, const NavMesh* nav) {
  purge();
  if (maxPathSize < 1 || !nav) return false;
  m_navquery.reset(new (std::nothrow) NavMeshQuery());
  if (!m_navquery) return false;
  if (statusFailed(m_navquery->init(nav, maxSearchNodeCount))) return false;

  m_maxPathSize = maxPathSize;
  for (PathQuery& q : m_queue) {
    q.ref = PATHQ_INVALID;
    q.status = 0;
    q.npath = 0;
    q.path.reset(new (std::nothrow) PolyRef[size_t(m_maxPathSize)]);
    if (!q.path) return false;
  }
  m_queueHead = 0;
  return true;
}

void PathQueue::update(int maxIters) {
  // Updates an unread result survives before its slot is freed.
  static const int MAX_KEEP_ALIVE = 2;
  if (!m_navquery) return;

  // Round robin from the head: each visited slot advances the head, except the one that used up
  // the iteration budget, which goes first next time.
  int iterCount = maxIters;
  for (int i = 0; i < MAX_QUEUE; ++i) {
    PathQuery& q = m_queue[m_queueHead % MAX_QUEUE];
    if (q.ref == PATHQ_INVALID) {
      m_queueHead++;
      continue;
    }
    if (statusSucceeded(q.status) || statusFailed(q.status)) {
      q.keepAlive++;
      if (q.keepAlive > MAX_KEEP_ALIVE) {
        q.ref = PATHQ_INVALID;
        q.status = 0;
      }
      m_queueHead++;
      continue;
    }

    if (q.status == 0) q.status = m_navquery->initSlicedFindPath(q.startRef, q.endRef, q.startPos, q.endPos, q.filter);
    if (statusInProgress(q.status)) {
      int iters = 0;
      q.status = m_navquery->updateSlicedFindPath(iterCount, &iters);
      iterCount -= iters;
      q.iters += iters;
    }
    if (statusSucceeded(q.status)) q.status = m_navquery->finalizeSlicedFindPath(q.path.get(), &q.npath, m_maxPathSize);

    if (iterCount <= 0) break;
    m_queueHead++;
  }
}

PathQueueRef PathQueue::request(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                                const QueryFilter* filter) {
  if (!m_navquery) return PATHQ_INVALID;
  int slot = -1;
  for (int i = 0; i < MAX_QUEUE; ++i) {
    if (m_queue[i].ref == PATHQ_INVALID) {
      slot = i;
      break;
    }
  }
  if (slot == -1) return PATHQ_INVALID;

  // Handles count up from 1 and skip PATHQ_INVALID when they wrap.
  const PathQueueRef ref = m_nextHandle++;
  if (m_nextHandle == PATHQ_INVALID) m_nextHandle++;

  PathQuery& q = m_queue[slot];
  q.ref = ref;
  vcopy(q.startPos, startPos);
  q.startRef = startRef;
  vcopy(q.endPos, endPos);
  q.endRef = endRef;
  q.status = 0;
  q.npath = 0;
  q.filter = filter;
  q.keepAlive = 0;
  q.iters = 0;
  return ref;
}

Status PathQueue::getRequestStatus(PathQueueRef ref) const {
  for (const PathQuery& q : m_queue)
    if (q.ref == ref) return q.status;
  return FAILURE;
}

Status PathQueue::getPathResult(PathQueueRef ref, PolyRef* path, int* pathSize, int maxPath) {
  for (PathQuery& q : m_queue) {
    if (q.ref != ref) continue;
    const Status details = q.status & STATUS_DETAIL_MASK;
    q.ref = PATHQ_INVALID;
    q.status = 0;
    const int n = navMax(0, navMin(q.npath, maxPath));
    if (n > 0) std::memcpy(path, q.path.get(), sizeof(PolyRef) * size_t(n));
    *pathSize = n;
    return details | SUCCESS;
  }
  return FAILURE;
}

bool PathQueueSnapshot::init(int maxPathSize) {
  m_paths.reset();
  m_maxPathSize = 0;
  if (maxPathSize < 1) return false;
  m_paths.reset(new (std::nothrow) PolyRef[size_t(PathQueue::MAX_QUEUE) * size_t(maxPathSize)]());
  if (!m_paths) return false;
  m_maxPathSize = maxPathSize;
  return true;
}

size_t PathQueueSnapshot::bytes() const { return sizeof(PolyRef) * size_t(PathQueue::MAX_QUEUE) * size_t(m_maxPathSize); }

bool PathQueue::searchInProgress() const {
  for (const PathQuery& q : m_queue)
    if (q.ref != PATHQ_INVALID && statusInProgress(q.status)) return true;
  return false;
}

namespace {
// The fields a live query and its snapshot slot share (all but the path buffer), either way.
template <class To, class From>
void copySearchFields(To& to, const From& from) {
  to.ref = from.ref;
  vcopy(to.startPos, from.startPos);
  vcopy(to.endPos, from.endPos);
  to.startRef = from.startRef;
  to.endRef = from.endRef;
  to.npath = from.npath;
  to.status = from.status;
  to.keepAlive = from.keepAlive;
  to.iters = from.iters;
  to.filter = from.filter;
}
} // namespace

Status PathQueue::saveState(PathQueueSnapshot& out) const {
  if (!m_navquery || !out.m_paths || out.m_maxPathSize < m_maxPathSize) return FAILURE;
  for (int i = 0; i < MAX_QUEUE; ++i) {
    const PathQuery& q = m_queue[i];
    PathQueueSnapshot::Slot& s = out.m_slots[i];
    copySearchFields(s, q);
    // A result stays readable until getPathResult frees the slot (and a freed slot's buffer is
    // never read again before a new search fills it).
    if (q.ref != PATHQ_INVALID && q.npath > 0)
      std::memcpy(out.m_paths.get() + size_t(i) * size_t(out.m_maxPathSize), q.path.get(),
                  sizeof(PolyRef) * size_t(q.npath));
  }
  out.m_nextHandle = m_nextHandle;
  out.m_queueHead = m_queueHead;
  return SUCCESS;
}

Status PathQueue::restoreState(const PathQueueSnapshot& in, const QueryFilter* const* remap, int nremap) {
  if (!m_navquery || !in.m_paths || in.m_maxPathSize > m_maxPathSize) return FAILURE;
  int running = -1;
  for (int i = 0; i < MAX_QUEUE; ++i) {
    PathQuery& q = m_queue[i];
    const PathQueueSnapshot::Slot& s = in.m_slots[i];
    copySearchFields(q, s);
    for (int k = 0; k < nremap; ++k)
      if (q.filter == remap[2 * k]) {
        q.filter = remap[2 * k + 1];
        break;
      }
    if (q.ref != PATHQ_INVALID && q.npath > 0)
      std::memcpy(q.path.get(), in.m_paths.get() + size_t(i) * size_t(in.m_maxPathSize),
                  sizeof(PolyRef) * size_t(q.npath));
    if (q.ref != PATHQ_INVALID && statusInProgress(q.status)) running = i;
  }
  m_nextHandle = in.m_nextHandle;
  m_queueHead = in.m_queueHead;
  if (running >= 0) {
    // The query holds one search: update() only ever leaves one part way through.
    PathQuery& q = m_queue[running];
    Status st = m_navquery->initSlicedFindPath(q.startRef, q.endRef, q.startPos, q.endPos, q.filter);
    if (statusInProgress(st) && q.iters > 0) st = m_navquery->updateSlicedFindPath(q.iters, nullptr);
    q.status = st;
  }
  return SUCCESS;
}

} // namespace crowd
} // namespace nav
