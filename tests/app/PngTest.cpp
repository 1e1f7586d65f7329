// PNG files through libpng: pixels and text chunks survive a round trip; bad files give messages.
#include "TestUtil.h"

#include "render/Screenshot.h"

#include <gtest/gtest.h>

using navbench::test::TempDir;

TEST(Png, RoundTripWithTextChunks) {
  TempDir dir;
  render::Image img;
  img.width = 7;
  img.height = 5;
  img.rgba.resize(7 * 5 * 4);
  for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = uint8_t(i * 37 + 11);
  img.text = {{"navbench.scenario", "{\"start\": [1, 2, 3]}"}, {"Comment", std::string(3000, 'x')}};
  std::string error;
  const std::string path = dir.file("img.png");
  ASSERT_TRUE(render::writePng(path, img, error)) << error;
  render::Image back;
  ASSERT_TRUE(render::readPng(path, back, error)) << error;
  EXPECT_EQ(back.width, 7);
  EXPECT_EQ(back.height, 5);
  EXPECT_EQ(back.rgba, img.rgba);
  ASSERT_EQ(back.text.size(), 2u);
  EXPECT_EQ(back.text[0], img.text[0]);
  EXPECT_EQ(back.text[1], img.text[1]); // long text goes through zTXt
}

TEST(Png, Errors) {
  TempDir dir;
  render::Image img;
  std::string error;
  EXPECT_FALSE(render::readPng(dir.file("missing.png"), img, error));
  EXPECT_NE(error.find("missing.png"), std::string::npos) << error;
  EXPECT_FALSE(render::readPng(dir.write("fake.png", "this is not a png"), img, error));
  EXPECT_NE(error.find("not a PNG"), std::string::npos) << error;
  img.width = 2;
  img.height = 2;
  img.rgba.resize(3); // wrong size
  EXPECT_FALSE(render::writePng(dir.file("x.png"), img, error));
  img.rgba.resize(16);
  EXPECT_FALSE(render::writePng(dir.file("no/such/dir/x.png"), img, error));
  EXPECT_NE(error.find("x.png"), std::string::npos) << error;
}
