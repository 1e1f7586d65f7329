#include "render/Screenshot.h"

#include "render/Gl.h"

#include "nav/base/AtomicFile.h"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

namespace render {

namespace {

struct PngErr {
  std::string msg;
};

void pngError(png_structp png, png_const_charp msg) {
  auto* e = static_cast<PngErr*>(png_get_error_ptr(png));
  if (e) e->msg = msg;
  png_longjmp(png, 1);
}
void pngWarning(png_structp, png_const_charp) {}

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};

} // namespace

bool readFramebuffer(int w, int h, Image& out, std::string& error) {
  if (w <= 0 || h <= 0) {
    error = "cannot read a " + std::to_string(w) + "x" + std::to_string(h) + " framebuffer";
    return false;
  }
  out.width = w;
  out.height = h;
  out.rgba.assign(size_t(w) * size_t(h) * 4, 0);
  std::vector<uint8_t> tmp(out.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, tmp.data());
  if (!checkGl("glReadPixels", error)) return false;
  size_t row = size_t(w) * 4;
  for (int y = 0; y < h; ++y) std::memcpy(&out.rgba[size_t(y) * row], &tmp[size_t(h - 1 - y) * row], row);
  return true;
}

namespace {

// The functions that call setjmp hold no C++ objects of their own: everything they touch after
// setjmp lives in the caller (passed by pointer), so a libpng error's longjmp is safe.
bool writeCore(FILE* f, const Image* img, png_bytep* rows, png_text* texts, PngErr* perr) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, perr, pngError, pngWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    perr->msg = "libpng initialisation failed";
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, png_uint_32(img->width), png_uint_32(img->height), 8, PNG_COLOR_TYPE_RGBA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!img->text.empty()) png_set_text(png, info, texts, int(img->text.size()));
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

__attribute__((noinline)) void allocImage(Image* out, std::vector<png_bytep>* rows, png_uint_32 w, png_uint_32 h) {
  out->width = int(w);
  out->height = int(h);
  out->rgba.assign(size_t(w) * size_t(h) * 4, 0);
  rows->resize(size_t(h));
  for (size_t y = 0; y < size_t(h); ++y) (*rows)[y] = &out->rgba[y * size_t(w) * 4];
}

__attribute__((noinline)) void addText(Image* out, png_textp texts, int n) {
  out->text.clear();
  for (int i = 0; i < n; ++i) {
    // libpng keeps an iTXt chunk's length in itxt_length (text_length is 0 for it).
    const bool itxt = texts[i].compression >= PNG_ITXT_COMPRESSION_NONE;
    const size_t len = texts[i].text ? (itxt ? texts[i].itxt_length : texts[i].text_length) : 0;
    out->text.emplace_back(texts[i].key, std::string(texts[i].text ? texts[i].text : "", len));
  }
}

bool readCore(FILE* f, Image* out, std::vector<png_bytep>* rows, PngErr* perr) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, perr, pngError, pngWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_read_struct(&png, &info, nullptr);
    perr->msg = "libpng initialisation failed";
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  // Untrusted files: bound what a header can make us allocate (fuzz_png found a 74-byte file
  // whose chunk length made libpng allocate gigabytes).
  png_set_user_limits(png, PNG_MAX_SIDE, PNG_MAX_SIDE);
  png_set_chunk_malloc_max(png, PNG_MAX_CHUNK_BYTES);
  png_init_io(png, f);
  png_set_sig_bytes(png, 8);
  png_read_info(png, info);
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  allocImage(out, rows, png_get_image_width(png, info), png_get_image_height(png, info));
  png_read_image(png, rows->data());
  png_read_end(png, info);
  png_textp texts = nullptr;
  int nt = png_get_text(png, info, &texts, nullptr);
  addText(out, texts, nt);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

} // namespace

bool writePng(const std::string& path, const Image& img, std::string& error) {
  if (img.width <= 0 || img.height <= 0 || img.rgba.size() != size_t(img.width) * size_t(img.height) * 4) {
    error = "cannot write " + path + ": image size does not match its pixel data";
    return false;
  }
  std::vector<png_text> texts(img.text.size());
  for (size_t i = 0; i < img.text.size(); ++i) {
    texts[i] = png_text{};
    texts[i].compression = img.text[i].second.size() > 1024 ? PNG_TEXT_COMPRESSION_zTXt : PNG_TEXT_COMPRESSION_NONE;
    texts[i].key = const_cast<char*>(img.text[i].first.c_str());
    texts[i].text = const_cast<char*>(img.text[i].second.c_str());
    texts[i].text_length = img.text[i].second.size();
  }
  std::vector<png_bytep> rows(size_t(img.height));
  for (int y = 0; y < img.height; ++y)
    rows[size_t(y)] = const_cast<png_bytep>(&img.rgba[size_t(y) * size_t(img.width) * 4]);

  // Temp file + rename (nav/base/AtomicFile.h, header-only): a failed write leaves the old file.
  base::AtomicFile out(path);
  std::string why;
  if (!out.open(why)) {
    error = "cannot write " + why;
    return false;
  }
  PngErr perr;
  if (!writeCore(out.file(), &img, rows.data(), texts.data(), &perr)) {
    error = "cannot write " + path + ": " + perr.msg;
    return false; // out's destructor removes the temporary file
  }
  if (!out.commit(why)) {
    error = "cannot write " + why;
    return false;
  }
  return true;
}

bool readPng(const std::string& path, Image& out, std::string& error) {
  std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  unsigned char sig[8] = {};
  if (std::fread(sig, 1, 8, f.get()) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
    error = "cannot read " + path + ": not a PNG file";
    return false;
  }
  // Every chunk must fit in the file: libpng would otherwise allocate what a corrupt length says
  // (fuzz_png: a 74-byte file with a 2 GB tEXt length took 2.3 GB before failing).
  if (std::fseek(f.get(), 0, SEEK_END) != 0) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  const long fileSize = std::ftell(f.get());
  for (long pos = 8; pos + 8 <= fileSize;) {
    unsigned char hdr[8];
    if (std::fseek(f.get(), pos, SEEK_SET) != 0 || std::fread(hdr, 1, 8, f.get()) != 8) break;
    const unsigned long len = (unsigned long)hdr[0] << 24 | (unsigned long)hdr[1] << 16 | (unsigned long)hdr[2] << 8 | hdr[3];
    if (len > (unsigned long)(fileSize - pos - 8) || len > PNG_MAX_CHUNK_BYTES) {
      error = "cannot read " + path + ": chunk at byte " + std::to_string(pos) + " claims " + std::to_string(len) +
              " bytes, past the end of the file or over the limit";
      return false;
    }
    if (std::memcmp(hdr + 4, "IEND", 4) == 0) break;
    pos += 12 + long(len);
  }
  std::fseek(f.get(), 8, SEEK_SET);
  PngErr perr;
  std::vector<png_bytep> rows;
  if (!readCore(f.get(), &out, &rows, &perr)) {
    error = "cannot read " + path + ": " + perr.msg;
    return false;
  }
  return true;
}

} // namespace render
