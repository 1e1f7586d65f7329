// NavTypes.cpp: status codes in words.
#include "nav/NavTypes.h"

#include <cstring>

namespace nav {

const char* statusToString(Status s, char* buf, size_t bufSize) {
  if (!buf || bufSize == 0) return buf;
  buf[0] = '\0';
  size_t len = 0;
  auto append = [&](const char* word) {
    const char* sep = len ? " | " : "";
    for (const char* p = sep; *p && len + 1 < bufSize; ++p) buf[len++] = *p;
    for (const char* p = word; *p && len + 1 < bufSize; ++p) buf[len++] = *p;
    buf[len] = '\0';
  };
  if (s & FAILURE) append("failure");
  if (s & SUCCESS) append("success");
  if (s & IN_PROGRESS) append("in progress");
  static const struct {
    Status bit;
    const char* name;
  } details[] = {
      {WRONG_MAGIC, "wrong magic"},           {WRONG_VERSION, "wrong version"},
      {OUT_OF_MEMORY, "out of memory"},       {INVALID_PARAM, "invalid param"},
      {BUFFER_TOO_SMALL, "buffer too small"}, {OUT_OF_NODES, "out of nodes"},
      {PARTIAL_RESULT, "partial result"},     {ALREADY_OCCUPIED, "already occupied"},
  };
  for (const auto& d : details)
    if (s & d.bit) append(d.name);
  const Status known = FAILURE | SUCCESS | IN_PROGRESS | WRONG_MAGIC | WRONG_VERSION | OUT_OF_MEMORY |
                       INVALID_PARAM | BUFFER_TOO_SMALL | OUT_OF_NODES | PARTIAL_RESULT | ALREADY_OCCUPIED;
  if (s & ~known) append("unknown bits");
  if (len == 0) append("none");
  return buf;
}

} // namespace nav
