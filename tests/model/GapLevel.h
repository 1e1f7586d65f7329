// GapLevel.h: a generated level with three agent types (dog, soldier, truck) where a 1.6 wu gap
// in a wall lets the small and medium agents through but not the large one (AgentSetTest,
// CheckModelAgentsTest).
#pragma once

#include <fstream>
#include <string>

namespace navbench {

/// A 40 x 20 floor cut at x = 19.5..20.5 by a 3 wu wall with a gap at z = 9.2..10.8.
inline void writeGapObj(const std::string& path) {
  std::ofstream f(path);
  f << "v 0 0 0\nv 40 0 0\nv 40 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n";
  int base = 5;
  auto box = [&](float x0, float z0, float x1, float z1) {
    const float h = 3;
    const float v[8][3] = {{x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1}, {x0, h, z0}, {x1, h, z0}, {x1, h, z1}, {x0, h, z1}};
    for (const auto& p : v) f << "v " << p[0] << " " << p[1] << " " << p[2] << "\n";
    const int q[6][4] = {{4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {0, 3, 2, 1}};
    for (const auto& fq : q) {
      f << "f " << base + fq[0] << " " << base + fq[2] << " " << base + fq[1] << "\n";
      f << "f " << base + fq[0] << " " << base + fq[3] << " " << base + fq[2] << "\n";
    }
    base += 8;
  };
  box(19.5f, 0, 20.5f, 9.2f);
  box(19.5f, 10.8f, 20.5f, 20);
}

inline const char* kGapLevel = R"({
  "format": "navbench-level", "version": 1, "obj": "gap.obj",
  "settings": { "cellSize": 0.2, "cellHeight": 0.2, "tiled": true, "tileSize": 32 },
  "agents": [
    { "name": "dog", "color": "#40c040", "agentRadius": 0.3, "agentHeight": 1.0 },
    { "name": "soldier", "color": "#4080ff", "agentRadius": 0.6, "agentHeight": 1.8 },
    { "name": "truck", "color": "#e04020", "agentRadius": 1.0, "agentHeight": 2.5 }
  ]
})";

} // namespace navbench
