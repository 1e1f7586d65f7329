// ObjSinkCollect.h: a streamObj sink for the bake tests, keeping what it is handed.
#pragma once

#include "nav/bake/ObjMesh.h"

#include <gtest/gtest.h>

namespace baketest {

/// streamObj into arrays, counting the progress calls.
struct CollectSink : nav::bake::ObjSink {
  nav::bake::ObjMesh m;
  long long lastRead = -1, fileBytes = -2, blocks = 0;
  long long stopAfterVerts = -1;
  bool stopOnProgress = false;
  bool vertex(const float* v) override {
    if (stopAfterVerts >= 0 && (long long)(m.verts.size() / 3) == stopAfterVerts) {
      failure = "sink full";
      return false;
    }
    m.verts.insert(m.verts.end(), v, v + 3);
    return true;
  }
  bool triangle(int a, int b, int c) override {
    m.tris.insert(m.tris.end(), {a, b, c});
    return true;
  }
  bool progress(long long read, long long total) override {
    EXPECT_GT(read, lastRead);
    lastRead = read;
    fileBytes = total;
    ++blocks;
    if (stopOnProgress) failure = "cancelled";
    return !stopOnProgress;
  }
};

} // namespace baketest
