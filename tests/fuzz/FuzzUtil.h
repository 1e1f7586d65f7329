// FuzzUtil.h: helpers shared by the fuzz targets (libFuzzer entry points, also built as replay
// executables by the normal build: see tests/fuzz/CMakeLists.txt).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace fuzz {

/// Writes the input to a per-process temp file (for loaders that only take a path) and returns
/// its path. `ext` is the file extension (".obj", ".json", ".png").
inline std::string writeTemp(const uint8_t* data, size_t size, const char* ext) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/navbench_fuzz_" + std::to_string(getpid()) + ext;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) __builtin_trap(); // the harness itself is broken: not an input problem
  if (size && std::fwrite(data, 1, size, f) != size) __builtin_trap();
  std::fclose(f);
  return path;
}

/// A loader's answer: true when it refused the input, which it must do with a reason (an empty one
/// traps: the harness found a silent refusal).
inline bool refused(bool accepted, const std::string& why) {
  if (accepted) return false;
  if (why.empty()) __builtin_trap();
  return true;
}

/// Reads fixed-size values from the fuzz input; past the end it yields zeros.
class Bytes {
public:
  Bytes(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
  bool empty() const { return m_pos >= m_size; }
  size_t remaining() const { return m_pos < m_size ? m_size - m_pos : 0; }
  uint8_t u8() { return m_pos < m_size ? m_data[m_pos++] : 0; }
  uint16_t u16() { return uint16_t(u8() | u8() << 8); }
  uint32_t u32() { return uint32_t(u16()) | uint32_t(u16()) << 16; }
  /// Any float bit pattern (NaN, inf, denormals included).
  float rawFloat() {
    const uint32_t b = u32();
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  /// A float in [lo, hi] from 16 bits, or (1 in 16) a raw bit pattern.
  float range(float lo, float hi) {
    if ((u8() & 15) == 0) return rawFloat();
    return lo + (hi - lo) * float(u16()) / 65535.0f;
  }
  /// 0..n-1 (n > 0).
  int pick(int n) { return int(u16() % uint32_t(n)); }

private:
  const uint8_t* m_data;
  size_t m_size;
  size_t m_pos = 0;
};

} // namespace fuzz
