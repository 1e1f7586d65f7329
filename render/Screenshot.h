// Screenshot.h: framebuffer capture and PNG files (libpng), with optional tEXt chunks so a later
// tool can store e.g. a scenario inside the image. Files are written atomically (temp + rename).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace render {

/// An 8-bit RGBA image, rows top to bottom: [(r, g, b, a) * width * height].
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
  std::vector<std::pair<std::string, std::string>> text; ///< PNG tEXt chunks (keyword, value).
};

/// Reads the current read framebuffer's (0, 0, w, h) rectangle into `out`, flipped so the first
/// row is the top of the screen. Needs a current GL context.
bool readFramebuffer(int w, int h, Image& out, std::string& error);

/// Writes `img` as an RGBA PNG. The keywords of text chunks must be 1-79 Latin-1 characters.
bool writePng(const std::string& path, const Image& img, std::string& error);

/// Limits of readPng: images up to PNG_MAX_SIDE pixels a side, chunks (text included, after
/// decompression) up to PNG_MAX_CHUNK_BYTES; bigger ones are refused with libpng's message.
constexpr unsigned PNG_MAX_SIDE = 16384;
constexpr unsigned PNG_MAX_CHUNK_BYTES = 16u << 20;

/// Reads any PNG (converted to 8-bit RGBA) with its text chunks.
bool readPng(const std::string& path, Image& out, std::string& error);

} // namespace render
