#include "app/NavState.h"

#include "app/DetailTris.h"

#include "app/TileCacheState.h"

#include "nav/TileSetFile.h"
#include "nav/NavAreas.h"

#include <cfloat>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

NavState::NavState() {
  nav::applyDefaultAreaCosts(m_filter);
  m_filter.setIncludeFlags(nav::FLAG_ALL ^ nav::FLAG_DISABLED);
  // Polys the Prune tool disabled keep their walk flags: the exclude flag is what keeps paths off them.
  m_filter.setExcludeFlags(nav::FLAG_DISABLED);
}

NavState::~NavState() = default;

bool NavState::loadTileCache(const std::string& path, std::string& error) {
  if (!fs::is_regular_file(path)) {
    error = path + ": no such file";
    return false;
  }
  auto tc = std::make_unique<TileCacheState>();
  if (!tc->open(path, error)) return false;
  m_tileCache = std::move(tc);
  m_tileCache->takeMesh(m_mesh);
  m_path = path;
  m_loaded = true;
  m_query.init(&m_mesh, m_maxNodes);
  return true;
}

bool NavState::loadBin(const std::string& path, std::string& error) {
  std::string why;
  if (!fs::is_regular_file(path)) {
    error = path + ": no such file";
    return false;
  }
  const nav::Status s = nav::loadTileSetFile(path, m_mesh, &why);
  if (nav::statusFailed(s)) {
    char buf[128];
    error = why.empty() ? path + ": cannot load tile set (" + nav::statusToString(s, buf, sizeof buf) + ")" : why;
    return false;
  }
  m_tileCache.reset();
  m_path = path;
  m_loaded = true;
  m_query.init(&m_mesh, m_maxNodes);
  return true;
}

void NavState::adopt(nav::NavMesh&& mesh, const std::string& name) {
  m_tileCache.reset();
  m_mesh.swap(mesh);
  m_path = name;
  m_loaded = true;
  m_query.init(&m_mesh, m_maxNodes);
}

void NavState::clear() {
  m_tileCache.reset();
  nav::NavMesh empty;
  m_mesh.swap(empty);
  m_loaded = false;
  m_path.clear();
}

void NavState::setMaxNodes(int n) {
  if (n == m_maxNodes) return;
  m_maxNodes = n;
  if (m_loaded) m_query.init(&m_mesh, m_maxNodes);
}

std::string NavState::contentKey() const {
  if (!m_loaded) return std::string();
  return m_path + "|" + std::to_string(polyCount()) + "|" + std::to_string(tileCount()) + "|" + std::to_string(m_edits);
}

int NavState::polyCount() const {
  int n = 0;
  for (int i = 0; i < m_mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = m_mesh.getTile(i);
    if (t && t->header) n += t->header->polyCount;
  }
  return n;
}

nav::PolyRef NavState::nearestPoly(const glm::vec3& p, glm::vec3* snapped) {
  if (!m_loaded) return 0;
  nav::PolyRef ref = 0;
  float pt[3] = {p.x, p.y, p.z};
  float out[3] = {p.x, p.y, p.z};
  m_query.findNearestPoly(pt, extents, &m_filter, &ref, out);
  if (snapped) *snapped = ref ? glm::vec3(out[0], out[1], out[2]) : p;
  return ref;
}

TriMesh NavState::detailMesh() const {
  TriMesh m;
  glm::vec3 mn(FLT_MAX), mx(-FLT_MAX);
  for (int ti = 0; ti < m_mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* tile = m_mesh.getTile(ti);
    if (!tile || !tile->header) continue;
    forEachDetailTri(*tile, [&](const float* const* tri) {
      for (int k = 0; k < 3; ++k) {
        const float* v = tri[k];
        m.tris.push_back(m.vertCount());
        m.verts.insert(m.verts.end(), v, v + 3);
        mn = glm::min(mn, glm::vec3(v[0], v[1], v[2]));
        mx = glm::max(mx, glm::vec3(v[0], v[1], v[2]));
      }
    });
  }
  m.polygonCount = m.triCount();
  if (!m.tris.empty()) {
    m.boundsMin = mn;
    m.boundsMax = mx;
  }
  return m;
}

std::string siblingBin(const std::string& levelPath) {
  fs::path p(levelPath);
  p.replace_extension(".bin");
  std::error_code ec;
  return fs::is_regular_file(p, ec) ? p.string() : std::string();
}

std::string siblingTileCache(const std::string& levelPath) {
  fs::path p(levelPath);
  p.replace_extension(".tcache");
  std::error_code ec;
  return fs::is_regular_file(p, ec) ? p.string() : std::string();
}

} // namespace navbench
