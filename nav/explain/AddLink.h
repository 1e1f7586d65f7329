// AddLink.h: a copy of a navmesh with off-mesh links added, for the explainer's counterfactuals
// ("with a link from A to B the path is found"). Every tile blob is copied into a new NavMesh with
// the same params at the same tile refs, so poly refs mean the same polys in both; the tile holding
// a link's start gets a longer blob: one more 2-vertex connection poly, its two vertices, its
// OffMeshConnection record and room for its links. The blobs stay Detour's layout, so a test can
// load the same copy into dtNavMesh.
#pragma once

#include "nav/explain/Explain.h"

namespace nav::explain {

/// Copies `src` into `out` (re-initialised) with `links` added. Each link's start must lie on a
/// poly of `src` (its tile gets the connection; the link radius snaps both ends) and its end in the
/// same tile or one of the 8 around it. FAILURE | INVALID_PARAM with `why` otherwise.
Status copyWithLinks(const NavMesh& src, const LinkSpec* links, int linkCount, NavMesh& out,
                     std::string* why = nullptr);

} // namespace nav::explain
