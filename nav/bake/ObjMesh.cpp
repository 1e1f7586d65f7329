#include "nav/bake/ObjMesh.h"

#include <tiny_obj_loader.h>

#include <fstream>

namespace nav::bake {

bool loadObj(const std::string& path, ObjMesh* out, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = path + ": " + msg;
    return false;
  };
  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) return fail("cannot open the file (missing or unreadable)");
    probe.seekg(0, std::ios::end);
    const long long bytes = static_cast<long long>(probe.tellg());
    if (bytes > MAX_OBJ_BYTES)
      return fail("file is " + std::to_string(bytes >> 20) + " MiB, over the " + std::to_string(MAX_OBJ_BYTES >> 20) +
                  " MiB OBJ size limit");
  }
  tinyobj::ObjReaderConfig config;
  config.triangulate = false; // fan ourselves, in RecastDemo's order
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) {
    std::string err = reader.Error();
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    return fail(err.empty() ? "not a readable OBJ file" : err);
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  ObjMesh m;
  m.verts = attrib.vertices;
  const int nv = int(m.verts.size() / 3);
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const tinyobj::mesh_t& mesh = shape.mesh;
    size_t base = 0;
    for (size_t f = 0; f < mesh.num_face_vertices.size(); ++f) {
      const int n = mesh.num_face_vertices[f];
      for (int k = 0; k < n; ++k) {
        const int vi = mesh.indices[base + size_t(k)].vertex_index;
        if (vi < 0 || vi >= nv)
          return fail("a face of '" + shape.name + "' refers to vertex " + std::to_string(vi + 1) + ", but there are " +
                      std::to_string(nv) + " vertices");
      }
      for (int k = 2; k < n; ++k) {
        m.tris.push_back(mesh.indices[base].vertex_index);
        m.tris.push_back(mesh.indices[base + size_t(k) - 1].vertex_index);
        m.tris.push_back(mesh.indices[base + size_t(k)].vertex_index);
      }
      base += size_t(n);
    }
  }
  if (m.tris.empty()) return fail("no triangles (" + std::to_string(nv) + " vertices, no faces)");
  *out = std::move(m);
  return true;
}

} // namespace nav::bake
