#include "RefSmoothPath.h"

#include <DetourCommon.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace querytest {

static constexpr int MAX_POLYS = 2048;

static int refFixupCorridor(dtPolyRef* path, int npath, int maxPath, const dtPolyRef* visited, int nvisited) {
  int furthestPath = -1, furthestVisited = -1;
  for (int i = npath - 1; i >= 0; --i) {
    bool found = false;
    for (int j = nvisited - 1; j >= 0; --j)
      if (path[i] == visited[j]) {
        furthestPath = i;
        furthestVisited = j;
        found = true;
      }
    if (found) break;
  }
  if (furthestPath == -1 || furthestVisited == -1) return npath;
  const int req = nvisited - furthestVisited;
  const int orig = std::min(furthestPath + 1, npath);
  int size = std::max(0, npath - orig);
  if (req + size > maxPath) size = maxPath - req;
  if (size > 0) std::memmove(path + req, path + orig, size_t(size) * sizeof(dtPolyRef));
  for (int i = 0; i < req; ++i) path[i] = visited[(nvisited - 1) - i];
  return req + size;
}

static int refFixupShortcuts(dtPolyRef* path, int npath, const dtNavMesh* nav) {
  if (npath < 3) return npath;
  dtPolyRef neis[16];
  int nneis = 0;
  const dtMeshTile* tile = nullptr;
  const dtPoly* poly = nullptr;
  if (dtStatusFailed(nav->getTileAndPolyByRef(path[0], &tile, &poly))) return npath;
  for (unsigned int k = poly->firstLink; k != DT_NULL_LINK; k = tile->links[k].next)
    if (tile->links[k].ref != 0 && nneis < 16) neis[nneis++] = tile->links[k].ref;
  int cut = 0;
  for (int i = std::min(6, npath) - 1; i > 1 && cut == 0; i--)
    for (int j = 0; j < nneis; j++)
      if (path[i] == neis[j]) {
        cut = i;
        break;
      }
  if (cut > 1) {
    const int offset = cut - 1;
    npath -= offset;
    for (int i = 1; i < npath; i++) path[i] = path[i + offset];
  }
  return npath;
}

static bool inRange(const float* a, const float* b, float r, float h) {
  const float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
  return (dx * dx + dz * dz) < r * r && std::fabs(dy) < h;
}

int referenceSmoothPath(dtNavMeshQuery* q, const dtQueryFilter* filter, dtPolyRef startRef, const float* spos,
                        const float* epos, const dtPolyRef* corridor, int ncorridor, float* out, int maxSmooth,
                        bool recastDemoHeightBug, int* heightFailures) {
  std::vector<dtPolyRef> polys(corridor, corridor + ncorridor);
  polys.resize(MAX_POLYS);
  int npolys = ncorridor;
  float iterPos[3], targetPos[3];
  q->closestPointOnPoly(startRef, spos, iterPos, nullptr);
  q->closestPointOnPoly(polys[npolys - 1], epos, targetPos, nullptr);
  int n = 0;
  dtVcopy(&out[n++ * 3], iterPos);
  while (npolys && n < maxSmooth) {
    float steerPath[9];
    unsigned char steerFlags[3];
    dtPolyRef steerRefs[3];
    int nsteer = 0;
    q->findStraightPath(iterPos, targetPos, polys.data(), npolys, steerPath, steerFlags, steerRefs, &nsteer, 3);
    if (!nsteer) break;
    int ns = 0;
    while (ns < nsteer) {
      if ((steerFlags[ns] & DT_STRAIGHTPATH_OFFMESH_CONNECTION) || !inRange(&steerPath[ns * 3], iterPos, 0.01f, 1000.0f))
        break;
      ns++;
    }
    if (ns >= nsteer) break;
    float steerPos[3];
    dtVcopy(steerPos, &steerPath[ns * 3]);
    steerPos[1] = iterPos[1];
    const unsigned char steerPosFlag = steerFlags[ns];
    const dtPolyRef steerPosRef = steerRefs[ns];
    const bool endOfPath = (steerPosFlag & DT_STRAIGHTPATH_END) != 0;
    const bool offMesh = (steerPosFlag & DT_STRAIGHTPATH_OFFMESH_CONNECTION) != 0;
    float delta[3];
    dtVsub(delta, steerPos, iterPos);
    float len = std::sqrt(dtVdot(delta, delta));
    if ((endOfPath || offMesh) && len < 0.5f) len = 1;
    else len = 0.5f / len;
    float moveTgt[3];
    dtVmad(moveTgt, iterPos, delta, len);
    float result[3];
    dtPolyRef visited[16];
    int nvisited = 0;
    q->moveAlongSurface(polys[0], iterPos, moveTgt, filter, result, visited, &nvisited, 16);
    npolys = refFixupCorridor(polys.data(), npolys, MAX_POLYS, visited, nvisited);
    npolys = refFixupShortcuts(polys.data(), npolys, q->getAttachedNavMesh());
    float h = 0;
    const dtStatus hs = q->getPolyHeight(polys[0], result, &h);
    if (dtStatusFailed(hs) && heightFailures) ++*heightFailures;
    if (recastDemoHeightBug || dtStatusSucceed(hs)) result[1] = h;
    dtVcopy(iterPos, result);
    if (endOfPath && inRange(iterPos, steerPos, 0.01f, 1.0f)) {
      dtVcopy(iterPos, targetPos);
      if (n < maxSmooth) dtVcopy(&out[n++ * 3], iterPos);
      break;
    } else if (offMesh && inRange(iterPos, steerPos, 0.01f, 1.0f)) {
      dtPolyRef prevRef = 0, polyRef = polys[0];
      int npos = 0;
      while (npos < npolys && polyRef != steerPosRef) {
        prevRef = polyRef;
        polyRef = polys[npos];
        npos++;
      }
      for (int i = npos; i < npolys; ++i) polys[i - npos] = polys[i];
      npolys -= npos;
      float sp[3], ep[3];
      if (dtStatusSucceed(q->getAttachedNavMesh()->getOffMeshConnectionPolyEndPoints(prevRef, polyRef, sp, ep))) {
        if (n < maxSmooth) {
          dtVcopy(&out[n++ * 3], sp);
          // RecastDemo checks only `m_nsmoothPath & 1` here: with its even MAX_SMOOTH (2048) this
          // never passes the end, but with an odd cap it writes one point past the buffer (cap 7:
          // 8 points). The cap check keeps the reference inside maxSmooth, as nav does.
          if ((n & 1) && n < maxSmooth) dtVcopy(&out[n++ * 3], sp);
        }
        dtVcopy(iterPos, ep);
        float eh = 0.0f;
        const dtStatus es = npolys > 0 ? q->getPolyHeight(polys[0], iterPos, &eh) : DT_FAILURE;
        if (recastDemoHeightBug || dtStatusSucceed(es)) iterPos[1] = eh;
      }
    }
    if (n < maxSmooth) dtVcopy(&out[n++ * 3], iterPos);
  }
  return n;
}


} // namespace querytest
