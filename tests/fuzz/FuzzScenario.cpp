// FuzzScenario.cpp: scenario JSON text (app/Scenario.h parseScenario), as File > Open scenario
// reads it. A refusal has a message and leaves the output untouched; an accepted scenario saves
// (toJson) to text that parses again and saves byte-identically (the format's save -> open -> save
// promise), and nothing throws.
#include "app/Scenario.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)navbench::looksLikeScenario(text);
  navbench::Scenario s;
  s.note = "untouched";
  s.camera.distance = 123.5f;
  std::string err;
  if (!navbench::parseScenario(text, s, err)) {
    if (err.empty()) __builtin_trap();
    if (s.note != "untouched" || s.camera.distance != 123.5f) __builtin_trap(); // out must be unchanged
    return 0;
  }
  const std::string saved = navbench::toJson(s);
  navbench::Scenario again;
  if (!navbench::parseScenario(saved, again, err)) __builtin_trap(); // what we write, we read
  if (navbench::toJson(again) != saved) __builtin_trap();             // byte-stable
  return 0;
}
