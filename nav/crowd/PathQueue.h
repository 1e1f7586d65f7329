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

private:
  struct PathQuery {
    PathQueueRef ref = PATHQ_INVALID;
    float startPos[3] = {0, 0, 0}, endPos[3] = {0, 0, 0};
    PolyRef startRef = 0, endRef = 0;
    std::unique_ptr<PolyRef[]> path; ///< [Size: m_maxPathSize]
    int npath = 0;
    Status status = 0;
    int keepAlive = 0;
    const QueryFilter* filter = nullptr;
  };

  void purge();

  PathQuery m_queue[MAX_QUEUE];
  PathQueueRef m_nextHandle = 1;
  int m_maxPathSize = 0;
  int m_queueHead = 0;
  std::unique_ptr<NavMeshQuery> m_navquery;
};

} // namespace crowd
} // namespace nav
