// CheckTempDir.h: a gtest fixture with a fresh folder under /tmp per test (removed after it).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <system_error>

#include <stdlib.h>

namespace checktest {

class TempDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/check_test_XXXXXX";
    const char* made = mkdtemp(tmpl);
    ASSERT_NE(made, nullptr);
    dir = made;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string dir;
};

} // namespace checktest
