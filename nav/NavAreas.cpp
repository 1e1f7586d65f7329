#include "nav/NavAreas.h"

#include <cstdlib>
#include <cstring>

namespace nav {

namespace {
const char* const AREA_NAMES[AREA_NAMED_COUNT] = {"ground", "water", "road", "door", "grass", "jump"};
const char* const FLAG_NAMES[FLAG_NAMED_COUNT] = {"walk", "swim", "door", "jump", "disabled"};
} // namespace

const char* areaName(uint8_t area) { return area < AREA_NAMED_COUNT ? AREA_NAMES[area] : nullptr; }

bool areaFromName(const char* name, uint8_t* area) {
  for (int i = 0; i < AREA_NAMED_COUNT; ++i)
    if (std::strcmp(name, AREA_NAMES[i]) == 0) {
      *area = uint8_t(i);
      return true;
    }
  char* end = nullptr;
  const long v = std::strtol(name, &end, 10);
  if (end != name && *end == 0 && v >= 0 && v < AREA_LIMIT) {
    *area = uint8_t(v);
    return true;
  }
  return false;
}

const char* flagName(uint16_t flag) {
  for (int i = 0; i < FLAG_NAMED_COUNT; ++i)
    if (flag == (1u << i)) return FLAG_NAMES[i];
  return nullptr;
}

bool flagFromName(const char* name, uint16_t* flag) {
  for (int i = 0; i < FLAG_NAMED_COUNT; ++i)
    if (std::strcmp(name, FLAG_NAMES[i]) == 0) {
      *flag = uint16_t(1u << i);
      return true;
    }
  return false;
}

} // namespace nav
