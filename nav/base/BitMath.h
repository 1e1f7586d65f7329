// BitMath.h: the power-of-two helpers that size hash tables, tile/poly ref bits and buckets
// (Detour's dtNextPow2 / dtIlog2, same results for every 32-bit input). Header-only, standard
// library only (nav/base: the helpers every module may use; it includes nothing of ours).
#pragma once

#include <cstdint>

namespace base {

/// Smallest power of two >= v; 0 for v == 0 and for v > 2^31 (it wraps, as Detour's does).
constexpr uint32_t nextPow2(uint32_t v) {
  v--;
  v |= v >> 1;
  v |= v >> 2;
  v |= v >> 4;
  v |= v >> 8;
  v |= v >> 16;
  return v + 1;
}

/// floor(log2(v)) for v > 0; 0 for v == 0. Branch-free.
constexpr uint32_t ilog2(uint32_t v) {
  uint32_t r = uint32_t(v > 0xffff) << 4;
  v >>= r;
  uint32_t shift = uint32_t(v > 0xff) << 3;
  v >>= shift;
  r |= shift;
  shift = uint32_t(v > 0xf) << 2;
  v >>= shift;
  r |= shift;
  shift = uint32_t(v > 0x3) << 1;
  v >>= shift;
  r |= shift;
  r |= (v >> 1);
  return r;
}

/// Bits needed for tile indices in a poly ref when up to `count` tiles are expected:
/// ilog2(nextPow2(count)), capped at maxBits (RecastDemo's rule, 14 of 22 bits at most).
constexpr int tileBitsFor(uint32_t count, int maxBits) {
  const int bits = int(ilog2(nextPow2(count)));
  return bits < maxBits ? bits : maxBits;
}

} // namespace base
