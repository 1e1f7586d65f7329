// AllocCounter.h: test support. Counts heap allocations so a test can prove code runs without
// allocating: startCountingAllocs(), run the code, stopCountingAllocs() returns how many
// allocations (operator new / new[], throwing or nothrow) happened in between, on any thread.
//
// Include it in exactly ONE source file of a test executable: it REPLACES that executable's global
// operator new and delete (definitions, not declarations; a second including file fails to link).
// Allocation itself is std::malloc / std::free.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace navtest {

inline std::atomic<long> g_allocCount{0};
inline std::atomic<bool> g_allocArmed{false};

/// Resets the count to 0 and starts counting.
inline void startCountingAllocs() {
  g_allocCount = 0;
  g_allocArmed = true;
}
/// Stops counting; returns the allocations since startCountingAllocs().
inline long stopCountingAllocs() {
  g_allocArmed = false;
  return g_allocCount.load();
}
inline void countAlloc() {
  if (g_allocArmed.load(std::memory_order_relaxed)) g_allocCount.fetch_add(1, std::memory_order_relaxed);
}

} // namespace navtest

void* operator new(std::size_t n) {
  navtest::countAlloc();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  navtest::countAlloc();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  navtest::countAlloc();
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  navtest::countAlloc();
  return std::malloc(n ? n : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
