// NonCopyable.h: a base for classes that own a resource (a GL object, a pool, a thread) and so
// must not be copied. Header-only, no dependencies (nav/base: every module may use it).
#pragma once

namespace base {

/// Derive privately: copying the derived class does not compile. Moves stay possible where the
/// derived class declares its own (the base is trivially movable); a class with a user-declared
/// destructor and no move operations of its own is then neither copyable nor movable.
class NonCopyable {
protected:
  NonCopyable() = default;
  ~NonCopyable() = default;
  NonCopyable(NonCopyable&&) noexcept = default;
  NonCopyable& operator=(NonCopyable&&) noexcept = default;

public:
  NonCopyable(const NonCopyable&) = delete;
  NonCopyable& operator=(const NonCopyable&) = delete;
};

} // namespace base
