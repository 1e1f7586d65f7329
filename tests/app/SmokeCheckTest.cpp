// Checks the headless smoke screenshot (written by the app.smoke_screenshot test): the right
// size, and the level covers a sensible part of the frame (pixels differ from the clear colour).
#include "app/ViewSettings.h"
#include "render/Screenshot.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {
bool isClear(const uint8_t* p) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(int(p[k]) - int(navbench::kClearColor[k])) > 3) return false;
  return true;
}
} // namespace

TEST(SmokeScreenshot, LevelIsDrawn) {
  render::Image img;
  std::string error;
  ASSERT_TRUE(render::readPng(NAVBENCH_SMOKE_PNG, img, error)) << error;
  ASSERT_EQ(img.width, 1280);
  ASSERT_EQ(img.height, 720);
  // Whole frame: level + UI cover a good part of it, and some background shows.
  int notClear = 0;
  for (int i = 0; i < img.width * img.height; ++i) notClear += isClear(&img.rgba[size_t(i) * 4]) ? 0 : 1;
  const double frac = double(notClear) / double(img.width * img.height);
  EXPECT_GT(frac, 0.35) << "the frame is mostly the clear colour: the level was not drawn";
  EXPECT_LT(frac, 0.995) << "no background at all: the clear colour or camera framing changed";
  // The middle of the view (between the default panels) shows the level: lit surface colours,
  // neither the clear colour nor the dark UI.
  int centre = 0, lit = 0, n = 0;
  for (int y = img.height * 3 / 10; y < img.height * 7 / 10; ++y)
    for (int x = img.width * 7 / 20; x < img.width * 13 / 20; ++x, ++n) {
      const uint8_t* p = &img.rgba[(size_t(y) * size_t(img.width) + size_t(x)) * 4];
      centre += isClear(p) ? 0 : 1;
      lit += (p[0] + p[1] + p[2]) > 250 ? 1 : 0;
    }
  EXPECT_GT(double(centre) / n, 0.7); // the level is a diamond on screen: the region's corners are background
  EXPECT_GT(double(lit) / n, 0.6) << "the middle of the frame is not lit level surface";
}
