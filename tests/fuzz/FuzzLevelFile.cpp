// FuzzLevelFile.cpp: the level file (nav/bake/LevelFile.h, JSON) and settingsFromJson. A level
// that loads must save and load again to the same settings.
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
  std::remove(again.c_str());
  return 0;
}
