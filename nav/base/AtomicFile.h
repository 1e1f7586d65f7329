// AtomicFile.h: the one way NavBench writes a file. Header-only and
// standard-library only (nav/base: the helpers every module may use; it includes nothing of ours).
//
// The bytes go to a temporary file beside the target ("<path>.tmp<pid>": same directory, so the
// rename stays on one file system), which is flushed, fsync'ed and closed, then renamed over
// `path`. A failure at any step (or an AtomicFile destroyed before commit) removes the temporary
// file and leaves whatever was at `path` untouched; errors name `path` and say what failed.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <utility>

namespace base {

/// The temporary file used for `path` by this process (tests put obstacles there).
inline std::string atomicTempPath(const std::string& path) { return path + ".tmp" + std::to_string(::getpid()); }

/// A file being written atomically: open(), write to file(), commit().
///   base::AtomicFile out(path);
///   if (!out.open(why)) return false;
///   fwrite(..., out.file());
///   if (!out.commit(why)) return false;   // why = "<path>: <problem> (the previous file ...)"
class AtomicFile {
public:
  explicit AtomicFile(std::string path) : m_path(std::move(path)), m_tmp(atomicTempPath(m_path)) {}
  ~AtomicFile() { discard(); }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Creates the temporary file. False with `why` set when it cannot.
  bool open(std::string& why) {
    discard();
    m_file = std::fopen(m_tmp.c_str(), "wb");
    if (!m_file) return fail(why, "cannot create the temporary file " + m_tmp + ": " + std::strerror(errno));
    return true;
  }
  /// The open temporary file (null before open / after commit or discard).
  std::FILE* file() const { return m_file; }
  const std::string& path() const { return m_path; }

  /// Flushes, syncs and closes the temporary file, then renames it over path(). On failure the
  /// temporary file is removed, the old file stays, and `why` says "<path>: <problem>".
  bool commit(std::string& why) {
    if (!m_file) return fail(why, "not open");
    std::FILE* f = m_file;
    m_file = nullptr;
    std::string err;
    if (std::ferror(f)) err = "write failed";
    if (err.empty() && std::fflush(f) != 0) err = std::string("write failed: ") + std::strerror(errno);
    if (err.empty() && ::fsync(::fileno(f)) != 0 && errno != EINVAL)
      err = std::string("fsync failed: ") + std::strerror(errno);
    if (std::fclose(f) != 0 && err.empty()) err = std::string("write failed on close: ") + std::strerror(errno);
    if (err.empty() && std::rename(m_tmp.c_str(), m_path.c_str()) != 0)
      err = "cannot rename " + m_tmp + " into place: " + std::strerror(errno);
    if (err.empty()) return true;
    std::remove(m_tmp.c_str());
    return fail(why, err);
  }
  /// Abandons the write: closes and removes the temporary file; path() is left as it was.
  void discard() {
    if (!m_file) return;
    std::fclose(m_file);
    m_file = nullptr;
    std::remove(m_tmp.c_str());
  }

private:
  bool fail(std::string& why, const std::string& problem) const {
    why = m_path + ": " + problem + " (the previous file, if any, is unchanged)";
    return false;
  }
  std::string m_path, m_tmp;
  std::FILE* m_file = nullptr;
};

/// Writes `size` bytes to `path` atomically (see AtomicFile). False with `why` set on failure.
inline bool writeFileAtomic(const std::string& path, const void* data, size_t size, std::string& why) {
  AtomicFile out(path);
  if (!out.open(why)) return false;
  if (size && std::fwrite(data, 1, size, out.file()) != size) {
    const std::string e = std::strerror(errno);
    out.discard();
    why = path + ": write failed: " + e + " (the previous file, if any, is unchanged)";
    return false;
  }
  return out.commit(why);
}

/// Writes a string to `path` atomically.
inline bool writeFileAtomic(const std::string& path, const std::string& text, std::string& why) {
  return writeFileAtomic(path, text.data(), text.size(), why);
}

} // namespace base
