#include "app/import/ImportFile.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace navbench::import {

namespace {

constexpr char MAGIC[8] = {'N', 'B', 'I', 'M', 'P', 'R', 'T', '1'};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// A bounds-checked cursor over the whole file in memory.
struct Reader {
  const char* p;
  size_t left;
  bool take(void* dst, size_t n) {
    if (n > left) return false;
    std::memcpy(dst, p, n);
    p += n;
    left -= n;
    return true;
  }
  bool u32(uint32_t* v) { return take(v, sizeof *v); }
};

} // namespace

bool writeImportFile(const std::string& path, const nav::bake::LevelMesh& mesh, std::string* why) {
  File f(std::fopen(path.c_str(), "wb"));
  if (!f) {
    if (why) *why = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  const uint32_t counts[3] = {uint32_t(mesh.verts.size() / 3), uint32_t(mesh.tris.size() / 3), uint32_t(mesh.groups.size())};
  bool ok = std::fwrite(MAGIC, 1, sizeof MAGIC, f.get()) == sizeof MAGIC && std::fwrite(counts, sizeof counts, 1, f.get()) == 1;
  ok = ok && std::fwrite(mesh.verts.data(), sizeof(float), mesh.verts.size(), f.get()) == mesh.verts.size();
  ok = ok && std::fwrite(mesh.tris.data(), sizeof(int), mesh.tris.size(), f.get()) == mesh.tris.size();
  if (!mesh.groups.empty())
    ok = ok && std::fwrite(mesh.triGroup.data(), sizeof(uint32_t), mesh.triGroup.size(), f.get()) == mesh.triGroup.size();
  for (const nav::bake::MeshGroup& g : mesh.groups) {
    for (const std::string* s : {&g.node, &g.mesh, &g.material}) {
      const uint32_t n = uint32_t(s->size());
      ok = ok && std::fwrite(&n, sizeof n, 1, f.get()) == 1 && std::fwrite(s->data(), 1, n, f.get()) == n;
    }
  }
  ok = ok && std::fflush(f.get()) == 0;
  if (!ok && why) *why = "cannot write " + path + ": " + std::strerror(errno);
  return ok;
}

bool readImportFile(const std::string& path, nav::bake::LevelMesh* out, std::string* why) {
  auto fail = [why](const std::string& msg) {
    if (why) *why = msg;
    return false;
  };
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return fail("cannot read the importer's output " + path + ": " + std::strerror(errno));
  std::string bytes;
  char buf[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) bytes.append(buf, n);
  if (std::ferror(f.get())) return fail("cannot read the importer's output " + path + ": " + std::strerror(errno));

  Reader r{bytes.data(), bytes.size()};
  char magic[sizeof MAGIC];
  uint32_t nv = 0, nt = 0, ng = 0;
  if (!r.take(magic, sizeof magic) || std::memcmp(magic, MAGIC, sizeof MAGIC) != 0 || !r.u32(&nv) || !r.u32(&nt) || !r.u32(&ng))
    return fail("the importer's output has no valid header");
  // Each count is bounded by the bytes left before anything is allocated.
  const uint64_t need = 12ull * nv + 12ull * nt + (ng ? 4ull * nt : 0) + 12ull * ng;
  if (need > r.left) return fail("the importer's output is shorter than its counts say");
  nav::bake::LevelMesh m;
  m.verts.resize(size_t(nv) * 3);
  m.tris.resize(size_t(nt) * 3);
  r.take(m.verts.data(), m.verts.size() * sizeof(float));
  std::vector<uint32_t> idx(size_t(nt) * 3);
  r.take(idx.data(), idx.size() * sizeof(uint32_t));
  for (size_t i = 0; i < m.verts.size(); ++i)
    if (!std::isfinite(m.verts[i])) return fail("vertex " + std::to_string(i / 3 + 1) + " is not a finite position");
  for (size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] >= nv) return fail("triangle " + std::to_string(i / 3 + 1) + " names vertex " + std::to_string(idx[i]) + " of " + std::to_string(nv));
    m.tris[i] = int(idx[i]);
  }
  if (ng) {
    m.triGroup.resize(nt);
    r.take(m.triGroup.data(), m.triGroup.size() * sizeof(uint32_t));
    for (uint32_t g : m.triGroup)
      if (g >= ng) return fail("a triangle names group " + std::to_string(g) + " of " + std::to_string(ng));
    m.groups.resize(ng);
    for (nav::bake::MeshGroup& g : m.groups) {
      for (std::string* s : {&g.node, &g.mesh, &g.material}) {
        uint32_t len = 0;
        if (!r.u32(&len) || len > r.left) return fail("the importer's output ends inside a name");
        s->assign(r.p, len);
        r.p += len;
        r.left -= len;
      }
    }
  }
  if (r.left != 0) return fail("the importer's output has " + std::to_string(r.left) + " bytes after its end");
  *out = std::move(m);
  return true;
}

} // namespace navbench::import
