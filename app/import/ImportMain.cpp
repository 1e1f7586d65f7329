// ImportMain.cpp: `navbench-import IN OUT`, the scene importer's child process. Reads IN (FBX,
// Collada, 3DS, PLY, STL, ... anything Assimp reads) and writes its triangles and names to OUT
// (ImportFile.h), in metres, +Y up, world space. Assimp crashes on hostile files, so it runs alone
// in this process: the parent (SceneImport.h) turns a crash into a message.
//
// Stdout carries "progress N" lines (N of 1000) while Assimp reads, and on failure one line
// "error: <problem>" with exit status 2. Exit 0: OUT holds the mesh.
//
// What Assimp 5.2 applies itself, and what is done here (tests/bake/SceneImportTest.cpp checks):
//   Collada: <unit meter> and <up_axis> are applied by Assimp (to the root node): nothing here.
//   FBX: Assimp only reports GlobalSettings as scene metadata (AI_CONFIG_FBX_CONVERT_TO_M changes
//        nothing for these files), so here: UnitScaleFactor (centimetres per file unit) / 100 to
//        metres, and UpAxis/FrontAxis/CoordAxis (with signs) to X right, +Y up, +Z front.
//   Others (3DS, PLY, STL, ...): no unit or axis in the file that Assimp reports: taken as metres,
//        +Y up.
// A node whose transform mirrors (negative determinant, with the axis conversion) has its
// triangles' winding reversed, so a floor that faced up in the file faces up here.
// Transforms are composed in double from each matrix entry's shortest decimal (what the file
// said): Collada's 0.01 m unit reaches us as the float 0.01f, whose error alone would put a point
// written at -40 cm one float step off -0.4 m, and the twin's tile set would differ from its OBJ's.
#include "app/import/ImportFile.h"

#include <assimp/Importer.hpp>
#include <assimp/ProgressHandler.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

/// A 4x4 transform in double, row-major, points as columns (Assimp's convention).
struct Mat {
  double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  Mat operator*(const Mat& b) const {
    Mat r;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) r.m[i][j] = m[i][0] * b.m[0][j] + m[i][1] * b.m[1][j] + m[i][2] * b.m[2][j] + m[i][3] * b.m[3][j];
    return r;
  }
  void apply(const aiVector3D& p, float* out) const {
    for (int i = 0; i < 3; ++i) out[i] = float(m[i][0] * double(p.x) + m[i][1] * double(p.y) + m[i][2] * double(p.z) + m[i][3]);
  }
  double det3() const {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  }
};

/// The shortest decimal that reads back as `f`, as a double (0.01f -> 0.01).
double shortestDecimal(ai_real f) {
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, double(f));
    if (ai_real(std::strtod(buf, nullptr)) == f) return std::strtod(buf, nullptr);
  }
  return double(f);
}

Mat toMat(const aiMatrix4x4& a) {
  Mat r;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r.m[i][j] = shortestDecimal(a[i][j]);
  return r;
}

/// Ends the process now: the scene is freed with it (no teardown of a big scene, and no leak report
/// from a sanitizer build about Assimp's own allocations).
[[noreturn]] void finish(int status) {
  std::fflush(stdout);
  ::_exit(status);
}

[[noreturn]] void fail(const std::string& msg) {
  std::printf("error: %s\n", msg.c_str());
  finish(2);
}

/// Assimp's progress (0..1) as "progress N" lines of 1000, only when N changes.
class LineProgress : public Assimp::ProgressHandler {
public:
  bool Update(float percentage) override {
    if (!(percentage >= 0.f)) return true;
    const int n = int(std::min(1.f, percentage) * 1000.f);
    if (n != m_last) {
      std::printf("progress %d\n", n);
      std::fflush(stdout);
      m_last = n;
    }
    return true;
  }

private:
  int m_last = -1;
};

bool metaInt(const aiScene* scene, const char* key, int* v) {
  return scene->mMetaData && scene->mMetaData->Get(key, *v);
}

bool metaNumber(const aiScene* scene, const char* key, double* v) {
  if (!scene->mMetaData) return false;
  if (scene->mMetaData->Get(key, *v)) return true;
  float f = 0;
  if (!scene->mMetaData->Get(key, f)) return false;
  *v = f;
  return true;
}

/// The FBX file's units and axes -> metres, X right, +Y up, +Z front (NavBench's frame). The rows
/// of the axis part pick the file's CoordAxis, UpAxis and FrontAxis (each with its sign).
bool fbxCorrection(const aiScene* scene, Mat* out, std::string* why) {
  Mat m;
  int up = 1, upSign = 1, front = 2, frontSign = 1, coord = 0, coordSign = 1;
  const bool haveAxes = metaInt(scene, "UpAxis", &up) && metaInt(scene, "UpAxisSign", &upSign) &&
                        metaInt(scene, "FrontAxis", &front) && metaInt(scene, "FrontAxisSign", &frontSign) &&
                        metaInt(scene, "CoordAxis", &coord) && metaInt(scene, "CoordAxisSign", &coordSign);
  if (haveAxes) {
    const int axes[3] = {coord, up, front};
    const int signs[3] = {coordSign, upSign, frontSign};
    bool used[3] = {false, false, false};
    for (int r = 0; r < 3; ++r) {
      if (axes[r] < 0 || axes[r] > 2 || used[axes[r]] || (signs[r] != 1 && signs[r] != -1)) {
        *why = "the FBX GlobalSettings name no valid axis system (UpAxis " + std::to_string(up) + ", FrontAxis " +
               std::to_string(front) + ", CoordAxis " + std::to_string(coord) + ")";
        return false;
      }
      used[axes[r]] = true;
      for (int c = 0; c < 3; ++c) m.m[r][c] = c == axes[r] ? signs[r] : 0;
    }
  }
  double unit = 1.0; // FBX default: centimetres
  if (metaNumber(scene, "UnitScaleFactor", &unit) && !(std::isfinite(unit) && unit > 0)) {
    *why = "the FBX GlobalSettings give UnitScaleFactor " + std::to_string(unit) + " (centimetres per unit must be > 0)";
    return false;
  }
  Mat scale;
  for (int i = 0; i < 3; ++i) scale.m[i][i] = unit / 100.0;
  *out = scale * m;
  return true;
}

bool isFbx(const aiScene* scene) {
  aiString format;
  return scene->mMetaData && scene->mMetaData->Get("SourceAsset_Format", format) && std::strstr(format.C_Str(), "FBX");
}

struct Walk {
  const aiScene* scene;
  nav::bake::LevelMesh out;
  std::map<std::tuple<std::string, std::string, std::string>, uint32_t> groupIndex;
  long long skipped = 0; ///< points and lines (Triangulate leaves them as 1- and 2-index faces)

  uint32_t group(const std::string& node, const std::string& mesh, const std::string& material) {
    auto key = std::make_tuple(node, mesh, material);
    auto it = groupIndex.find(key);
    if (it != groupIndex.end()) return it->second;
    const uint32_t i = uint32_t(out.groups.size());
    out.groups.push_back({node, mesh, material});
    groupIndex.emplace(std::move(key), i);
    return i;
  }

  bool addMesh(const aiNode* node, const aiMesh* mesh, const Mat& world, std::string* why) {
    const size_t base = out.verts.size() / 3;
    if (base + mesh->mNumVertices > size_t(INT_MAX)) {
      *why = "more than " + std::to_string(INT_MAX) + " vertices";
      return false;
    }
    std::string material;
    if (mesh->mMaterialIndex < scene->mNumMaterials && scene->mMaterials[mesh->mMaterialIndex]) {
      material = scene->mMaterials[mesh->mMaterialIndex]->GetName().C_Str();
      if (material == AI_DEFAULT_MATERIAL_NAME) material.clear(); // Assimp's, not the file's
    }
    const uint32_t g = group(node->mName.C_Str(), mesh->mName.C_Str(), material);
    out.verts.resize(out.verts.size() + 3 * size_t(mesh->mNumVertices));
    for (unsigned i = 0; i < mesh->mNumVertices; ++i) world.apply(mesh->mVertices[i], &out.verts[3 * (base + i)]);
    const bool mirrored = world.det3() < 0;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) {
        ++skipped;
        continue;
      }
      int t[3];
      for (int k = 0; k < 3; ++k) {
        if (face.mIndices[k] >= mesh->mNumVertices) {
          *why = "mesh '" + std::string(mesh->mName.C_Str()) + "' face " + std::to_string(f) + " names vertex " +
                 std::to_string(face.mIndices[k]) + " of " + std::to_string(mesh->mNumVertices);
          return false;
        }
        t[k] = int(base + face.mIndices[k]);
      }
      if (mirrored) std::swap(t[1], t[2]);
      out.tris.insert(out.tris.end(), t, t + 3);
      out.triGroup.push_back(g);
    }
    return true;
  }

  /// Every node's meshes in world space: `root` * the node's transforms from the root down.
  bool run(const Mat& root, std::string* why) {
    std::vector<std::pair<const aiNode*, Mat>> stack{{scene->mRootNode, root * toMat(scene->mRootNode->mTransformation)}};
    while (!stack.empty()) {
      const auto [node, world] = stack.back();
      stack.pop_back();
      for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] >= scene->mNumMeshes) {
          *why = "node '" + std::string(node->mName.C_Str()) + "' names mesh " + std::to_string(node->mMeshes[i]) + " of " +
                 std::to_string(scene->mNumMeshes);
          return false;
        }
        if (!addMesh(node, scene->mMeshes[node->mMeshes[i]], world, why)) return false;
      }
      for (unsigned c = node->mNumChildren; c-- > 0;) // reversed: children come off the stack in order
        if (node->mChildren[c]) stack.emplace_back(node->mChildren[c], world * toMat(node->mChildren[c]->mTransformation));
    }
    return true;
  }
};

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: navbench-import IN OUT\n"
                         "  reads the scene IN (FBX, Collada, 3DS, PLY, STL, ...) and writes its triangles and names\n"
                         "  to OUT for navbench (app/import/ImportFile.h); run by navbench, not by hand\n");
    return 1;
  }
  // Tests only: how the parent copes with an importer that dies or hangs.
  if (const char* t = std::getenv("NAVBENCH_IMPORT_TEST_CRASH")) {
    if (std::strcmp(t, "hang") == 0)
      for (;;) ::pause();
    std::signal(SIGSEGV, SIG_DFL); // a real death by signal, even under a sanitizer's handler
    std::raise(SIGSEGV);
  }
  const std::string in = argv[1], outPath = argv[2];

  Assimp::Importer importer;
  importer.SetProgressHandler(new LineProgress()); // the importer owns it
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false); // no "$AssimpFbx$" helper nodes
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, true); // names, not ids
  const aiScene* scene = importer.ReadFile(in, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene) fail(importer.GetErrorString());
  if (!scene->mRootNode) fail("the scene has no nodes");

  std::string why;
  Mat root; // identity: Assimp already converted (Collada) or the format has no units/axes
  if (isFbx(scene) && !fbxCorrection(scene, &root, &why)) fail(why);
  Walk walk{scene, {}, {}};
  if (!walk.run(root, &why)) fail(why);
  if (walk.out.tris.empty())
    fail(walk.skipped ? "only points and lines, no triangles (" + std::to_string(walk.skipped) + " skipped)"
                             : std::string("no triangles in the scene"));
  if (!navbench::import::writeImportFile(outPath, walk.out, &why)) fail(why);
  finish(0);
}
