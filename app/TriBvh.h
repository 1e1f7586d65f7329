// TriBvh.h: a bounding volume hierarchy over a triangle mesh for ray picking.
//
// Built once per mesh (median split on the longest axis of the centroid bounds, up to
// kLeafSize triangles per leaf); a query visits the nearer child first and prunes nodes farther
// than the best hit so far. A query hits either side of a triangle, or only its front: the side from
// which its corners (a, b, c) are seen counter-clockwise, the side the viewer draws when it culls
// back faces (glFrontFace(GL_CCW), glCullFace(GL_BACK)), so that a click lands on what is drawn.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace navbench {

struct RayHit {
  float t = 0;        ///< Ray parameter: pos = origin + t * dir.
  int tri = -1;       ///< Triangle index.
  glm::vec3 pos{0.0f};
  glm::vec3 normal{0.0f}; ///< Unit geometric normal of the triangle (front side, CCW).
};

/// Which sides of a triangle a ray can hit. Front: only where the ray meets the triangle from the
/// side its normal (b - a) x (c - a) points to, i.e. sees it counter-clockwise (a ray from a camera:
/// the triangles a back-face-culling renderer draws); Both: either side (the level drawn two-sided).
enum class PickSides { Front, Both };

/// Moller-Trumbore. Returns true and t when the ray hits the triangle (on a side `sides` allows)
/// with t in [0, maxT].
bool rayTriangle(const glm::vec3& o, const glm::vec3& d, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                 float maxT, PickSides sides, float& t);

class TriBvh {
public:
  static constexpr int kLeafSize = 4;

  /// Share of build()'s progress taken by the per-triangle set-up (bounds, centroids); the rest
  /// is the splits (reported as the triangles placed in finished leaves).
  static constexpr float kSetupShare = 0.15f;

  /// `verts` is [(x, y, z) * vertCount], `tris` is [(a, b, c) * triCount] with valid indices.
  /// The arrays are copied. `progress(fraction in [0, 1])` is called now and then (never
  /// decreasing, 1 at the end); when it returns false the build stops, the BVH is left empty and
  /// build() returns false.
  bool build(const std::vector<float>& verts, const std::vector<int>& tris,
             const std::function<bool(float)>& progress = {});
  void clear();
  bool empty() const { return m_nodes.empty(); }
  int nodeCount() const { return int(m_nodes.size()); }

  /// Nearest hit with t in [0, maxT] on a side `sides` allows (Front: a triangle seen from behind is
  /// passed through); `dir` need not be unit length (t is in units of |dir|).
  bool raycast(const glm::vec3& origin, const glm::vec3& dir, float maxT, PickSides sides, RayHit& hit) const;

private:
  struct Node {
    glm::vec3 mn, mx;
    int32_t first; ///< Leaf: first entry in m_order; inner: index of the left child (right = left + 1).
    int32_t count; ///< Leaf: triangle count; inner: 0.
  };
  glm::vec3 vert(int i) const { return {m_verts[size_t(i) * 3], m_verts[size_t(i) * 3 + 1], m_verts[size_t(i) * 3 + 2]}; }

  std::vector<float> m_verts;
  std::vector<int> m_tris;
  std::vector<int> m_order; ///< Triangle indices, grouped by leaf.
  std::vector<Node> m_nodes;
};

} // namespace navbench
