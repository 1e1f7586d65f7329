#include "app/LevelLod.h"

#include "app/Level.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace navbench {

int LevelLod::triangles(int level) const {
  long long n = 0;
  if (level >= 0 && level < kLevels)
    for (const Cell& c : cells) n += c.count[level];
  return int(n);
}

namespace {

constexpr uint64_t kEmpty = ~uint64_t(0);
constexpr int kCoordBits = 21; // per axis in a packed cube key
constexpr int kCoordMax = (1 << kCoordBits) - 1;

uint64_t packKey(int x, int y, int z) {
  return uint64_t(uint32_t(x)) | (uint64_t(uint32_t(y)) << kCoordBits) | (uint64_t(uint32_t(z)) << (2 * kCoordBits));
}

// Open-addressing map from packed cube keys to dense cluster ids (0, 1, 2, ... in order of
// first insertion). Sized for the expected count and doubled whenever it gets half full: a
// level whose vertices barely merge has as many cubes as vertices (a full table never ends a probe).
class CubeMap {
public:
  explicit CubeMap(size_t expected) {
    size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    reset(cap);
  }
  /// The id of `key`, inserting it as `next` when new (then `inserted` is true).
  int find(uint64_t key, int next, bool& inserted) {
    size_t h = slot(key);
    for (;;) {
      if (m_keys[h] == key) {
        inserted = false;
        return m_vals[h];
      }
      if (m_keys[h] == kEmpty) break;
      h = (h + 1) & m_mask;
    }
    inserted = true;
    if ((m_count + 1) * 2 > m_keys.size()) {
      grow();
      h = slot(key);
      while (m_keys[h] != kEmpty) h = (h + 1) & m_mask;
    }
    m_keys[h] = key;
    m_vals[h] = next;
    ++m_count;
    return next;
  }

private:
  // Fibonacci hashing: the product's top bits depend on every bit of the key.
  size_t slot(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> m_shift) & m_mask; }
  void reset(size_t cap) {
    m_keys.assign(cap, kEmpty);
    m_vals.assign(cap, 0);
    m_mask = cap - 1;
    m_shift = 64;
    for (size_t c = cap; c > 1; c >>= 1) --m_shift;
  }
  void grow() {
    std::vector<uint64_t> keys = std::move(m_keys);
    std::vector<int> vals = std::move(m_vals);
    reset(keys.size() * 2);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == kEmpty) continue;
      size_t h = slot(keys[i]);
      while (m_keys[h] != kEmpty) h = (h + 1) & m_mask;
      m_keys[h] = keys[i];
      m_vals[h] = vals[i];
    }
  }
  std::vector<uint64_t> m_keys;
  std::vector<int> m_vals;
  size_t m_count = 0;
  size_t m_mask = 0;
  int m_shift = 60; // 64 - log2(capacity)
};

struct Cluster {
  int x, y, z;        // cube coordinates at its level
  glm::dvec3 sum;     // of the vertices in it
  long long n;        // vertices in it
};

} // namespace

bool buildLevelLod(const TriMesh& mesh, LevelLod& out, const std::function<bool(float)>& progress) {
  out.clear();
  const int triCount = mesh.triCount(), vertCount = mesh.vertCount();
  if (triCount == 0) return true;
  auto report = [&](float f) { return !progress || progress(std::clamp(f, 0.0f, 1.0f)); };
  auto cancelled = [&] {
    out.clear();
    return false;
  };

  // Cells: the same grid rule as render::MeshBuffer::upload, triangles bucketed by centroid.
  const glm::vec3 mn = mesh.boundsMin, mx = mesh.boundsMax;
  const int g = std::clamp(int(std::sqrt(double(triCount) / 4096.0)), 1, 32);
  const float ex = mx.x - mn.x, ez = mx.z - mn.z;
  const float sx = ex > 0 ? float(g) / ex : 0.0f, sz = ez > 0 ? float(g) / ez : 0.0f;
  out.grid = g;
  out.cellSize = std::max({ex, ez, 1e-3f}) / float(g);
  std::vector<int> cellOf(static_cast<size_t>(triCount));
  std::vector<LevelLod::Cell> cells(size_t(g) * size_t(g));
  std::vector<int> cellTris(cells.size(), 0);
  const int* tri = mesh.tris.data();
  for (int t = 0; t < triCount; ++t) {
    const glm::vec3 a = mesh.vert(tri[t * 3]), b = mesh.vert(tri[t * 3 + 1]), c = mesh.vert(tri[t * 3 + 2]);
    const glm::vec3 ctr = (a + b + c) / 3.0f;
    // (clamped as floats: a centroid or extent overflowing to inf/NaN must not reach the int conversion)
    auto cellAt = [g](float v) { return v > 0.0f ? int(std::min(v, float(g - 1))) : 0; };
    const int cx = cellAt((ctr.x - mn.x) * sx), cz = cellAt((ctr.z - mn.z) * sz);
    const int ci = cz * g + cx;
    cellOf[size_t(t)] = ci;
    LevelLod::Cell& cell = cells[size_t(ci)];
    const glm::vec3 tmn = glm::min(a, glm::min(b, c)), tmx = glm::max(a, glm::max(b, c));
    cell.bmin = cellTris[size_t(ci)] ? glm::min(cell.bmin, tmn) : tmn;
    cell.bmax = cellTris[size_t(ci)] ? glm::max(cell.bmax, tmx) : tmx;
    ++cellTris[size_t(ci)];
  }
  // Level 0: triangle indices in cell order (counting sort).
  {
    int at = 0;
    for (size_t c = 0; c < cells.size(); ++c) {
      cells[c].first[0] = at;
      at += cellTris[c];
    }
    out.order.resize(size_t(triCount));
    std::vector<int> cursor(cells.size());
    for (size_t c = 0; c < cells.size(); ++c) cursor[c] = cells[c].first[0];
    for (int t = 0; t < triCount; ++t) out.order[size_t(cursor[size_t(cellOf[size_t(t)])]++)] = t;
    for (size_t c = 0; c < cells.size(); ++c) cells[c].count[0] = cellTris[c];
  }
  cellOf = std::vector<int>();
  if (!report(0.1f)) return cancelled();

  // Cubes: level 1 from the vertices, each next level from the previous level's cubes (edges 2x,
  // nested, so a level-k cube is the union of whole level-(k-1) cubes).
  // Level-1 cubes per cell edge: 24 gives 3.8 m cubes on the 2 km world's 91 m cells (its
  // terrain grid is 2 m: finer cubes barely merge anything), keeping ~30 % of the triangles,
  // level 2 ~9 %, level 3 ~2.3 %.
  constexpr float kFirstDivisions = 24.0f;
  constexpr int kLevelRatio = 2;
  out.clusterSize[0] = 0.0f;
  out.clusterSize[1] = out.cellSize / kFirstDivisions;
  for (int k = 2; k < LevelLod::kLevels; ++k) out.clusterSize[k] = out.clusterSize[k - 1] * float(kLevelRatio);

  // Level k's triangles come from level k-1's (or the mesh's for k = 1): cubes are nested, so a
  // triangle collapsed or merged at one level is collapsed or merged at every coarser one.
  std::vector<int> vertCluster(static_cast<size_t>(vertCount)); // mesh vertex -> level-1 cube
  std::vector<int> parent;                                       // level k-1 cube -> level k cube
  std::vector<Cluster> clusters;
  struct Key {
    int a, b, c, source;
  };
  std::vector<Key> scratch;
  int prevBase = 0; // first index in out.verts of the previous level's cubes
  for (int k = 1; k < LevelLod::kLevels; ++k) {
    std::vector<Cluster> next;
    if (k == 1) {
      const double inv = 1.0 / double(out.clusterSize[1]);
      CubeMap map(size_t(vertCount) / 4 + 16);
      next.reserve(size_t(vertCount) / 4 + 16);
      for (int i = 0; i < vertCount; ++i) {
        const glm::vec3 p = mesh.vert(i);
        // Clamped in double before the conversion: a level 1e34 wide has cubes past int (UB).
        auto cube = [](double d) { return d > 0.0 ? int(std::min(d, double(kCoordMax))) : 0; };
        const int x = cube((p.x - mn.x) * inv), y = cube((p.y - mn.y) * inv), z = cube((p.z - mn.z) * inv);
        bool inserted = false;
        const int id = map.find(packKey(x, y, z), int(next.size()), inserted);
        if (inserted) next.push_back({x, y, z, glm::dvec3(0.0), 0});
        next[size_t(id)].sum += glm::dvec3(p);
        ++next[size_t(id)].n;
        vertCluster[size_t(i)] = id;
      }
    } else {
      CubeMap map(clusters.size() + 16);
      parent.assign(clusters.size(), 0);
      for (size_t i = 0; i < clusters.size(); ++i) {
        const Cluster& c = clusters[i];
        const int x = c.x / kLevelRatio, y = c.y / kLevelRatio, z = c.z / kLevelRatio;
        bool inserted = false;
        const int id = map.find(packKey(x, y, z), int(next.size()), inserted);
        if (inserted) next.push_back({x, y, z, glm::dvec3(0.0), 0});
        next[size_t(id)].sum += c.sum;
        next[size_t(id)].n += c.n;
        parent[i] = id;
      }
    }
    clusters = std::move(next);
    const int base = int(out.verts.size());
    out.verts.reserve(out.verts.size() + clusters.size());
    for (const Cluster& c : clusters) out.verts.push_back(glm::vec3(c.sum / double(std::max(1ll, c.n))));
    static_assert(LevelLod::kLevels == 4, "progress: a third of 0.1..1 per simplified level");
    const float levelBase = 0.1f + 0.3f * float(k - 1);
    if (!report(levelBase + 0.1f)) return cancelled();

    // Triangles of each cell: corners moved to their cubes; collapsed ones dropped, copies merged.
    const size_t prevEnd = out.tris.size(); // level k-1's triangles end here (k >= 2)
    (void)prevEnd;
    for (size_t ci = 0; ci < cells.size(); ++ci) {
      LevelLod::Cell& cell = cells[ci];
      scratch.clear();
      auto add = [&](int a, int b, int c, int source) {
        if (a == b || b == c || a == c) return;
        // Rotate the smallest first (the winding is kept): equal triangles get equal keys.
        if (b < a && b < c) std::swap(a, b), std::swap(b, c); // (b, c, a)
        else if (c < a && c < b) std::swap(a, c), std::swap(b, c); // (c, a, b)
        scratch.push_back({a, b, c, source});
      };
      if (k == 1) {
        for (int i = cell.first[0], e = cell.first[0] + cell.count[0]; i < e; ++i) {
          const int t = out.order[size_t(i)];
          add(vertCluster[size_t(tri[t * 3])], vertCluster[size_t(tri[t * 3 + 1])], vertCluster[size_t(tri[t * 3 + 2])], t);
        }
      } else {
        for (int i = cell.first[k - 1], e = cell.first[k - 1] + cell.count[k - 1]; i < e; ++i) {
          const LevelLod::Tri& t = out.tris[size_t(i)];
          add(parent[size_t(t.v[0] - prevBase)], parent[size_t(t.v[1] - prevBase)], parent[size_t(t.v[2] - prevBase)], t.source);
        }
      }
      std::sort(scratch.begin(), scratch.end(),
                [](const Key& l, const Key& r) { return l.a != r.a ? l.a < r.a : l.b != r.b ? l.b < r.b : l.c < r.c; });
      cell.first[k] = int(out.tris.size());
      const float s2 = out.clusterSize[k] * out.clusterSize[k];
      for (size_t i = 0; i < scratch.size(); ++i) {
        const Key& s = scratch[i];
        if (i > 0 && s.a == scratch[i - 1].a && s.b == scratch[i - 1].b && s.c == scratch[i - 1].c) continue;
        const glm::vec3 &pa = out.verts[size_t(base + s.a)], &pb = out.verts[size_t(base + s.b)], &pc = out.verts[size_t(base + s.c)];
        const glm::vec3 n = glm::cross(pb - pa, pc - pa);
        if (glm::dot(n, n) <= 1e-12f * s2 * s2) continue; // corners in a line: no area to draw
        out.tris.push_back({{base + s.a, base + s.b, base + s.c}, s.source});
      }
      cell.count[k] = int(out.tris.size()) - cell.first[k];
      if ((ci & 63) == 63 && !report(levelBase + 0.1f + 0.2f * float(ci) / float(cells.size()))) return cancelled();
    }
    prevBase = base;
  }
  for (size_t c = 0; c < cells.size(); ++c)
    if (cellTris[c] > 0) out.cells.push_back(cells[c]);
  if (!report(1.0f)) return cancelled();
  return true;
}

} // namespace navbench
