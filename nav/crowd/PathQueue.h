// PathQueue.h: a small queue of sliced path searches shared by the agents (DetourCrowd 1.5.1's
// dtPathQueue: same request numbering, same slot order, same keep-alive). It owns its own
// NavMeshQuery. Nothing allocates after init().
#pragma once

#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include <memory>

namespace nav {
namespace crowd {

using PathQueueRef = uint32_t;
constexpr PathQueueRef PATHQ_INVALID = 0;

class PathQueue;

/// Everything a PathQueue carries from one update() to the next (PathQueue::saveState /
/// restoreState): the handles, the requests, the delivered results and their keep-alive, the queue
/// head, and how far the running search (at most one) has got. Storage is sized once (init) for
/// one queue's maxPathSize; saving and restoring allocate nothing.
class PathQueueSnapshot {
public:
  PathQueueSnapshot() = default;
  PathQueueSnapshot(const PathQueueSnapshot&) = delete;
  PathQueueSnapshot& operator=(const PathQueueSnapshot&) = delete;

  /// Room for the results of a queue made with init(maxPathSize, ...). False on bad input / out of memory.
  bool init(int maxPathSize);
  /// Heap bytes held.
  size_t bytes() const;

private:
  friend class PathQueue;
  struct Slot {
    PathQueueRef ref;
    float startPos[3], endPos[3];
    PolyRef startRef, endRef;
    int npath;
    Status status;
    int keepAlive;
    int iters;
    const QueryFilter* filter;
  };
  Slot m_slots[8] = {};
  std::unique_ptr<PolyRef[]> m_paths; ///< [Size: 8 * m_maxPathSize]
  int m_maxPathSize = 0;
  PathQueueRef m_nextHandle = 1;
  int m_queueHead = 0;
};

class PathQueue {
public:
  static constexpr int MAX_QUEUE = 8;

  PathQueue();
  ~PathQueue();
  PathQueue(const PathQueue&) = delete;
  PathQueue& operator=(const PathQueue&) = delete;

  /// Sizes the result buffers (maxPathSize polygons per slot) and the query's node pool
  /// (maxSearchNodeCount nodes) on mesh nav. False on bad input / out of memory.
  bool init(int maxPathSize, int maxSearchNodeCount, const NavMesh* nav);

  /// Runs up to maxIters search iterations over the pending requests, round robin from the queue
  /// head; finished results are kept for a few updates (then their slot is freed).
  void update(int maxIters);

  /// Queues a search; returns its handle, or PATHQ_INVALID when all MAX_QUEUE slots are taken.
  /// The filter must outlive the request.
  PathQueueRef request(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                       const QueryFilter* filter);

  /// 0 while queued and not started, IN_PROGRESS while searching, then the search's
  /// SUCCESS/FAILURE + details; FAILURE for an unknown handle. (As in Detour, PATHQ_INVALID
  /// matches a free slot and gives 0.)
  Status getRequestStatus(PathQueueRef ref) const;

  /// Copies the request's result (cut to maxPath; nothing yet if unfinished) and frees the slot:
  /// SUCCESS | the search's detail bits, FAILURE for an unknown handle.
  Status getPathResult(PathQueueRef ref, PolyRef* path, int* pathSize, int maxPath);

  const NavMeshQuery* getNavQuery() const { return m_navquery.get(); }

  /// Copies the queue's state into out (sized for this queue's maxPathSize). FAILURE when out
  /// is too small or the queue is not initialised.
  Status saveState(PathQueueSnapshot& out) const;
  /// Puts back a state saved from a queue on the same mesh (in the same state): a search that was
  /// running is started again and run for the iterations it had done, which leaves the query
  /// exactly where it was (a sliced search's iterations do not depend on how they are split
  /// between update calls). Filters are taken as saved, each mapped through remap (when given)
  /// [Size: nremap pairs (from, to)]. FAILURE (nothing changed) when the sizes differ.
  Status restoreState(const PathQueueSnapshot& in, const QueryFilter* const* remap = nullptr, int nremap = 0);

  /// True while a search is part way through (it resumes in the next update).
  bool searchInProgress() const;

private:
  struct PathQuery {
    PathQueueRef ref = PATHQ_INVALID;
    float startPos[3] = {0, 0, 0}, endPos[3] = {0, 0, 0};
    PolyRef startRef = 0, endRef = 0;
    std::unique_ptr<PolyRef[]> path; ///< [Size: m_maxPathSize]
    int npath = 0;
    Status status = 0;
    int keepAlive = 0;
    int iters = 0; ///< Search iterations done (to resume a restored search where it was).
    const QueryFilter* filter = nullptr;
  };

  void purge();

  PathQuery m_queue[MAX_QUEUE];
  PathQueueRef m_nextHandle = 1;
  int m_maxPathSize = 0;
  int m_queueHead = 0;
  std::unique_ptr<NavMeshQuery> m_navquery;
  static_assert(MAX_QUEUE == 8, "PathQueueSnapshot::m_slots");
};

} // namespace crowd
} // namespace nav
