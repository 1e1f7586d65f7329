// GltfTestUtil.h: builds glTF scenes in a test (buffer views, accessors, meshes, nodes) and writes
// them as .glb, as .gltf with a data: URI, or as .gltf beside an external .bin.
#pragma once

#include "nav/bake/GltfMesh.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace gltftest {

using nlohmann::json;

inline std::string base64(const std::string& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = uint32_t((unsigned char)in[i]) << 16 | uint32_t((unsigned char)in[i + 1]) << 8 | (unsigned char)in[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(k[(v >> s) & 63]);
  }
  if (i < in.size()) {
    uint32_t v = uint32_t((unsigned char)in[i]) << 16;
    if (i + 1 < in.size()) v |= uint32_t((unsigned char)in[i + 1]) << 8;
    out.push_back(k[(v >> 18) & 63]);
    out.push_back(k[(v >> 12) & 63]);
    out += i + 1 < in.size() ? std::string(1, k[(v >> 6) & 63]) + "=" : "==";
  }
  return out;
}

template <class T>
std::string bytesOf(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

struct Scene {
  json doc = {{"asset", {{"version", "2.0"}}},
              {"nodes", json::array()},
              {"meshes", json::array()},
              {"accessors", json::array()},
              {"bufferViews", json::array()}};
  std::string bin;

  /// A buffer view over `bytes` (4-byte aligned in the buffer); stride 0 = none given.
  int view(const std::string& bytes, int stride = 0) {
    while (bin.size() % 4) bin.push_back('\0');
    json v = {{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes.size()}};
    if (stride) v["byteStride"] = stride;
    bin += bytes;
    doc["bufferViews"].push_back(v);
    return int(doc["bufferViews"].size()) - 1;
  }
  int accessor(json a) {
    doc["accessors"].push_back(a);
    return int(doc["accessors"].size()) - 1;
  }
  int positions(const std::vector<float>& xyz) {
    return accessor({{"bufferView", view(bytesOf(xyz))}, {"componentType", 5126}, {"count", xyz.size() / 3}, {"type", "VEC3"}});
  }
  template <class T>
  int indices(const std::vector<T>& idx) {
    const int type = sizeof(T) == 1 ? 5121 : sizeof(T) == 2 ? 5123 : 5125;
    return accessor({{"bufferView", view(bytesOf(idx))}, {"componentType", type}, {"count", idx.size()}, {"type", "SCALAR"}});
  }
  int mesh(const std::string& name, json primitives) {
    doc["meshes"].push_back({{"name", name}, {"primitives", primitives}});
    return int(doc["meshes"].size()) - 1;
  }
  int node(json n) {
    doc["nodes"].push_back(n);
    return int(doc["nodes"].size()) - 1;
  }

  std::string glb() const {
    json d = doc;
    d["buffers"] = {{{"byteLength", bin.size()}}};
    return nav::bake::glbContainer(d.dump(), bin);
  }
  std::string gltfEmbedded() const {
    json d = doc;
    d["buffers"] = {{{"byteLength", bin.size()}, {"uri", "data:application/octet-stream;base64," + base64(bin)}}};
    return d.dump(1);
  }
  /// The JSON of a .gltf whose buffer is the file `binName` beside it (write `bin` there).
  std::string gltfExternal(const std::string& binName) const {
    json d = doc;
    d["buffers"] = {{{"byteLength", bin.size()}, {"uri", binName}}};
    return d.dump(1);
  }
};

} // namespace gltftest
