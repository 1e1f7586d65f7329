// AllocCounter.h: test support. Counts heap allocations so a test can prove code runs without
// allocating: startCountingAllocs(), run the code, stopCountingAllocs() returns how many
// allocations (operator new / new[], throwing or nothrow) happened in between, on any thread.
//
// The counting operator new / delete live in tests/support/alloc/AllocCounter.cpp, which replaces
// the executable's global ones; tests/CMakeLists.txt links it into the executables that count
// (NAVBENCH_ALLOC_COUNTING_TESTS). Any number of their sources may include this header.
#pragma once

namespace navtest {

/// Resets the count to 0 and starts counting.
void startCountingAllocs();
/// Stops counting; returns the allocations since startCountingAllocs().
long stopCountingAllocs();

} // namespace navtest
