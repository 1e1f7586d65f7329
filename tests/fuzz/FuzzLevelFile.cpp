// FuzzLevelFile.cpp: the level file (nav/bake/LevelFile.h, JSON) and settingsFromJson. A level
// that loads must save and load again to the same settings, agent types and masks.
#include "nav/bake/LevelFile.h"
#include "tests/fuzz/FuzzUtil.h"

#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string why;
  nav::bake::BakeSettings settings;
  if (!nav::bake::settingsFromJson(text, &settings, &why) && why.empty()) __builtin_trap();

  const std::string path = fuzz::writeTemp(data, size, ".json");
  nav::bake::Level level;
  if (!nav::bake::loadLevelFile(path, &level, &why)) {
    if (why.empty()) __builtin_trap();
    return 0;
  }
  (void)nav::bake::resolveObjPath(path, level);
  const std::string again = path + ".resaved.json";
  if (!nav::bake::saveLevelFile(again, level, &why)) __builtin_trap();
  nav::bake::Level level2;
  if (!nav::bake::loadLevelFile(again, &level2, &why)) __builtin_trap(); // what we write, we read
  // Agent types, their overrides and the items' masks come back as they were.
  if (level2.agents.size() != level.agents.size() || level2.seedAgents != level.seedAgents ||
      level2.areaRules != level.areaRules || level2.volumes.size() != level.volumes.size() ||
      level2.links.size() != level.links.size())
    __builtin_trap();
  for (size_t i = 0; i < level.agents.size(); ++i)
    if (level2.agents[i].name != level.agents[i].name || level2.agents[i].settings != level.agents[i].settings ||
        level2.agents[i].overrides != level.agents[i].overrides || level2.agents[i].color != level.agents[i].color)
      __builtin_trap();
  for (size_t i = 0; i < level.volumes.size(); ++i)
    if (level2.volumes[i].agents != level.volumes[i].agents) __builtin_trap();
  for (size_t i = 0; i < level.links.size(); ++i)
    if (level2.links[i].agents != level.links[i].agents) __builtin_trap();
  std::remove(again.c_str());
  return 0;
}
