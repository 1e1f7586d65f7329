// RecastPolyMesh.h: test support: bakes a triangle soup with Recast (RecastDemo's pipeline and
// default settings) into per-tile poly meshes, ready for nav::buildTileData and dtCreateNavMeshData.
#pragma once
