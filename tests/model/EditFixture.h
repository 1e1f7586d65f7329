// EditFixture.h: the level editing models on a copy of the default level, without the viewer:
// the bake runner (the level's input and settings), the open navmesh (its .bin), the one history
// and the level editor, wired as the Document wires them. Plus a byte fingerprint of each tile.
#pragma once

#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/BakeRunner.h"
#include "app/model/EditMessage.h"
#include "app/model/History.h"
#include "app/model/LevelEditor.h"
#include "nav/NavMesh.h"
#include "nav/NavAreas.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace navbench::test {

/// A fresh folder NAVBENCH_MODEL_TEST_TMP/tag holding a copy of the default level (OBJ, MTL,
/// level file and, when `withBin`, its baked .bin).
inline std::string defaultLevelCopy(const std::string& tag, bool withBin = true) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.mtl", "default.json", "default.bin"})
    if ((withBin || std::string(f) != "default.bin") && fs::exists(src / f)) fs::copy_file(src / f, dir / f);
  return dir.string();
}

/// A tile's content as bytes: its header counts and every section a bake writes (verts, polys
/// with their runtime link lists cleared, detail mesh, BV tree, off-mesh connections). Links are
/// left out: they depend on the order tiles were added, not on what the tile is.
inline std::string tileBytes(const nav::MeshTile& t) {
  const nav::MeshHeader& h = *t.header;
  std::string b;
  auto add = [&b](const void* p, size_t n) { b.append(static_cast<const char*>(p), n); };
  const int counts[] = {h.x, h.y, h.polyCount, h.vertCount, h.detailMeshCount, h.detailVertCount, h.detailTriCount,
                        h.bvNodeCount, h.offMeshConCount};
  add(counts, sizeof counts);
  add(h.bmin, sizeof h.bmin);
  add(h.bmax, sizeof h.bmax);
  add(t.verts, sizeof(float) * 3 * size_t(h.vertCount));
  for (int i = 0; i < h.polyCount; ++i) {
    nav::Poly p = t.polys[i];
    p.firstLink = 0;
    add(&p, sizeof p);
  }
  add(t.detailMeshes, sizeof(nav::PolyDetail) * size_t(h.detailMeshCount));
  add(t.detailVerts, sizeof(float) * 3 * size_t(h.detailVertCount));
  add(t.detailTris, 4 * size_t(h.detailTriCount));
  add(t.bvTree, sizeof(nav::BVNode) * size_t(h.bvNodeCount));
  add(t.offMeshCons, sizeof(nav::OffMeshConnection) * size_t(h.offMeshConCount));
  return b;
}

/// Every tile of `mesh` by grid cell.
inline std::map<std::pair<int, int>, std::string> meshBytes(const nav::NavMesh& mesh) {
  std::map<std::pair<int, int>, std::string> out;
  for (int i = 0; i < mesh.getMaxTiles(); ++i)
    if (const nav::MeshTile* t = mesh.getTile(i); t && t->header) out[{t->header->x, t->header->y}] = tileBytes(*t);
  return out;
}

/// A history client holding one value with its own undo list, as a tool keeps its start point.
template <class T>
struct ValueClient : HistoryClient {
  T value{};
  std::vector<T> done, undone; ///< Values before each change / before each undo.
  History* history = nullptr;
  /// A change: recorded in the client's list and pushed onto the history.
  void set(const T& v) {
    done.push_back(value);
    undone.clear();
    value = v;
    if (history) history->push(this);
  }
  void undo() override { moveLast(done, undone, [this](T& old) { std::swap(old, value); }); }
  void redo() override { moveLast(undone, done, [this](T& old) { std::swap(old, value); }); }
};

/// The editing models as the Document holds them, on a copy of the default level.
struct EditFixture {
  Log log;
  BakeRunner bake;
  NavState nav;
  History history;
  LevelEditor editor{bake, nav, log, history};
  std::string dir;
  int edited = 0; ///< navmeshEdited calls.

  /// Opens the copy in NAVBENCH_MODEL_TEST_TMP/tag: its OBJ (with the level file's settings,
  /// volumes and links) and its .bin.
  ::testing::AssertionResult open(const std::string& tag) {
    dir = defaultLevelCopy(tag);
    editor.navmeshEdited = [this]() { ++edited; };
    if (!bake.setSource(dir + "/default.obj", log)) return ::testing::AssertionFailure() << "bake input: " << lastLog();
    std::string why;
    if (!nav.loadBin(dir + "/default.bin", why)) return ::testing::AssertionFailure() << why;
    if (!editor.ready(&why)) return ::testing::AssertionFailure() << why;
    return ::testing::AssertionSuccess();
  }
  /// What an edit tool's model works on.
  EditContext context() { return {&editor, &nav, &log}; }
  std::string lastLog() const {
    const auto e = log.entries();
    return e.empty() ? std::string() : e.back().text;
  }
  /// Centre of ground poly `i` of the tile at (x, y) [Unit: wu]; false when there is none.
  bool polyCentre(int x, int y, int i, float* c) const {
    const nav::MeshTile* t = nav.mesh().getTileAt(x, y, 0);
    if (!t || !t->header || i >= t->header->polyCount - t->header->offMeshConCount) return false;
    const nav::Poly& p = t->polys[i];
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < p.vertCount; ++k)
      for (int j = 0; j < 3; ++j) c[j] += t->verts[p.verts[k] * 3 + j] / float(p.vertCount);
    return true;
  }
};

} // namespace navbench::test
