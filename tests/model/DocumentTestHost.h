// DocumentTestHost.h: the DocumentHost of headless document tests: no window, no dialogs; it
// counts what the document asked of the viewer and keeps the error toasts.
#pragma once

#include "app/Document.h"

#include <string>
#include <vector>

namespace navbench {

struct DocumentTestHost : DocumentHost {
  bool headless() const override { return true; }
  bool asksForMovedFiles() const override { return false; }
  void levelReplaced() override { ++levels; }
  void levelRecolour() override {}
  void navmeshReplaced() override { ++navmeshes; }
  void fileOpened(const std::string& path) override { opened.push_back(path); }
  void notify(const std::string& text, bool error) override {
    if (error) errors.push_back(text);
  }
  void askForMovedFiles(const MovedFiles&) override { ++askedMoved; }
  void loadTimeBakeStarted() override { ++bakes; }
  void openFilesChanged() override {}
  int levels = 0, navmeshes = 0, askedMoved = 0, bakes = 0;
  std::vector<std::string> opened, errors;
};

} // namespace navbench
