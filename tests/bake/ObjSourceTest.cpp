// ObjSourceTest.cpp: the streaming OBJ reader over other sources than its own file read: text
// already in memory (streamObjText, the viewer's checked load) and a caller's ObjSource fed in
// pieces of any size give exactly what streamObj reads from the file, with the same messages
// naming the file; the size limit is a parameter (the viewer's 512 MiB, none for the file bake).
#include "BakeTestUtil.h"
#include "ObjSinkCollect.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using Collect = baketest::CollectSink; // everything streamObj hands over, with the progress calls
using nav::bake::ObjMesh;

namespace {

std::string tempPath(const std::string& name) {
  return baketest::processTempPath(::testing::TempDir(), "objsource", name);
}

void writeText(const std::string& path, const std::string& text) {
  ASSERT_TRUE(baketest::writeFile(path, text)) << path;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}


/// Text handed over `piece` bytes at a time (at most what is asked), optionally stopping with a
/// failure once `stopAt` bytes are out.
struct PieceSource : nav::bake::ObjSource {
  PieceSource(const std::string& t, size_t p) : text(t), piece(p) {}
  const std::string& text;
  size_t piece, at = 0, stopAt = size_t(-1);
  long long read(char* dst, size_t n) override {
    if (at >= stopAt) {
      failure = "stopped by the source";
      return -1;
    }
    n = std::min({n, piece, text.size() - at});
    std::memcpy(dst, text.data() + at, n);
    at += n;
    return (long long)n;
  }
};

/// An OBJ of `n` + 3 vertices (90000: a few blocks): vertices with a colour, faces with every
/// reference form, negative and forward references, CRLF and CR line ends, comments and other
/// records; the faces follow all the vertices unless `interleaved` (a face after every vertex).
std::string mixedObj(int n = 90000, bool interleaved = false) {
  std::string s = "# mixed\r\nmtllib ignored.mtl\nv 0 0 0 1 0 0\nv 1 0 0\rv 1 0.5 1\r\nvt 0 0\nvn 0 1 0\n"
                  "f 1/1/1 2//1 3/1 -1\no obj\nf 4 5 6\n"; // 4..6 refer forward
  std::string faces;
  for (int i = 0; i < n; ++i) {
    s += "v " + std::to_string(i * 0.37) + " " + std::to_string((i % 7) * -1.25) + " " + std::to_string(i / 3) +
         (i % 5 == 0 ? "\r\n" : "\n");
    if (interleaved && i >= 3) s += "f " + std::to_string(i + 1) + " -2 " + std::to_string(i + 3) + "/1/1 -4\n";
  }
  for (int i = 0; i + 4 < n; i += 2)
    s += "f " + std::to_string(4 + i) + " " + std::to_string(5 + i) + "/2 " + std::to_string(6 + i) + "//1 -" +
         std::to_string(n - i - 3) + "\n";
  return s;
}

} // namespace

TEST(ObjSource, TextInMemoryGivesWhatTheFileGives) {
  const std::string text = mixedObj();
  const std::string path = tempPath("mixed.obj");
  writeText(path, text);
  ASSERT_GT(text.size(), size_t(3) << 20); // several 1 MiB blocks
  for (const std::string& p : {path, baketest::defaultObj()}) {
    SCOPED_TRACE(p);
    const std::string t = readText(p);
    Collect disk, mem;
    long long nvDisk = 0, ntDisk = 0, nvMem = 0, ntMem = 0;
    std::string why;
    ASSERT_TRUE(nav::bake::streamObj(p, disk, &nvDisk, &ntDisk, &why)) << why;
    ASSERT_TRUE(nav::bake::streamObjText(p, t.data(), t.size(), mem, &nvMem, &ntMem, &why)) << why;
    EXPECT_GT(ntDisk, 0);
    EXPECT_EQ(mem.m.verts, disk.m.verts);
    EXPECT_EQ(mem.m.tris, disk.m.tris);
    EXPECT_EQ(nvMem, nvDisk);
    EXPECT_EQ(ntMem, ntDisk);
    EXPECT_EQ(mem.blocks, disk.blocks);
    EXPECT_EQ(mem.fileBytes, (long long)t.size());
    EXPECT_EQ(mem.lastRead, (long long)t.size());
  }
  std::remove(path.c_str());
}

// A source that hands over 1, 7 or 4096 bytes at a time (lines and CRLF pairs cut anywhere) gives
// the same records: the reader keeps an unfinished line across reads.
TEST(ObjSource, PiecesOfAnySizeGiveTheSameRecords) {
  std::string text = mixedObj(2000, true);
  text += "f 1 2 3"; // the last line without a line end
  Collect whole;
  std::string why;
  ASSERT_TRUE(nav::bake::streamObjText("mixed.obj", text.data(), text.size(), whole, nullptr, nullptr, &why)) << why;
  ASSERT_GT(whole.m.tris.size(), 3000u);
  for (size_t piece : {size_t(1), size_t(7), size_t(4096)}) {
    SCOPED_TRACE(piece);
    PieceSource src(text, piece);
    Collect c;
    long long nv = 0, nt = 0;
    ASSERT_TRUE(nav::bake::streamObj("mixed.obj", src, (long long)text.size(), c, &nv, &nt, &why)) << why;
    EXPECT_EQ(c.m.verts, whole.m.verts);
    EXPECT_EQ(c.m.tris, whole.m.tris);
    EXPECT_EQ(nt, (long long)whole.m.tris.size() / 3);
  }
  // A source that stops: "<name>: its failure".
  PieceSource stop(text, 4096);
  stop.stopAt = 8192;
  Collect c;
  EXPECT_FALSE(nav::bake::streamObj("mixed.obj", stop, (long long)text.size(), c, nullptr, nullptr, &why));
  EXPECT_EQ(why, "mixed.obj: stopped by the source");
}

// Bad text in memory fails with the message the same file read from disk gives, naming the file.
TEST(ObjSource, TextInMemoryFailsAsTheFileDoes) {
  const std::string path = tempPath("bad.obj");
  const char* bad[] = {
      "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 9\n", // forward reference never met
      "v 0 0 0\nv 1 0\nf 1 2 3\n",                     // two numbers
      "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 0 1 2\n",          // reference 0
      "v 0 0 0\nv 1 0 0\nf -1 -2 -3\n",                // before the first vertex
      "v 0 nan 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n",        // not finite
      "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 x 3\n",          // not a number
      "v 0 0 0\nv 1 0 0\nv 0 0 1\n",                   // no faces
      "",                                              // empty
  };
  for (const char* text : bad) {
    SCOPED_TRACE(text);
    writeText(path, text);
    Collect disk, mem;
    std::string whyDisk, whyMem;
    EXPECT_FALSE(nav::bake::streamObj(path, disk, nullptr, nullptr, &whyDisk));
    EXPECT_FALSE(nav::bake::streamObjText(path, text, std::strlen(text), mem, nullptr, nullptr, &whyMem));
    EXPECT_EQ(whyMem, whyDisk);
    EXPECT_EQ(whyMem.rfind(path + ":", 0), 0u) << whyMem;
  }
  std::remove(path.c_str());
}

// The size limit is the caller's: a file over it is refused naming the file, its size and the
// limit (in bytes under a MiB, in MiB at and above: the 512 MiB message is unchanged); at the limit
// or with none it is read.
TEST(ObjSource, SizeLimitIsAParameter) {
  const std::string path = tempPath("limit.obj");
  const std::string text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";
  writeText(path, text);
  const long long size = (long long)text.size();
  std::string why;
  Collect over;
  EXPECT_FALSE(nav::bake::streamObj(path, over, nullptr, nullptr, &why, size - 1));
  EXPECT_EQ(why, path + ": file is " + std::to_string(size) + " bytes, over the " + std::to_string(size - 1) +
                     " bytes OBJ size limit");
  EXPECT_EQ(over.blocks, 0); // refused before any reading
  ObjMesh m;
  EXPECT_FALSE(nav::bake::loadObj(path, &m, &why, size - 1));
  EXPECT_NE(why.find("over the " + std::to_string(size - 1) + " bytes OBJ size limit"), std::string::npos) << why;
  for (long long limit : {size, nav::bake::NO_OBJ_SIZE_LIMIT, nav::bake::MAX_OBJ_BYTES}) {
    SCOPED_TRACE(limit);
    Collect c;
    long long nt = 0;
    EXPECT_TRUE(nav::bake::streamObj(path, c, nullptr, &nt, &why, limit)) << why;
    EXPECT_EQ(nt, 1);
    EXPECT_TRUE(nav::bake::loadObj(path, &m, &why, limit)) << why;
  }
  std::remove(path.c_str());
}

// A sparse file one byte over 512 MiB (a triangle, then holes: no disk blocks): loadObj and
// streamObj with the default limit refuse it for its size before reading; without a limit it is
// read (and refused for its content: the holes are one line of zero bytes), and so is it by the
// file bake, which streams and passes no limit (StreamBake.cpp).
TEST(ObjSource, TheFileBakeHasNoSizeLimit) {
  const std::string path = tempPath("sparse.obj");
  writeText(path, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  ASSERT_EQ(::truncate(path.c_str(), off_t(nav::bake::MAX_OBJ_BYTES + 1)), 0);
  std::string why;
  Collect c;
  EXPECT_FALSE(nav::bake::streamObj(path, c, nullptr, nullptr, &why));
  EXPECT_EQ(why, path + ": file is 512 MiB, over the 512 MiB OBJ size limit");
  EXPECT_FALSE(nav::bake::streamObj(path, c, nullptr, nullptr, &why, nav::bake::NO_OBJ_SIZE_LIMIT));
  EXPECT_EQ(why, path + ":5: line longer than 64 MiB (not a text OBJ file?)");

  // The file bake of a level pointing at it: refused for the long line, not for the size.
  nav::bake::FileBakeInput fin;
  nav::bake::BakeSettings s;
  ASSERT_TRUE(nav::bake::loadFileBakeInput(baketest::defaultLevel(), &fin, &s, &why)) << why;
  ASSERT_TRUE(s.tiled); // the solo case holds the whole level (Baker) and keeps the limit
  fin.objPath = path;
  fin.volumes.clear();
  fin.links.clear();
  nav::bake::BakeReport r;
  const std::string out = tempPath("sparse.bin");
  EXPECT_FALSE(nav::bake::bakeFileToTileSet(fin, s, out, nav::bake::BakeOptions(), &r));
  EXPECT_EQ(r.error.find("size limit"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(path + ":5: line longer than 64 MiB"), std::string::npos) << r.error;
  std::remove(out.c_str());
  std::remove(path.c_str());
}
