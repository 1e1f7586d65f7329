// RecastUtil.h: what the tile bakes (Bake.cpp) and the layer bakes (LayerBake.cpp) share around
// Recast: a context that collects its log lines, and deleters so Recast's objects live in
// std::unique_ptr. Internal to nav_bake.
#pragma once

#include <Recast.h>

#include <algorithm>
#include <string>
#include <vector>

namespace nav::bake::detail {

/// Collects Recast's log lines, prefixed by category; timers are ours.
class RcLog : public rcContext {
public:
  RcLog() : rcContext(true) {}
  std::vector<std::string> lines;

protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    const char* prefix = category == RC_LOG_ERROR ? "recast error: " : category == RC_LOG_WARNING ? "recast warning: " : "recast: ";
    lines.push_back(prefix + std::string(msg, size_t(std::max(len, 0))));
  }
};

struct HeightfieldDel { void operator()(rcHeightfield* p) const { rcFreeHeightField(p); } };
struct CompactDel { void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); } };
struct ContourDel { void operator()(rcContourSet* p) const { rcFreeContourSet(p); } };
struct PolyMeshDel { void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); } };
struct DetailDel { void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); } };
struct LayerSetDel { void operator()(rcHeightfieldLayerSet* p) const { rcFreeHeightfieldLayerSet(p); } };

} // namespace nav::bake::detail
