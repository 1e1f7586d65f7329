#include "nav/bake/BakeSettings.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace nav::bake {

const char* partitionName(Partition p) {
  switch (p) {
  case Partition::Watershed: return "watershed";
  case Partition::Monotone: return "monotone";
  case Partition::Layers: return "layers";
  }
  return "?";
}

bool partitionFromName(const char* name, Partition* p) {
  for (Partition c : {Partition::Watershed, Partition::Monotone, Partition::Layers})
    if (std::strcmp(name, partitionName(c)) == 0) {
      *p = c;
      return true;
    }
  return false;
}

namespace {
const SettingRange RANGES[] = {
    {"cellSize", 0.1f, 1.0f, "wu"},
    {"cellHeight", 0.1f, 1.0f, "wu"},
    {"agentHeight", 0.1f, 5.0f, "wu"},
    {"agentRadius", 0.0f, 5.0f, "wu"},
    {"agentMaxClimb", 0.1f, 5.0f, "wu"},
    {"agentMaxSlope", 0.0f, 90.0f, "degrees"},
    {"regionMinSize", 0.0f, 150.0f, "cells"},
    {"regionMergeSize", 0.0f, 150.0f, "cells"},
    {"edgeMaxLen", 0.0f, 50.0f, "wu"},
    {"edgeMaxError", 0.1f, 3.0f, "cells"},
    {"vertsPerPoly", 3.0f, 6.0f, ""},
    {"detailSampleDist", 0.0f, 16.0f, "cells"},
    {"detailSampleMaxError", 0.0f, 16.0f, "cell heights"},
    {"tileSize", 16.0f, 1024.0f, "cells"},
};
constexpr int RANGE_COUNT = int(sizeof(RANGES) / sizeof(RANGES[0]));
} // namespace

const SettingRange* settingRanges(int* count) {
  *count = RANGE_COUNT;
  return RANGES;
}

bool BakeSettings::validate(std::string* why) const {
  const double values[RANGE_COUNT] = {cellSize,      cellHeight,      agentHeight,      agentRadius,
                                      agentMaxClimb, agentMaxSlope,   double(regionMinSize), double(regionMergeSize),
                                      edgeMaxLen,    edgeMaxError,    double(vertsPerPoly), detailSampleDist,
                                      detailSampleMaxError, double(tileSize)};
  for (int i = 0; i < RANGE_COUNT; ++i) {
    const double v = values[i];
    // Compare in float so that a value typed as 0.1 passes the 0.1 limit.
    if (!std::isfinite(v) || float(v) < RANGES[i].min || float(v) > RANGES[i].max) {
      if (why) {
        std::ostringstream s;
        s << RANGES[i].name << " = " << v << " is out of range [" << RANGES[i].min << ", " << RANGES[i].max << "]";
        if (RANGES[i].unit[0]) s << " (" << RANGES[i].unit << ")";
        *why = s.str();
      }
      return false;
    }
  }
  if (partition != Partition::Watershed && partition != Partition::Monotone && partition != Partition::Layers) {
    if (why) *why = "partition = " + std::to_string(int(partition)) + " is not watershed, monotone or layers";
    return false;
  }
  // Recast needs an agent at least 3 cells tall to tell floors from ceilings.
  if (std::ceil(agentHeight / cellHeight) < 3) {
    if (why) {
      std::ostringstream s;
      s << "agentHeight = " << agentHeight << " is less than 3 cells of cellHeight = " << cellHeight;
      *why = s.str();
    }
    return false;
  }
  return true;
}

bool BakeSettings::operator==(const BakeSettings& o) const {
  return cellSize == o.cellSize && cellHeight == o.cellHeight && agentHeight == o.agentHeight &&
         agentRadius == o.agentRadius && agentMaxClimb == o.agentMaxClimb && agentMaxSlope == o.agentMaxSlope &&
         regionMinSize == o.regionMinSize && regionMergeSize == o.regionMergeSize && partition == o.partition &&
         edgeMaxLen == o.edgeMaxLen && edgeMaxError == o.edgeMaxError && vertsPerPoly == o.vertsPerPoly &&
         detailSampleDist == o.detailSampleDist && detailSampleMaxError == o.detailSampleMaxError &&
         filterLowHangingObstacles == o.filterLowHangingObstacles && filterLedgeSpans == o.filterLedgeSpans &&
         filterWalkableLowHeightSpans == o.filterWalkableLowHeightSpans && tiled == o.tiled && tileSize == o.tileSize;
}

} // namespace nav::bake
