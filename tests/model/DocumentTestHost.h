// DocumentTestHost.h: the DocumentHost of headless document tests: no window, no dialogs; it
// counts what the document asked of the viewer and keeps the error toasts. IdleTool: a tool with no
// inputs, for documents whose tests need a tool only to be there.
#pragma once

#include "app/Document.h"
#include "app/tools/Tool.h"

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

/// A tool with no inputs.
class IdleTool : public Tool {
public:
  const char* name() const override { return "Idle"; }
  void onClick(const glm::vec3&, const glm::vec3&, bool) override {}
};

} // namespace navbench
