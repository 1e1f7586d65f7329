// TestCaseTestUtil.h: files and the committed default level for the test-case model tests.
#pragma once

#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace navbench::testcase_test {

inline const std::string kMeshPath = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
inline const std::string kCasesPath = std::string(NAVBENCH_SOURCE_DIR) + "/tests/app/data/default_cases.txt";

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Writes `text` to NAVBENCH_MODEL_TEST_TMP/name and returns the path.
inline std::string writeTemp(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(NAVBENCH_MODEL_TEST_TMP);
  const std::string p = std::string(NAVBENCH_MODEL_TEST_TMP) + "/" + name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

/// The committed default.bin, or null (the caller fails the test).
inline std::unique_ptr<nav::NavMesh> loadDefaultMesh() {
  auto mesh = std::make_unique<nav::NavMesh>();
  if (nav::statusFailed(nav::loadTileSetFile(kMeshPath, *mesh))) return nullptr;
  return mesh;
}

inline std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

inline bool isExpectLine(const std::string& l) { return l.rfind("# expect ", 0) == 0; }

} // namespace navbench::testcase_test
