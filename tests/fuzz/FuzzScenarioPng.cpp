// FuzzScenarioPng.cpp: a screenshot with an embedded scenario, as the viewer opens it: PNG bytes
// -> render::readPng (text chunks: tEXt, zTXt, iTXt) -> navbench::scenarioFromPngText. Refusals
// have a message; an accepted scenario round-trips through toJson byte-stably.
#include "FuzzUtil.h"
#include "app/Scenario.h"
#include "render/Screenshot.h"

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fuzz::writeTemp(data, size, ".png");
  render::Image img;
  std::string err;
  const bool read = render::readPng(path, img, err);
  std::remove(path.c_str());
  if (!read) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  navbench::Scenario s;
  if (!navbench::scenarioFromPngText(img.text, s, err)) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  const std::string saved = navbench::toJson(s);
  navbench::Scenario again;
  if (!navbench::parseScenario(saved, again, err)) __builtin_trap();
  if (navbench::toJson(again) != saved) __builtin_trap();
  return 0;
}
