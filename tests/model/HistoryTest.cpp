// The one undo history (app/model/History.h) on its own: order across clients, the version
// counter, the change callback, the redo list dropped by a push, the step limit.
#include "app/model/History.h"
#include "tests/model/EditFixture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using navbench::History;
using navbench::HistoryClient;

using Counter = navbench::test::ValueClient<int>;

TEST(History, UndoAndRedoFollowThePushOrderAcrossClients) {
  History h;
  Counter a, b;
  a.history = b.history = &h;
  a.set(1);
  b.set(10);
  a.set(2);
  EXPECT_EQ(h.undoCount(), 3u);
  ASSERT_TRUE(h.undo());
  EXPECT_EQ(a.value, 1);
  EXPECT_EQ(b.value, 10);
  ASSERT_TRUE(h.undo());
  EXPECT_EQ(b.value, 0);
  ASSERT_TRUE(h.undo());
  EXPECT_EQ(a.value, 0);
  EXPECT_FALSE(h.undo()) << "nothing left";
  EXPECT_FALSE(h.canUndo());
  ASSERT_TRUE(h.redo());
  ASSERT_TRUE(h.redo());
  EXPECT_EQ(a.value, 1);
  EXPECT_EQ(b.value, 10);
  EXPECT_EQ(h.redoCount(), 1u);
  b.set(11); // a new change drops what was undone
  EXPECT_FALSE(h.canRedo());
  EXPECT_FALSE(h.redo());
  EXPECT_EQ(a.value, 1);
  ASSERT_TRUE(h.undo());
  EXPECT_EQ(b.value, 10);
}

TEST(History, TheVersionGrowsOnEveryChangeAndTheCallbackSeesIt) {
  History h;
  Counter a;
  a.history = &h;
  std::vector<History::Change> seen;
  std::vector<uint64_t> versions;
  h.onChange = [&](History::Change c) {
    seen.push_back(c);
    versions.push_back(h.version());
  };
  EXPECT_EQ(h.version(), 0u);
  a.set(1);
  h.undo();
  h.redo();
  h.noteChange();
  EXPECT_FALSE(h.redo()) << "a refused redo is no change";
  h.reset();
  EXPECT_EQ(h.version(), 5u);
  EXPECT_EQ(seen, (std::vector<History::Change>{History::Change::Push, History::Change::Undo, History::Change::Redo,
                                                History::Change::Note, History::Change::Reset}));
  EXPECT_EQ(versions, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_FALSE(h.canUndo());
  h.push(nullptr);
  EXPECT_EQ(h.version(), 5u) << "no client, no step";
}

/// A client with nothing to undo (its steps only count).
struct Nothing : HistoryClient {
  int undone = 0, redone = 0;
  void undo() override { ++undone; }
  void redo() override { ++redone; }
};

TEST(History, NamesTheStepsAndKeepsAtMostTheLimit) {
  History h;
  Nothing a;
  h.push(&a, "added volume 0");
  EXPECT_EQ(h.undoName(), "added volume 0");
  h.undo();
  EXPECT_EQ(a.undone, 1);
  EXPECT_EQ(h.redoName(), "added volume 0");
  EXPECT_EQ(h.undoName(), "");
  for (size_t i = 0; i < History::kMaxSteps + 10; ++i) h.push(&a);
  EXPECT_EQ(h.undoCount(), History::kMaxSteps);
  h.forget(&a);
  EXPECT_EQ(h.undoCount(), 0u);
}

} // namespace
