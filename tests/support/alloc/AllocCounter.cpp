// AllocCounter.cpp: the replaced global operator new / delete behind tests/support/AllocCounter.h.
// Linked only into the test executables listed in tests/CMakeLists.txt (a replacement applies to
// the whole executable). Allocation itself is std::malloc / std::free.
#include "tests/support/AllocCounter.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace navtest {
namespace {
std::atomic<long> g_allocCount{0};
std::atomic<bool> g_allocArmed{false};

void countAlloc() {
  if (g_allocArmed.load(std::memory_order_relaxed)) g_allocCount.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

void startCountingAllocs() {
  g_allocCount = 0;
  g_allocArmed = true;
}

long stopCountingAllocs() {
  g_allocArmed = false;
  return g_allocCount.load();
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
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
