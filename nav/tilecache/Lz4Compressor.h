// Lz4Compressor.h: the tile cache's default layer compressor (Debian's liblz4, LZ4 block format),
// and a pass-through one for tests and fuzzing.
#pragma once

#include "nav/tilecache/TileCacheBuilder.h"

namespace nav {
namespace tilecache {

/// LZ4 block compression: LZ4_compress_fast with acceleration 1, LZ4_decompress_safe (which never
/// reads or writes out of bounds on corrupt input). Stateless: one instance may serve any number of
/// caches and threads.
class Lz4Compressor final : public TileCacheCompressor {
public:
  int maxCompressedSize(int bufferSize) override;
  Status compress(const uint8_t* buffer, int bufferSize, uint8_t* compressed, int maxCompressedSize,
                  int* compressedSize) override;
  Status decompress(const uint8_t* compressed, int compressedSize, uint8_t* buffer, int maxBufferSize,
                    int* bufferSize) override;
};

/// Stores the bytes as they are (compressed size = input size). For tests, fuzzing, and blobs
/// whose bytes should be readable.
class NullCompressor final : public TileCacheCompressor {
public:
  int maxCompressedSize(int bufferSize) override;
  Status compress(const uint8_t* buffer, int bufferSize, uint8_t* compressed, int maxCompressedSize,
                  int* compressedSize) override;
  Status decompress(const uint8_t* compressed, int compressedSize, uint8_t* buffer, int maxBufferSize,
                    int* bufferSize) override;
};

} // namespace tilecache
} // namespace nav
