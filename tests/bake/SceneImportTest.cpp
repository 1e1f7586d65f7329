// Scene files through navbench-import (app/import/): FBX and Collada twins of the default level
// bake as their OBJ does, PLY and STL read, and an importer that crashes, hangs or reads a broken
// file becomes a message naming the file (exit 2 from `navbench bake`), never a crash here.
//
// The twins are generated from assets/levels/default.obj (metres, +Y up), one node per OBJ group:
//   FBX as Blender writes it: UnitScaleFactor 1 (centimetres), Y up, and on every model the
//       -90 degree X rotation and x100 scale Blender's "Apply Scalings: All Local" puts on, over
//       vertices in Blender's metres, Z up;
//   FBX as 3ds Max writes it: UnitScaleFactor 1, Z up (UpAxis 2, FrontAxis -Y), vertices in cm;
//   Collada in centimetres and Z up (<unit meter="0.01"/>, <up_axis>Z_UP</up_axis>).
#include "BakeCliRun.h"
#include "BakeTestUtil.h"
#include "app/import/ImportFile.h"
#include "app/import/SceneImport.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace {

using nav::bake::LevelMesh;

std::string tempPath(const std::string& name) {
  return baketest::processTempPath(testing::TempDir(), "navbench_sceneimport", name);
}

void useImporter() { navbench::import::installSceneImporter(NAVBENCH_IMPORT_EXE); }

/// `navbench bake ARGS...` in this process; its stderr in `err`.
int runBake(std::vector<std::string> args, std::string* err = nullptr) {
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  const int rc = baketest::runBakeCli(std::move(args));
  testing::internal::GetCapturedStdout();
  const std::string e = testing::internal::GetCapturedStderr();
  if (err) *err = e;
  return rc;
}

/// The default level's triangles with the OBJ group and material of each (fan-triangulated as
/// loadObj does; checked against it).
struct NamedObj {
  std::vector<float> verts;
  std::vector<int> tris;
  std::vector<std::pair<std::string, std::string>> triNames; ///< (g, usemtl) per triangle
};

NamedObj readDefaultObj() {
  NamedObj o;
  std::ifstream in(baketest::defaultObj());
  std::string line, group, material;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string tag;
    ss >> tag;
    if (tag == "v") {
      float x, y, z;
      ss >> x >> y >> z;
      o.verts.insert(o.verts.end(), {x, y, z});
    } else if (tag == "g") {
      ss >> group;
    } else if (tag == "usemtl") {
      ss >> material;
    } else if (tag == "f") {
      std::vector<int> f;
      int i;
      while (ss >> i) f.push_back(i - 1);
      for (size_t k = 2; k < f.size(); ++k) {
        o.tris.insert(o.tris.end(), {f[0], f[k - 1], f[k]});
        o.triNames.emplace_back(group, material);
      }
    }
  }
  return o;
}

/// The triangles of each (group, material), in the OBJ's order, with their own vertex list.
struct Part {
  std::string group, material;
  std::vector<float> verts; ///< metres, +Y up
  std::vector<int> tris;
};

std::vector<Part> partsOf(const NamedObj& o) {
  std::vector<Part> parts;
  std::map<std::pair<std::string, std::string>, size_t> index;
  std::vector<std::map<int, int>> local;
  for (size_t t = 0; t < o.triNames.size(); ++t) {
    auto it = index.find(o.triNames[t]);
    if (it == index.end()) {
      it = index.emplace(o.triNames[t], parts.size()).first;
      parts.push_back({o.triNames[t].first, o.triNames[t].second, {}, {}});
      local.emplace_back();
    }
    Part& p = parts[it->second];
    for (int k = 0; k < 3; ++k) {
      const int v = o.tris[3 * t + k];
      auto [slot, added] = local[it->second].emplace(v, int(p.verts.size() / 3));
      if (added) p.verts.insert(p.verts.end(), {o.verts[3 * v], o.verts[3 * v + 1], o.verts[3 * v + 2]});
      p.tris.push_back(slot->second);
    }
  }
  return parts;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

enum class FbxStyle { Blender, Max };

/// An ASCII FBX 7.4 of `parts`: one Model + Geometry + Material each (materials shared by name).
std::string fbxText(const std::vector<Part>& parts, FbxStyle style) {
  std::ostringstream f;
  const bool blender = style == FbxStyle::Blender;
  f << "; FBX 7.4.0 project file\n"
       "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n\tCreator: \"navbench test\"\n}\n"
       "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n";
  const int axes[6] = {blender ? 1 : 2, 1, blender ? 2 : 1, blender ? 1 : -1, 0, 1}; // up, sign, front, sign, coord, sign
  const char* names[6] = {"UpAxis", "UpAxisSign", "FrontAxis", "FrontAxisSign", "CoordAxis", "CoordAxisSign"};
  for (int i = 0; i < 6; ++i) f << "\t\tP: \"" << names[i] << "\", \"int\", \"Integer\", \"\"," << axes[i] << "\n";
  f << "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1\n"
       "\t\tP: \"OriginalUnitScaleFactor\", \"double\", \"Number\", \"\",1\n\t}\n}\nObjects:  {\n";
  std::map<std::string, int> materials;
  std::ostringstream conn;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    const int geom = 1000 + int(i), model = 100000 + int(i);
    f << "\tGeometry: " << geom << ", \"Geometry::" << p.group << "_mesh\", \"Mesh\" {\n\t\tVertices: *" << p.verts.size()
      << " {\n\t\t\ta: ";
    for (size_t v = 0; v < p.verts.size(); v += 3) {
      const double x = p.verts[v], y = p.verts[v + 1], z = p.verts[v + 2];
      // Blender: metres, Z up (x, -z, y); 3ds Max: the same axes in centimetres.
      const double s = blender ? 1.0 : 100.0;
      f << (v ? "," : "") << num(s * x) << "," << num(-s * z) << "," << num(s * y);
    }
    f << "\n\t\t}\n\t\tPolygonVertexIndex: *" << p.tris.size() << " {\n\t\t\ta: ";
    for (size_t t = 0; t < p.tris.size(); t += 3)
      f << (t ? "," : "") << p.tris[t] << "," << p.tris[t + 1] << "," << -p.tris[t + 2] - 1;
    // One material for the whole geometry, as Blender writes it (its LayerElementMaterial and Layer).
    f << "\n\t\t}\n\t\tGeometryVersion: 124\n\t\tLayerElementMaterial: 0 {\n\t\t\tVersion: 101\n\t\t\tName: \"\"\n"
         "\t\t\tMappingInformationType: \"AllSame\"\n\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
         "\t\t\tMaterials: *1 {\n\t\t\t\ta: 0\n\t\t\t}\n\t\t}\n\t\tLayer: 0 {\n\t\t\tVersion: 100\n"
         "\t\t\tLayerElement:  {\n\t\t\t\tType: \"LayerElementMaterial\"\n\t\t\t\tTypedIndex: 0\n\t\t\t}\n\t\t}\n\t}\n";
    f << "\tModel: " << model << ", \"Model::" << p.group << "\", \"Mesh\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n";
    if (blender)
      f << "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",-90,0,0\n"
           "\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",100,100,100\n";
    f << "\t\t}\n\t\tShading: T\n\t\tCulling: \"CullingOff\"\n\t}\n";
    auto [m, added] = materials.emplace(p.material, 200000 + int(materials.size()));
    if (added)
      f << "\tMaterial: " << m->second << ", \"Material::" << p.material
        << "\", \"\" {\n\t\tVersion: 102\n\t\tShadingModel: \"phong\"\n\t\tMultiLayer: 0\n\t}\n";
    conn << "\tC: \"OO\"," << model << ",0\n\tC: \"OO\"," << geom << "," << model << "\n\tC: \"OO\"," << m->second << ","
         << model << "\n";
  }
  f << "}\nConnections:  {\n" << conn.str() << "}\n";
  return f.str();
}

/// A Collada 1.4.1 file of `parts` in centimetres, Z up: one node + geometry each.
std::string colladaText(const std::vector<Part>& parts) {
  std::ostringstream d;
  d << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
       "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
       "  <asset><unit name=\"centimeter\" meter=\"0.01\"/><up_axis>Z_UP</up_axis></asset>\n"
       "  <library_materials>\n";
  std::map<std::string, int> materials;
  for (const Part& p : parts)
    if (materials.emplace(p.material, int(materials.size())).second)
      d << "    <material id=\"m" << materials[p.material] << "\" name=\"" << p.material << "\"><instance_effect url=\"#e"
        << materials[p.material] << "\"/></material>\n";
  d << "  </library_materials>\n  <library_effects>\n";
  for (const auto& m : materials)
    d << "    <effect id=\"e" << m.second << "\"><profile_COMMON><technique sid=\"common\"><lambert/></technique></profile_COMMON></effect>\n";
  d << "  </library_effects>\n  <library_geometries>\n";
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    const std::string id = "g" + std::to_string(i);
    d << "    <geometry id=\"" << id << "\" name=\"" << p.group << "_mesh\"><mesh>\n      <source id=\"" << id
      << "-pos\"><float_array id=\"" << id << "-arr\" count=\"" << p.verts.size() << "\">";
    for (size_t v = 0; v < p.verts.size(); v += 3) // centimetres, Z up: (x, -z, y) * 100
      d << (v ? " " : "") << num(100.0 * p.verts[v]) << " " << num(-100.0 * p.verts[v + 2]) << " "
        << num(100.0 * p.verts[v + 1]);
    d << "</float_array>\n        <technique_common><accessor source=\"#" << id << "-arr\" count=\"" << p.verts.size() / 3
      << "\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" "
         "type=\"float\"/></accessor></technique_common>\n      </source>\n      <vertices id=\""
      << id << "-vtx\"><input semantic=\"POSITION\" source=\"#" << id << "-pos\"/></vertices>\n      <triangles material=\"mat\" count=\""
      << p.tris.size() / 3 << "\"><input semantic=\"VERTEX\" source=\"#" << id << "-vtx\" offset=\"0\"/><p>";
    for (size_t t = 0; t < p.tris.size(); ++t) d << (t ? " " : "") << p.tris[t];
    d << "</p></triangles>\n    </mesh></geometry>\n";
  }
  d << "  </library_geometries>\n  <library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">\n";
  for (size_t i = 0; i < parts.size(); ++i)
    d << "    <node id=\"n" << i << "\" name=\"" << parts[i].group << "\" type=\"NODE\"><instance_geometry url=\"#g" << i
      << "\"><bind_material><technique_common><instance_material symbol=\"mat\" target=\"#m" << materials[parts[i].material]
      << "\"/></technique_common></bind_material></instance_geometry></node>\n";
  d << "  </visual_scene></library_visual_scenes>\n  <scene><instance_visual_scene url=\"#Scene\"/></scene>\n</COLLADA>\n";
  return d.str();
}

/// A copy of the default level file beside `meshPath` that names it as its mesh.
std::string levelFileFor(const std::string& meshPath) {
  std::ifstream in(baketest::defaultLevel());
  nlohmann::json j = nlohmann::json::parse(in);
  j["obj"] = meshPath.substr(meshPath.find_last_of('/') + 1);
  const std::string path = meshPath + ".json";
  EXPECT_TRUE(baketest::writeFile(path, j.dump(2)));
  return path;
}

/// Bakes a level file (tiled, its settings) to `out`; the report.
nav::bake::BakeReport bakeLevel(const std::string& level, const std::string& out) {
  nav::bake::FileBakeInput fin;
  nav::bake::BakeSettings s;
  nav::bake::BakeReport r;
  std::string why;
  EXPECT_TRUE(nav::bake::loadFileBakeInput(level, &fin, &s, &why)) << why;
  nav::bake::BakeOptions opt;
  opt.threads = 2;
  EXPECT_TRUE(nav::bake::bakeFileToTileSet(fin, s, out, opt, &r)) << r.error;
  return r;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Triangle t's normal's y over its length (+1: faces straight up).
float upness(const std::vector<float>& v, const std::vector<int>& tris, size_t t) {
  const float* a = &v[3 * tris[3 * t]];
  const float* b = &v[3 * tris[3 * t + 1]];
  const float* c = &v[3 * tris[3 * t + 2]];
  const float e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, f[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const float n[3] = {e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]};
  const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  return len > 0 ? n[1] / len : 0.f;
}

/// Up-facing and down-facing horizontal triangles: a twin must have the OBJ's (winding kept).
std::pair<int, int> horizontalFaces(const std::vector<float>& v, const std::vector<int>& tris) {
  int up = 0, down = 0;
  for (size_t t = 0; t < tris.size() / 3; ++t) {
    const float u = upness(v, tris, t);
    up += u > 0.999f;
    down += u < -0.999f;
  }
  return {up, down};
}

/// The imported twin has the OBJ's triangles (same count, bounds, facing) and its names.
void expectTwinOfObj(const LevelMesh& got, const NamedObj& obj) {
  ASSERT_EQ(got.tris.size(), obj.tris.size());
  float lo[3], hi[3], olo[3], ohi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = olo[k] = 1e30f;
    hi[k] = ohi[k] = -1e30f;
  }
  for (size_t i = 0; i < got.verts.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], got.verts[i]);
    hi[i % 3] = std::max(hi[i % 3], got.verts[i]);
  }
  for (size_t i = 0; i < obj.verts.size(); ++i) {
    olo[i % 3] = std::min(olo[i % 3], obj.verts[i]);
    ohi[i % 3] = std::max(ohi[i % 3], obj.verts[i]);
  }
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(lo[k], olo[k], 1e-4f) << "axis " << k;
    EXPECT_NEAR(hi[k], ohi[k], 1e-4f) << "axis " << k;
  }
  EXPECT_EQ(horizontalFaces(got.verts, got.tris), horizontalFaces(obj.verts, obj.tris));
  // Names: each OBJ group is a node "<g>" with mesh "<g>_mesh" and its material; its floor faces up.
  ASSERT_EQ(got.triGroup.size(), got.tris.size() / 3);
  std::map<std::string, int> trisPerNode, objTrisPerGroup;
  for (size_t t = 0; t < got.triGroup.size(); ++t) {
    const nav::bake::MeshGroup& g = got.groups.at(got.triGroup[t]);
    ++trisPerNode[g.node];
    EXPECT_EQ(g.mesh, g.node + "_mesh");
    if (g.node == "ground") {
      EXPECT_EQ(g.material, "floor");
      EXPECT_GT(upness(got.verts, got.tris, t), 0.999f) << "a floor triangle does not face up";
    }
  }
  for (const auto& n : obj.triNames) ++objTrisPerGroup[n.first];
  EXPECT_EQ(trisPerNode, objTrisPerGroup);
}

TEST(SceneImport, TheGeneratedTwinsHoldTheObjsTriangles) {
  const NamedObj obj = readDefaultObj();
  nav::bake::ObjMesh ref;
  std::string why;
  ASSERT_TRUE(nav::bake::loadObj(baketest::defaultObj(), &ref, &why)) << why;
  EXPECT_EQ(obj.verts, ref.verts);
  EXPECT_EQ(obj.tris, ref.tris);
  EXPECT_GT(horizontalFaces(obj.verts, obj.tris).first, 0);
}

TEST(SceneImport, FbxInCentimetresBakesToTheSameGridAsItsObjTwin) {
  useImporter();
  const NamedObj obj = readDefaultObj();
  const std::string objOut = tempPath("obj.bin");
  const nav::bake::BakeReport ref = bakeLevel(baketest::defaultLevel(), objOut);
  ASSERT_GT(ref.polyCount, 0);
  for (FbxStyle style : {FbxStyle::Blender, FbxStyle::Max}) {
    const std::string tag = style == FbxStyle::Blender ? "blender" : "max";
    SCOPED_TRACE(tag);
    const std::string fbx = tempPath(tag + ".fbx");
    ASSERT_TRUE(baketest::writeFile(fbx, fbxText(partsOf(obj), style)));
    LevelMesh mesh;
    std::string why;
    ASSERT_TRUE(nav::bake::loadLevelMesh(fbx, &mesh, &why)) << why;
    expectTwinOfObj(mesh, obj);

    const std::string level = levelFileFor(fbx), out = tempPath(tag + ".bin");
    const nav::bake::BakeReport r = bakeLevel(level, out);
    EXPECT_EQ(r.tilesX, ref.tilesX);
    EXPECT_EQ(r.tilesY, ref.tilesY);
    EXPECT_EQ(r.tileCount, ref.tileCount);
    EXPECT_LE(std::abs(r.polyCount - ref.polyCount), ref.polyCount / 50) << r.polyCount << " polys, OBJ " << ref.polyCount;
    // The bare FBX through `navbench bake`, as a designer runs it.
    std::string err;
    EXPECT_EQ(runBake({fbx, "-o", out, "-q"}, &err), 0) << err;
    EXPECT_GT(readBytes(out).size(), 0u);
    std::remove(fbx.c_str());
    std::remove(level.c_str());
    std::remove(out.c_str());
  }
  std::remove(objOut.c_str());
}

TEST(SceneImport, ColladaInCentimetresZUpBakesToTheSameTileSetAsItsObjTwin) {
  useImporter();
  const NamedObj obj = readDefaultObj();
  const std::string dae = tempPath("twin.dae");
  ASSERT_TRUE(baketest::writeFile(dae, colladaText(partsOf(obj))));
  LevelMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelMesh(dae, &mesh, &why)) << why;
  expectTwinOfObj(mesh, obj);

  const std::string objOut = tempPath("obj.bin"), daeOut = tempPath("dae.bin"), level = levelFileFor(dae);
  const nav::bake::BakeReport ref = bakeLevel(baketest::defaultLevel(), objOut);
  const nav::bake::BakeReport r = bakeLevel(level, daeOut);
  EXPECT_EQ(r.polyCount, ref.polyCount);
  const std::vector<uint8_t> a = readBytes(objOut), b = readBytes(daeOut);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(baketest::firstDiff(b, a), -1) << baketest::tileSetLocation(b, baketest::firstDiff(b, a));
  // Solo too (the whole level in one tile, through Baker).
  std::string err;
  EXPECT_EQ(runBake({baketest::defaultObj(), "-o", objOut, "--solo", "-q"}, &err), 0) << err;
  EXPECT_EQ(runBake({dae, "-o", daeOut, "--solo", "-q"}, &err), 0) << err;
  EXPECT_EQ(baketest::firstDiff(readBytes(daeOut), readBytes(objOut)), -1);
  for (const std::string& p : {dae, level, objOut, daeOut}) std::remove(p.c_str());
}

// A floor (two triangles facing up) and a ramp rising 1 m over 4 m, as PLY and as STL.
const float kFloorRamp[4][9] = {
    {0, 0, 0, 0, 0, 10, 10, 0, 10},   {0, 0, 0, 10, 0, 10, 10, 0, 0},
    {10, 0, 0, 10, 0, 10, 14, 1, 10}, {10, 0, 0, 14, 1, 10, 14, 1, 0},
};

void expectFloorRamp(const LevelMesh& m) {
  ASSERT_EQ(m.tris.size(), 12u);
  std::vector<float> got, want;
  for (int t = 0; t < 4; ++t) {
    EXPECT_GT(upness(m.verts, m.tris, size_t(t)), 0.2f) << "triangle " << t << " does not face up";
    for (int k = 0; k < 9; ++k) {
      got.push_back(m.verts[3 * m.tris[3 * t + k / 3] + k % 3]);
      want.push_back(kFloorRamp[t][k]);
    }
  }
  EXPECT_EQ(got, want);
}

TEST(SceneImport, ReadsPlyAndStl) {
  useImporter();
  std::ostringstream ply;
  ply << "ply\nformat ascii 1.0\nelement vertex 12\nproperty float x\nproperty float y\nproperty float z\n"
         "element face 4\nproperty list uchar int vertex_indices\nend_header\n";
  for (const auto& t : kFloorRamp)
    for (int v = 0; v < 3; ++v) ply << t[3 * v] << " " << t[3 * v + 1] << " " << t[3 * v + 2] << "\n";
  for (int t = 0; t < 4; ++t) ply << "3 " << 3 * t << " " << 3 * t + 1 << " " << 3 * t + 2 << "\n";
  std::ostringstream stl;
  stl << "solid level\n";
  for (const auto& t : kFloorRamp) {
    stl << "facet normal 0 0 0\nouter loop\n";
    for (int v = 0; v < 3; ++v) stl << "vertex " << t[3 * v] << " " << t[3 * v + 1] << " " << t[3 * v + 2] << "\n";
    stl << "endloop\nendfacet\n";
  }
  stl << "endsolid level\n";
  for (const auto& [ext, text] : {std::make_pair(std::string("ply"), ply.str()), std::make_pair(std::string("stl"), stl.str())}) {
    SCOPED_TRACE(ext);
    const std::string path = tempPath("floor." + ext);
    ASSERT_TRUE(baketest::writeFile(path, text));
    EXPECT_TRUE(nav::bake::isLevelMeshPath(path));
    LevelMesh m;
    std::string why;
    ASSERT_TRUE(nav::bake::loadLevelMesh(path, &m, &why)) << why;
    expectFloorRamp(m);
    std::remove(path.c_str());
  }
}

// A mirroring node transform (scale -1 in x) turns a floor's winding over; the importer reverses
// it, so both instances of one upward floor still face up, and the node transforms are composed.
TEST(SceneImport, AMirroredNodeKeepsItsFloorFacingUp) {
  useImporter();
  const std::string dae = tempPath("mirror.dae");
  ASSERT_TRUE(baketest::writeFile(dae, R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries><geometry id="floor" name="floor"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 0 0 10 10 0 10</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s">
    <node id="a" name="plain"><translate>0 2 0</translate><instance_geometry url="#floor"/></node>
    <node id="b" name="parent"><translate>30 0 0</translate>
      <node id="c" name="mirrored"><matrix>-1 0 0 0 0 1 0 1 0 0 1 0 0 0 0 1</matrix><instance_geometry url="#floor"/></node>
    </node>
  </visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)"));
  LevelMesh m;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelMesh(dae, &m, &why)) << why;
  ASSERT_EQ(m.tris.size(), 6u);
  ASSERT_EQ(m.triGroup.size(), 2u);
  for (size_t t = 0; t < 2; ++t) {
    const std::string node = m.groups.at(m.triGroup[t]).node;
    SCOPED_TRACE(node);
    EXPECT_GT(upness(m.verts, m.tris, t), 0.999f);
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (int k = 0; k < 9; ++k) {
      lo[k % 3] = std::min(lo[k % 3], m.verts[3 * m.tris[3 * t + k / 3] + k % 3]);
      hi[k % 3] = std::max(hi[k % 3], m.verts[3 * m.tris[3 * t + k / 3] + k % 3]);
    }
    const bool mirrored = node == "mirrored";
    EXPECT_TRUE(mirrored || node == "plain");
    EXPECT_EQ(lo[0], mirrored ? 20.f : 0.f); // parent's x + 30 over the child's x * -1
    EXPECT_EQ(hi[0], mirrored ? 30.f : 10.f);
    EXPECT_EQ(lo[1], mirrored ? 1.f : 2.f);
  }
  std::remove(dae.c_str());
}

/// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const char* v) : name(n) { ::setenv(n, v, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

TEST(SceneImport, AnImporterThatCrashesOrHangsIsAMessageNamingTheFile) {
  useImporter();
  const std::string fbx = tempPath("crash.fbx"), out = tempPath("crash.bin");
  ASSERT_TRUE(baketest::writeFile(fbx, fbxText(partsOf(readDefaultObj()), FbxStyle::Blender)));
  {
    ScopedEnv crash("NAVBENCH_IMPORT_TEST_CRASH", "1");
    std::string err;
    EXPECT_EQ(runBake({fbx, "-o", out}, &err), 2);
    EXPECT_NE(err.find(fbx + ": the importer crashed (signal 11"), std::string::npos) << err;
    // A level file naming it says both.
    const std::string level = levelFileFor(fbx);
    EXPECT_EQ(runBake({level, "-o", out}, &err), 2);
    EXPECT_NE(err.find(level + ": its mesh " + fbx + ": the importer crashed"), std::string::npos) << err;
    std::remove(level.c_str());
  }
  {
    ScopedEnv hang("NAVBENCH_IMPORT_TEST_CRASH", "hang"), limit("NAVBENCH_IMPORT_TIMEOUT_S", "1");
    LevelMesh m;
    std::string why;
    EXPECT_FALSE(nav::bake::loadLevelMesh(fbx, &m, &why));
    EXPECT_NE(why.find(fbx + ": the importer did not finish within 1 s"), std::string::npos) << why;
  }
  // Cancelled through the progress callback at the importer's first report: the child is stopped.
  {
    LevelMesh m;
    std::string why;
    int calls = 0;
    EXPECT_FALSE(nav::bake::loadLevelMesh(fbx, &m, &why, [&calls](long long, long long total) {
      EXPECT_EQ(total, 1000);
      ++calls;
      return false;
    }));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(why, fbx + ": loading cancelled");
  }
  EXPECT_FALSE(baketest::fileExists(out));
  std::remove(fbx.c_str());
}

TEST(SceneImport, TruncatedOrCorruptFbxIsAMessageNamingTheFileAndExit2) {
  useImporter();
  const std::string text = fbxText(partsOf(readDefaultObj()), FbxStyle::Blender);
  const std::string out = tempPath("bad.bin");
  struct Case {
    std::string name, bytes;
  } cases[] = {
      {"truncated.fbx", text.substr(0, text.size() / 2)},
      {"binary.fbx", std::string("Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0", 27) + std::string(40, '\x7f')},
      {"empty.fbx", ""},
      {"noise.dae", "<COLLADA><library_geometries><geometry><mesh><source><float_array count=\"99999999\">1 2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = tempPath(c.name);
    ASSERT_TRUE(baketest::writeFile(path, c.bytes));
    std::string err;
    EXPECT_EQ(runBake({path, "-o", out}, &err), 2);
    EXPECT_NE(err.find(path + ": "), std::string::npos) << err;
    std::remove(path.c_str());
  }
  EXPECT_FALSE(baketest::fileExists(out));
}

TEST(SceneImport, WithoutTheImporterTheMessageSaysWhatIsMissing) {
  const std::string stl = tempPath("lonely.stl");
  ASSERT_TRUE(baketest::writeFile(stl, "solid a\nendsolid a\n"));
  LevelMesh m;
  std::string why;
  navbench::import::installSceneImporter("/no/such/dir/navbench-import");
  EXPECT_FALSE(nav::bake::loadLevelMesh(stl, &m, &why));
  EXPECT_NE(why.find(stl + ": cannot start the scene importer /no/such/dir/navbench-import"), std::string::npos) << why;
  nav::bake::setForeignMeshLoader(nullptr);
  EXPECT_FALSE(nav::bake::loadLevelMesh(stl, &m, &why));
  EXPECT_NE(why.find(stl + ": FBX, Collada"), std::string::npos) << why;
  EXPECT_NE(why.find("navbench-import"), std::string::npos) << why;
  useImporter();
  EXPECT_FALSE(nav::bake::loadLevelMesh(stl, &m, &why)); // no triangles
  EXPECT_EQ(why.rfind(stl + ": ", 0), 0u) << why;
  std::remove(stl.c_str());
}

// The parent checks what the child wrote: a child gone wrong cannot hand over bad data.
TEST(SceneImport, TheImportFileReaderRejectsBadData) {
  LevelMesh good;
  good.verts = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  good.tris = {0, 2, 1};
  good.groups = {{"node", "mesh", "material"}};
  good.triGroup = {0};
  const std::string path = tempPath("data.bin");
  std::string why;
  ASSERT_TRUE(navbench::import::writeImportFile(path, good, &why)) << why;
  LevelMesh back;
  ASSERT_TRUE(navbench::import::readImportFile(path, &back, &why)) << why;
  EXPECT_EQ(back.verts, good.verts);
  EXPECT_EQ(back.tris, good.tris);
  EXPECT_EQ(back.triGroup, good.triGroup);
  ASSERT_EQ(back.groups.size(), 1u);
  EXPECT_EQ(back.groups[0].material, "material");
  const std::vector<uint8_t> bytes = readBytes(path);

  auto rejects = [&](std::vector<uint8_t> b, const char* expect) {
    ASSERT_TRUE(baketest::writeFile(path, std::string(b.begin(), b.end())));
    LevelMesh m;
    std::string w;
    EXPECT_FALSE(navbench::import::readImportFile(path, &m, &w)) << expect;
    EXPECT_NE(w.find(expect), std::string::npos) << w;
  };
  for (size_t cut : {size_t(4), size_t(20), bytes.size() - 1}) rejects({bytes.begin(), bytes.begin() + long(cut)}, "");
  std::vector<uint8_t> b = bytes;
  b.push_back(0);
  rejects(b, "after its end");
  b = bytes;
  b[20 + 36] = 7; // first index -> vertex 7 of 3
  rejects(b, "names vertex 7");
  b = bytes;
  const float nan = std::nanf("");
  std::memcpy(&b[20 + 4], &nan, 4);
  rejects(b, "not a finite position");
  b = bytes;
  b[8] = 0xff; // vertCount huge
  b[9] = 0xff;
  rejects(b, "shorter than its counts");
  std::remove(path.c_str());
}

} // namespace
