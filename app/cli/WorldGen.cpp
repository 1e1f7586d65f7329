#include "app/cli/WorldGen.h"

#include "nav/base/AtomicFile.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace navbench::worldgen {
namespace {

// splitmix64: the only randomness (std distributions are implementation-defined).
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
double hash01(uint64_t seed, int64_t a, int64_t b, uint64_t salt) {
  const uint64_t h = mix(seed ^ mix(uint64_t(a) * 0x100000001B3ull ^ mix(uint64_t(b) + salt * 0x51ED27ull)));
  return double(h >> 11) * (1.0 / 9007199254740992.0);
}
float smooth01(float t) {
  t = std::min(1.0f, std::max(0.0f, t));
  return t * t * (3.0f - 2.0f * t);
}
// Smooth value noise in [0, 1) with the given wavelength.
float valueNoise(uint64_t seed, uint64_t salt, float x, float z, float wavelength) {
  const float fx = x / wavelength, fz = z / wavelength;
  const float ix = std::floor(fx), iz = std::floor(fz);
  const float tx = smooth01(fx - ix), tz = smooth01(fz - iz);
  const int64_t i = int64_t(ix), k = int64_t(iz);
  const float a = float(hash01(seed, i, k, salt)), b = float(hash01(seed, i + 1, k, salt));
  const float c = float(hash01(seed, i, k + 1, salt)), d = float(hash01(seed, i + 1, k + 1, salt));
  return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * tz;
}

constexpr float DISTRICT = 256.0f; // city district cell [m]
constexpr float FADE = 24.0f;      // hills -> flat city over this distance [m]
constexpr float BLOCK = 50.0f, STREET = 12.0f, BLOCK_START = 30.0f;
constexpr float FLOOR_H = 4.0f, WALL_T = 0.4f, SLAB_T = 0.15f;
constexpr float RIVER_DEPTH = 8.0f, RIVER_BED = 12.0f, RIVER_BANK = 30.0f;

int districtCount(const WorldParams& p) { return std::max(1, int(std::ceil(p.size / DISTRICT))); }
bool isCity(const WorldParams& p, int dx, int dz) {
  const int n = districtCount(p);
  const int c = std::min(n - 1, int(p.size * 0.5f / DISTRICT));
  if (dx == c && dz == c) return true;
  return hash01(p.seed, dx, dz, 7) < 0.45;
}
float riverZ(const WorldParams& p, float x) {
  return p.size * (0.3f + 0.4f * float(hash01(p.seed, 0, 0, 11))) + 20.0f * std::sin(x / 90.0f);
}
float riverDist(const WorldParams& p, float x, float z) { return std::fabs(z - riverZ(p, x)); }

// 1 inside a city district's flat core, fading to 0 over FADE at its border.
float cityMask(const WorldParams& p, float x, float z) {
  const int dx = int(std::floor(x / DISTRICT)), dz = int(std::floor(z / DISTRICT));
  if (!isCity(p, dx, dz)) return 0.0f;
  const float lx = x - float(dx) * DISTRICT, lz = z - float(dz) * DISTRICT;
  const float inner = std::min(std::min(lx, DISTRICT - lx), std::min(lz, DISTRICT - lz));
  return smooth01(inner / FADE);
}

class ObjWriter {
public:
  explicit ObjWriter(std::FILE* f) : m_f(f) { m_buf.reserve(1 << 16); }
  uint64_t vertex(float x, float y, float z) {
    char line[96];
    const int n = std::snprintf(line, sizeof line, "v %.3f %.3f %.3f\n", double(x), double(y), double(z));
    put(line, n);
    return ++m_verts;
  }
  void tri(uint64_t a, uint64_t b, uint64_t c) {
    char line[96];
    const int n = std::snprintf(line, sizeof line, "f %llu %llu %llu\n", (unsigned long long)a,
                                (unsigned long long)b, (unsigned long long)c);
    put(line, n);
    ++m_tris;
  }
  void comment(const char* text) {
    put("# ", 2);
    put(text, int(std::strlen(text)));
    put("\n", 1);
  }
  /// A hexahedron: corners (x,z) in order (x0,z0),(x0,z1),(x1,z1),(x1,z0); bottom/top heights per corner.
  void hexa(const float* xs, const float* zs, const float* yb, const float* yt) {
    uint64_t v[8];
    for (int i = 0; i < 4; ++i) v[i] = vertex(xs[i], yb[i], zs[i]);
    for (int i = 0; i < 4; ++i) v[4 + i] = vertex(xs[i], yt[i], zs[i]);
    tri(v[4], v[5], v[6]); // top (+y)
    tri(v[4], v[6], v[7]);
    tri(v[0], v[2], v[1]); // bottom (-y)
    tri(v[0], v[3], v[2]);
    for (int i = 0; i < 4; ++i) {
      const int j = (i + 1) % 4;
      tri(v[i], v[4 + j], v[j]);
      tri(v[i], v[4 + i], v[4 + j]);
    }
  }
  void box(float x0, float y0, float z0, float x1, float y1, float z1) {
    if (x1 - x0 <= 0.01f || z1 - z0 <= 0.01f || y1 - y0 <= 0.001f) return;
    const float xs[4] = {x0, x0, x1, x1}, zs[4] = {z0, z1, z1, z0};
    const float yb[4] = {y0, y0, y0, y0}, yt[4] = {y1, y1, y1, y1};
    hexa(xs, zs, yb, yt);
  }
  bool flush() {
    if (!m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_f) != m_buf.size()) m_failed = true;
    m_buf.clear();
    return !m_failed;
  }
  uint64_t verts() const { return m_verts; }
  uint64_t tris() const { return m_tris; }

private:
  void put(const char* s, int n) {
    m_buf.append(s, size_t(n));
    if (m_buf.size() > (1 << 16) - 128) flush();
  }
  std::FILE* m_f;
  std::string m_buf;
  uint64_t m_verts = 0, m_tris = 0;
  bool m_failed = false;
};

void writeTerrain(const WorldParams& p, ObjWriter& w) {
  w.comment("terrain");
  const int n = std::max(1, int(std::lround(p.size / p.terrainCell)));
  const float step = p.size / float(n);
  const uint64_t base = w.verts() + 1;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const float x = float(i) * step, z = float(j) * step;
      w.vertex(x, terrainHeight(p, x, z), z);
    }
  const uint64_t row = uint64_t(n) + 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const uint64_t a = base + uint64_t(i) * row + uint64_t(j), b = a + 1, d = a + row, c = d + 1;
      w.tri(a, b, c);
      w.tri(a, c, d);
    }
}

// One building on flat ground (y = 0) at (x0, z0), w x d, with `floors` floors.
void writeBuilding(ObjWriter& w, float x0, float z0, float wx, float dz, int floors) {
  const float x1 = x0 + wx, z1 = z0 + dz, top = float(floors) * FLOOR_H;
  const float t = WALL_T;
  w.box(x0, 0.0f, z0, x1, SLAB_T, z1); // ground slab
  // Outer walls; the front (z0) has a 2 m x 2.6 m door in its middle.
  const float xc = x0 + wx * 0.5f;
  w.box(x0, 0.0f, z0, xc - 1.0f, top, z0 + t);
  w.box(xc + 1.0f, 0.0f, z0, x1, top, z0 + t);
  w.box(xc - 1.0f, 2.6f, z0, xc + 1.0f, top, z0 + t);
  w.box(x0, 0.0f, z1 - t, x1, top, z1);
  w.box(x0, 0.0f, z0 + t, x0 + t, top, z1 - t);
  w.box(x1 - t, 0.0f, z0 + t, x1, top, z1 - t);
  // Ground-floor partition with a door in its middle.
  const float px = x0 + wx * 0.55f, zm = z0 + dz * 0.5f;
  w.box(px, 0.0f, z0 + t, px + t, FLOOR_H, zm - 1.0f);
  w.box(px, 0.0f, zm + 1.0f, px + t, FLOOR_H, z1 - t);
  w.box(px, 2.6f, zm - 1.0f, px + t, FLOOR_H, zm + 1.0f);
  // Ramps (30 degrees) in two corridors along the back wall, alternating direction per floor;
  // the slab above each ramp has an opening over it.
  const float len = FLOOR_H / std::tan(30.0f * 3.14159265f / 180.0f);
  const float rx0 = x0 + t + 0.6f, rx1 = rx0 + len;
  const float cz[2][2] = {{z1 - t - 2.0f, z1 - t}, {z1 - t - 4.2f, z1 - t - 2.2f}};
  for (int f = 0; f + 1 < floors; ++f) {
    const float yb = float(f) * FLOOR_H + SLAB_T;
    const float* c = cz[f % 2];
    const float xs[4] = {rx0, rx0, rx1, rx1}, zs[4] = {c[0], c[1], c[1], c[0]};
    const float ybot[4] = {yb, yb, yb, yb};
    const bool up = f % 2 == 0; // corridor 0 rises towards +x, corridor 1 towards -x
    const float lo = yb + 0.02f, hi = yb + FLOOR_H;
    const float ytop[4] = {up ? lo : hi, up ? lo : hi, up ? hi : lo, up ? hi : lo};
    w.hexa(xs, zs, ybot, ytop);
    // Slab of floor f+1 with the opening over this ramp.
    const float y = float(f + 1) * FLOOR_H;
    w.box(x0 + t, y, z0 + t, x1 - t, y + SLAB_T, c[0]);
    w.box(x0 + t, y, c[1], x1 - t, y + SLAB_T, z1 - t);
    w.box(x0 + t, y, c[0], rx0, y + SLAB_T, c[1]);
    w.box(rx1, y, c[0], x1 - t, y + SLAB_T, c[1]);
  }
  w.box(x0, top, z0, x1, top + SLAB_T, z1); // roof
}

} // namespace

float terrainHeight(const WorldParams& p, float x, float z) {
  const float hills = 30.0f * (valueNoise(p.seed, 1, x, z, 160.0f) - 0.5f) +
                      8.0f * (valueNoise(p.seed, 2, x, z, 45.0f) - 0.5f);
  const float m = cityMask(p, x, z);
  float h = hills * (1.0f - m);
  const float d = riverDist(p, x, z);
  h -= RIVER_DEPTH * (1.0f - smooth01((d - RIVER_BED) / (RIVER_BANK - RIVER_BED)));
  return h;
}

bool writeWorldObj(const WorldParams& p, const std::string& path, WorldStats* stats, std::string* why) {
  if (!(p.size >= 32.0f && p.size <= 8192.0f) || !(p.terrainCell >= 0.5f && p.terrainCell <= 16.0f)) {
    if (why) *why = path + ": world size must be 32..8192 m and terrain cell 0.5..16 m";
    return false;
  }
  base::AtomicFile out(path); // temp file + rename: a failed write leaves the old file
  std::string err;
  if (!out.open(err)) {
    if (why) *why = err;
    return false;
  }
  std::FILE* f = out.file();
  WorldStats st;
  ObjWriter w(f);
  {
    char head[160];
    std::snprintf(head, sizeof head, "navbench worldgen: size %.1f m, seed %llu, terrain cell %.2f m",
                  double(p.size), (unsigned long long)p.seed, double(p.terrainCell));
    w.comment(head);
  }
  writeTerrain(p, w);

  // City blocks.
  w.comment("buildings");
  const int nd = districtCount(p);
  for (int dx = 0; dx < nd; ++dx)
    for (int dz = 0; dz < nd; ++dz) {
      if (!isCity(p, dx, dz)) continue;
      ++st.districts;
      for (int bi = 0; bi < 3; ++bi)
        for (int bk = 0; bk < 3; ++bk) {
          const float bx = float(dx) * DISTRICT + BLOCK_START + float(bi) * (BLOCK + STREET);
          const float bz = float(dz) * DISTRICT + BLOCK_START + float(bk) * (BLOCK + STREET);
          if (bx + BLOCK > p.size - 1.0f || bz + BLOCK > p.size - 1.0f) continue;
          bool nearRiver = false;
          for (int s = 0; s <= 10 && !nearRiver; ++s) {
            const float x = bx + BLOCK * float(s) / 10.0f;
            const float rz = riverZ(p, x);
            if (rz > bz - RIVER_BANK - 4.0f && rz < bz + BLOCK + RIVER_BANK + 4.0f) nearRiver = true;
          }
          if (nearRiver) continue;
          for (int lot = 0; lot < 4; ++lot) {
            const int64_t key = int64_t(dx) * 1000003 + dz * 1009 + bi * 31 + bk * 7 + lot;
            if (hash01(p.seed, key, 0, 21) > 0.8) continue;
            const float lx = bx + float(lot % 2) * (BLOCK * 0.5f), lz = bz + float(lot / 2) * (BLOCK * 0.5f);
            const float wx = 16.0f + 7.0f * float(hash01(p.seed, key, 1, 22));
            const float dzs = 14.0f + 9.0f * float(hash01(p.seed, key, 2, 23));
            const int floors = 1 + int(hash01(p.seed, key, 3, 24) * 4.0);
            const float ox = lx + 1.0f + (BLOCK * 0.5f - 2.0f - wx) * float(hash01(p.seed, key, 4, 25));
            const float oz = lz + 1.0f + (BLOCK * 0.5f - 2.0f - dzs) * float(hash01(p.seed, key, 5, 26));
            writeBuilding(w, ox, oz, wx, dzs, floors);
            ++st.buildings;
          }
        }
    }

  // Bridges over the river, along z, every ~150 m.
  w.comment("bridges");
  for (int k = 0;; ++k) {
    const float xb = 75.0f + float(k) * 150.0f + 40.0f * (float(hash01(p.seed, k, 0, 31)) - 0.5f);
    if (xb > p.size - 20.0f) break;
    const float rz = riverZ(p, xb), za = rz - 34.0f, zb = rz + 34.0f;
    if (za < 2.0f || zb > p.size - 2.0f) continue;
    float ha = -1e9f, hb = -1e9f;
    for (int s = -1; s <= 1; ++s) {
      ha = std::max(ha, terrainHeight(p, xb + 3.0f * float(s), za));
      hb = std::max(hb, terrainHeight(p, xb + 3.0f * float(s), zb));
    }
    ha += 0.2f;
    hb += 0.2f;
    if (std::fabs(hb - ha) / (zb - za) > 0.35f || ha < -RIVER_DEPTH + 4.0f || hb < -RIVER_DEPTH + 4.0f) continue;
    const float xs[4] = {xb - 3.0f, xb - 3.0f, xb + 3.0f, xb + 3.0f}, zs[4] = {za, zb, zb, za};
    const float yt[4] = {ha, hb, hb, ha}, yb[4] = {ha - 0.6f, hb - 0.6f, hb - 0.6f, ha - 0.6f};
    w.hexa(xs, zs, yb, yt);
    for (int side = 0; side < 2; ++side) { // railings
      const float rx0 = side ? xb + 2.7f : xb - 3.0f, rx1 = rx0 + 0.3f;
      const float rxs[4] = {rx0, rx0, rx1, rx1};
      const float rt[4] = {ha + 1.1f, hb + 1.1f, hb + 1.1f, ha + 1.1f};
      w.hexa(rxs, zs, yt, rt);
    }
    ++st.bridges;
  }

  if (!w.flush() || !out.commit(err)) {
    if (why) *why = err.empty() ? path + ": write failed (disk full?); the previous file is unchanged" : err;
    return false;
  }
  st.vertices = w.verts();
  st.triangles = w.tris();
  if (stats) *stats = st;
  return true;
}

} // namespace navbench::worldgen
