// FileMessages.h: how the binary file readers and writers (TileSetFile, tilecache's TileCacheFile)
// report: a status plus its reason in the caller's optional `why`, and printf-style messages with
// up to four integers. Internal to nav's own sources.
#pragma once

#include "nav/NavTypes.h"

#include <cstdio>
#include <string>

namespace nav::filemsg {

/// Stores msg in *why (when given) and returns s, for `return fail(why, FAILURE | ..., "...")`.
inline Status fail(std::string* why, Status s, const std::string& msg) {
  if (why) *why = msg;
  return s;
}

/// f with up to four integer arguments (as %lld) [Limit: 255 characters, the rest cut].
inline std::string fmt(const char* f, long long a = 0, long long b = 0, long long c = 0, long long d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

} // namespace nav::filemsg
