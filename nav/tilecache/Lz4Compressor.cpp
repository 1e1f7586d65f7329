// Lz4Compressor.cpp: see Lz4Compressor.h.
#include "nav/tilecache/Lz4Compressor.h"

#include <lz4.h>

#include <cstring>

namespace nav {
namespace tilecache {

int Lz4Compressor::maxCompressedSize(int bufferSize) {
  // LZ4_compressBound is 0 for sizes beyond LZ4_MAX_INPUT_SIZE (and for negative ones).
  return LZ4_compressBound(bufferSize);
}

Status Lz4Compressor::compress(const uint8_t* buffer, int bufferSize, uint8_t* compressed, int maxCompressedSize,
                               int* compressedSize) {
  if (!buffer || !compressed || !compressedSize || bufferSize < 0 || maxCompressedSize < 0)
    return FAILURE | INVALID_PARAM;
  const int n = LZ4_compress_fast(reinterpret_cast<const char*>(buffer), reinterpret_cast<char*>(compressed),
                                  bufferSize, maxCompressedSize, 1);
  if (n <= 0) {
    *compressedSize = 0;
    return FAILURE | BUFFER_TOO_SMALL;
  }
  *compressedSize = n;
  return SUCCESS;
}

Status Lz4Compressor::decompress(const uint8_t* compressed, int compressedSize, uint8_t* buffer, int maxBufferSize,
                                 int* bufferSize) {
  if (!compressed || !buffer || !bufferSize || compressedSize < 0 || maxBufferSize < 0)
    return FAILURE | INVALID_PARAM;
  const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(compressed), reinterpret_cast<char*>(buffer),
                                    compressedSize, maxBufferSize);
  if (n < 0) {
    *bufferSize = 0;
    return FAILURE | INVALID_PARAM;
  }
  *bufferSize = n;
  return SUCCESS;
}

int NullCompressor::maxCompressedSize(int bufferSize) { return bufferSize > 0 ? bufferSize : 0; }

Status NullCompressor::compress(const uint8_t* buffer, int bufferSize, uint8_t* compressed, int maxCompressedSize,
                                int* compressedSize) {
  if (!buffer || !compressed || !compressedSize || bufferSize < 0) return FAILURE | INVALID_PARAM;
  if (bufferSize > maxCompressedSize) {
    *compressedSize = 0;
    return FAILURE | BUFFER_TOO_SMALL;
  }
  std::memcpy(compressed, buffer, size_t(bufferSize));
  *compressedSize = bufferSize;
  return SUCCESS;
}

Status NullCompressor::decompress(const uint8_t* compressed, int compressedSize, uint8_t* buffer, int maxBufferSize,
                                  int* bufferSize) {
  if (!compressed || !buffer || !bufferSize || compressedSize < 0) return FAILURE | INVALID_PARAM;
  if (compressedSize > maxBufferSize) {
    *bufferSize = 0;
    return FAILURE | BUFFER_TOO_SMALL;
  }
  std::memcpy(buffer, compressed, size_t(compressedSize));
  *bufferSize = compressedSize;
  return SUCCESS;
}

} // namespace tilecache
} // namespace nav
