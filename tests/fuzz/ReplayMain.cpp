// ReplayMain.cpp: runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer, so the
// normal (gcc) build re-runs the seed corpus and every kept crasher under ctest.
// Usage: <target>_replay PATH... (files, or directories whose regular files are all run).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

static void runFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("replay %s (%zu bytes)\n", p.string().c_str(), bytes.size());
  std::fflush(stdout);
  // A copy of exactly the input size, so ASan catches reads past its end as libFuzzer would.
  uint8_t* buf = new uint8_t[bytes.empty() ? 1 : bytes.size()];
  std::copy(bytes.begin(), bytes.end(), buf);
  LLVMFuzzerTestOneInput(buf, bytes.size());
  delete[] buf;
}

int main(int argc, char** argv) {
  int files = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      std::vector<fs::path> list;
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.') list.push_back(e.path());
      std::sort(list.begin(), list.end());
      for (const auto& f : list) { runFile(f); ++files; }
    } else if (fs::is_regular_file(p)) {
      runFile(p);
      ++files;
    } else {
      std::printf("%s: absent, skipped\n", argv[i]); // e.g. no regression inputs kept yet
    }
  }
  std::printf("%d inputs replayed without a crash\n", files);
  return files > 0 ? 0 : 1; // an empty seed corpus means the test proves nothing
}
