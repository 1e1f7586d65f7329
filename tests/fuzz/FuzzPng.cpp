// FuzzPng.cpp: PNG reading (render/Screenshot.h, libpng). A PNG that reads gives w*h*4 bytes.
#include "render/Screenshot.h"
#include "tests/fuzz/FuzzUtil.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fuzz::writeTemp(data, size, ".png");
  render::Image img;
  std::string error;
  if (fuzz::refused(render::readPng(path, img, error), error)) return 0;
  if (img.width <= 0 || img.height <= 0 || img.rgba.size() != size_t(img.width) * size_t(img.height) * 4)
    __builtin_trap();
  return 0;
}
