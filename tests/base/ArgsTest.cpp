// ArgsTest.cpp: nav/base/Args.h, the argv parser of the navbench subcommands.
#include "nav/base/Args.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

/// A tool with one option of every kind (as a subcommand declares them).
struct Tool {
  std::string mesh, cases, out, json;
  std::vector<std::string> extra;
  int repeat = 1;
  long long seed = 7;
  float size = 100.0f;
  bool quiet = false;
  base::Args args{"navbench tool", "Does a thing."};

  Tool() {
    args.positional("MESH.bin", &mesh, "tile set")
        .positional("CASES.txt", &cases, "test cases")
        .optional()
        .text("-o, --out", "OUT.bin", &out, "file to write")
        .required("no output file given (-o OUT.bin)")
        .text("--json", "OUT.jsonl", &json, "records")
        .texts("--extra", "FILE", &extra, "more files")
        .integer("--repeat", "R", &repeat, 1, 100000, "runs")
        .integer("--seed", "S", &seed, 0, 0xffffffffLL, "generator seed")
        .number("--size", "METRES", &size, 32, 8192, "edge of the world")
        .flag("-q, --quiet", &quiet, "no progress")
        .note("exit code: 0 done, 2 bad input");
  }

  base::Args::Outcome parse(std::vector<const char*> argv) {
    argv.insert(argv.begin(), "tool");
    return args.parse(int(argv.size()), argv.data());
  }
};

using Outcome = base::Args::Outcome;

TEST(Args, ParsesEveryKindIntoTheCallersVariables) {
  Tool t;
  ASSERT_EQ(t.parse({"m.bin", "-o", "x.bin", "--repeat", "3", "--seed=4294967295", "--size", "2000.5", "-q", "c.txt",
                     "--extra", "a", "--extra=b", "--json", "j.jsonl"}),
            Outcome::Run)
      << t.args.error();
  EXPECT_EQ(t.mesh, "m.bin");
  EXPECT_EQ(t.cases, "c.txt");
  EXPECT_EQ(t.out, "x.bin");
  EXPECT_EQ(t.json, "j.jsonl");
  EXPECT_EQ(t.extra, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.repeat, 3);
  EXPECT_EQ(t.seed, 4294967295LL);
  EXPECT_FLOAT_EQ(t.size, 2000.5f);
  EXPECT_TRUE(t.quiet);
  EXPECT_TRUE(t.args.given("--repeat"));
  EXPECT_TRUE(t.args.given("-q"));
  EXPECT_TRUE(t.args.given("--out")); // given as -o
  EXPECT_TRUE(t.args.given("CASES.txt"));
}

TEST(Args, LeavesDefaultsAndOptionalPositionalsAlone) {
  Tool t;
  ASSERT_EQ(t.parse({"--out", "x.bin", "m.bin"}), Outcome::Run) << t.args.error();
  EXPECT_EQ(t.cases, "");
  EXPECT_EQ(t.repeat, 1);
  EXPECT_EQ(t.seed, 7);
  EXPECT_FALSE(t.quiet);
  EXPECT_FALSE(t.args.given("--repeat"));
  EXPECT_FALSE(t.args.given("CASES.txt"));
}

TEST(Args, RefusesWithAMessageNamingTheOptionAndTheProblem) {
  struct Bad {
    std::vector<const char*> argv;
    const char* message;
  };
  const Bad bad[] = {
      {{"m.bin", "-o", "x", "--bogus"}, "unknown option --bogus"},
      {{"m.bin", "-o", "x", "--bogus=3"}, "unknown option --bogus"},
      {{"m.bin", "-o", "x", "--repeat"}, "--repeat needs a number in 1..100000"},
      {{"m.bin", "-o", "x", "--repeat", "0"}, "--repeat needs a number in 1..100000, not '0'"},
      {{"m.bin", "-o", "x", "--repeat", "100001"}, "--repeat needs a number in 1..100000, not '100001'"},
      {{"m.bin", "-o", "x", "--repeat", "3x"}, "--repeat needs a number in 1..100000, not '3x'"},
      {{"m.bin", "-o", "x", "--repeat", ""}, "--repeat needs a number in 1..100000, not ''"},
      {{"m.bin", "-o", "x", "--repeat", "99999999999999999999"}, "not '99999999999999999999'"},
      {{"m.bin", "-o", "x", "--seed", "-1"}, "--seed needs a number in 0..4294967295, not '-1'"},
      {{"m.bin", "-o", "x", "--size", "nan"}, "--size needs a number in 32..8192, not 'nan'"},
      {{"m.bin", "-o", "x", "--size", "1e9"}, "--size needs a number in 32..8192, not '1e9'"},
      {{"m.bin", "-o", "x", "--size", "inf"}, "not 'inf'"},
      {{"m.bin", "-o"}, "-o needs a value (OUT.bin)"},
      {{"m.bin", "-o", "x", "--quiet=yes"}, "--quiet takes no value"},
      {{"m.bin", "-o", "x", "--json", "a", "--json", "b"}, "--json given twice"},
      {{"m.bin", "c.txt", "d.txt", "-o", "x"}, "unexpected argument d.txt"},
      {{"m.bin"}, "no output file given (-o OUT.bin)"},
      {{"-o", "x"}, "needs MESH.bin"},
  };
  for (const Bad& b : bad) {
    Tool t;
    const int repeatBefore = t.repeat;
    EXPECT_EQ(t.parse(b.argv), Outcome::Error) << b.message;
    EXPECT_NE(t.args.error().find(b.message), std::string::npos) << t.args.error() << "\nwanted: " << b.message;
    EXPECT_EQ(t.repeat, repeatBefore) << "a refused value must not be written";
  }
}

TEST(Args, ListsEveryMissingPositional) {
  std::string a, b, c;
  base::Args args("navbench x");
  args.positional("A.bin", &a, "").positional("B.bin", &b, "").positional("C.txt", &c, "");
  const char* argv[] = {"x"};
  EXPECT_EQ(args.parse(1, argv), Outcome::Error);
  EXPECT_EQ(args.error(), "needs A.bin, B.bin and C.txt");
}

TEST(Args, PositionalsTakeEveryRemainingArgumentInOrder) {
  std::string mesh;
  std::vector<std::string> files;
  base::Args args("navbench x");
  args.positional("MESH.bin", &mesh, "").positionals("FILE", &files, "");
  const char* three[] = {"x", "m.bin", "a", "--", "-b"};
  ASSERT_EQ(args.parse(5, three), Outcome::Run) << args.error();
  EXPECT_EQ(mesh, "m.bin");
  EXPECT_EQ(files, (std::vector<std::string>{"a", "-b"}));
  EXPECT_NE(args.usage().find("MESH.bin FILE..."), std::string::npos) << args.usage();
  files.clear();
  const char* none[] = {"x", "m.bin"};
  EXPECT_EQ(args.parse(2, none), Outcome::Error);
  EXPECT_EQ(args.error(), "needs FILE");
  args.optional();
  EXPECT_EQ(args.parse(2, none), Outcome::Run) << args.error();
  EXPECT_TRUE(files.empty());
}

TEST(Args, DoubleDashEndsTheOptions) {
  Tool t;
  ASSERT_EQ(t.parse({"-o", "x", "--", "-m.bin", "--help"}), Outcome::Run) << t.args.error();
  EXPECT_EQ(t.mesh, "-m.bin");
  EXPECT_EQ(t.cases, "--help");
  Tool dash;
  ASSERT_EQ(dash.parse({"-o", "x", "-"}), Outcome::Run) << dash.args.error();
  EXPECT_EQ(dash.mesh, "-");
}

TEST(Args, HelpWinsOverEveryOtherProblem) {
  Tool t;
  EXPECT_EQ(t.parse({"--bogus", "--help"}), Outcome::Help);
  EXPECT_EQ(t.parse({"-h"}), Outcome::Help);
}

TEST(Args, GeneratesUsageAndHelpFromTheDeclarations) {
  Tool t;
  EXPECT_EQ(t.args.usage(), "usage: navbench tool MESH.bin [CASES.txt] -o OUT.bin [--json OUT.jsonl] [--extra FILE]... "
                            "[--repeat R] [--seed S] [--size METRES] [-q]");
  const std::string h = t.args.help();
  EXPECT_EQ(h.rfind(t.args.usage() + "\n  Does a thing.\n", 0), 0u) << h;
  EXPECT_NE(h.find("\n  MESH.bin "), std::string::npos) << h;
  EXPECT_NE(h.find("\n  -o, --out OUT.bin"), std::string::npos) << h;
  EXPECT_NE(h.find("file to write (required)"), std::string::npos) << h;
  EXPECT_NE(h.find("runs (in 1..100000, default 1)"), std::string::npos) << h;
  EXPECT_NE(h.find("edge of the world (in 32..8192, default 100)"), std::string::npos) << h;
  EXPECT_NE(h.find("more files (may be repeated)"), std::string::npos) << h;
  EXPECT_NE(h.find("\n  -q, --quiet "), std::string::npos) << h;
  EXPECT_NE(h.find("\n  -h, --help "), std::string::npos) << h;
  EXPECT_NE(h.find("\n  exit code: 0 done, 2 bad input\n"), std::string::npos) << h;
  // Help columns line up: every help text starts in the same column.
  const size_t col = h.find("tile set") - h.rfind('\n', h.find("tile set")) - 1;
  EXPECT_EQ(h.find("runs (") - h.rfind('\n', h.find("runs (")) - 1, col) << h;
}

TEST(Args, DefaultsOutsideTheRangeAreNotShown) {
  int tileSize = -1; // "the level's", not a tile size
  base::Args args("navbench bake");
  args.integer("--tile-size", "N", &tileSize, 16, 1024, "tile edge in cells");
  EXPECT_NE(args.help().find("tile edge in cells (in 16..1024)\n"), std::string::npos) << args.help();
}

TEST(Args, ParseOrReportPrintsHelpOrTheErrorAndGivesTheExitCode) {
  Tool t;
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  ASSERT_TRUE(out && err);
  auto slurp = [](std::FILE* f) {
    std::string s;
    std::rewind(f);
    for (int c; (c = std::fgetc(f)) != EOF;) s += char(c);
    return s;
  };
  int code = -1;
  const char* help[] = {"tool", "--help"};
  EXPECT_FALSE(t.args.parseOrReport(2, help, &code, out, err));
  EXPECT_EQ(code, 0);
  EXPECT_EQ(slurp(out), t.args.help());
  const char* bad[] = {"tool", "m.bin", "-o", "x", "--repeat", "zero"};
  EXPECT_FALSE(t.args.parseOrReport(6, bad, &code, out, err));
  EXPECT_EQ(code, 2);
  const std::string e = slurp(err);
  EXPECT_EQ(e.rfind("navbench tool: --repeat needs a number in 1..100000, not 'zero'\nusage: navbench tool MESH.bin", 0), 0u)
      << e;
  EXPECT_NE(e.find("'navbench tool --help' lists the options"), std::string::npos) << e;
  const char* good[] = {"tool", "m.bin", "-o", "x"};
  code = -1;
  EXPECT_TRUE(t.args.parseOrReport(4, good, &code, out, err));
  EXPECT_EQ(code, -1);
  std::fclose(out);
  std::fclose(err);
}

} // namespace
