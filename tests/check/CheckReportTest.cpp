// CheckReportTest.cpp: the JSON report's keys, JUnit XML that parses (one testcase per check, a
// failure listing the findings, escaped), baselines (written, read back, known findings dropped,
// new ones kept), atomic writes.
#include "CheckMeshes.h"

#include "nav/check/CheckReport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <unistd.h>

using namespace checktest;
using namespace nav::check;

namespace {

std::string tempDir() {
  char tmpl[] = "/tmp/check_tests_XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? d : "/tmp";
}

/// Two tiles joined over half their border, a lone square (an island) and a one-way off-mesh link
/// into the air: findings of three kinds.
std::unique_ptr<nav::NavMesh> defectMesh() {
  TestMeshSpec s = twoTileField();
  s.polys.push_back(rect(2, 12, 4, 14));
  s.walledBorder.push_back({10, 7.5f});
  TestOffMesh air;
  const float a[3] = {2, 0, 2}, b[3] = {2, 3, 2};
  std::copy(a, a + 3, air.a);
  std::copy(b, b + 3, air.b);
  s.offMesh.push_back(air);
  return buildMesh(s);
}

CheckResult runDefects(const nav::NavMesh& mesh) {
  CheckOptions o;
  o.pairs = 100;
  o.threads = 1;
  CheckResult r;
  std::string why;
  EXPECT_TRUE(nav::statusSucceeded(runChecks(mesh, defaultCheckFilter(), o, r, &why))) << why;
  return r;
}

/// A small XML well-formedness check: tags nest and close, attributes are quoted, entities are
/// the five predefined ones or numeric. Counts elements by name.
bool wellFormed(const std::string& x, std::map<std::string, int>& counts, std::string& why) {
  std::vector<std::string> stack;
  size_t i = 0;
  if (x.compare(0, 5, "<?xml") == 0) i = x.find("?>") + 2;
  while (i < x.size()) {
    if (x[i] == '<') {
      const size_t end = x.find('>', i);
      if (end == std::string::npos) return why = "unclosed tag", false;
      std::string tag = x.substr(i + 1, end - i - 1);
      if (!tag.empty() && tag[0] == '/') {
        if (stack.empty() || stack.back() != tag.substr(1)) return why = "mismatched </" + tag.substr(1) + ">", false;
        stack.pop_back();
      } else {
        const bool selfClose = !tag.empty() && tag.back() == '/';
        if (selfClose) tag.pop_back();
        const std::string name = tag.substr(0, tag.find(' '));
        int quotes = 0;
        for (char c : tag) quotes += c == '"';
        if (quotes % 2) return why = "odd quotes in <" + name + ">", false;
        if (tag.find('<') != std::string::npos) return why = "'<' inside a tag", false;
        ++counts[name];
        if (!selfClose) stack.push_back(name);
      }
      i = end + 1;
    } else if (x[i] == '&') {
      const size_t semi = x.find(';', i);
      const std::string ent = x.substr(i, semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;")
        return why = "bad entity " + ent, false;
      i = semi + 1;
    } else if (x[i] == '>') {
      return why = "bare '>' outside a tag", false;
    } else {
      ++i;
    }
  }
  if (!stack.empty()) return why = "unclosed <" + stack.back() + ">", false;
  return true;
}

} // namespace

TEST(CheckReport, JsonHasTheIssueKeys) {
  auto mesh = defectMesh();
  ASSERT_TRUE(mesh);
  const CheckResult r = runDefects(*mesh);
  const nlohmann::json j = reportJson("defects.bin", r, CheckOptions());
  EXPECT_EQ(j["mesh"], "defects.bin");
  ASSERT_EQ(j["checks"].size(), size_t(CHECK_COUNT));
  for (const char* k : {"islands", "detours", "budget", "seams", "links", "narrow", "surface"}) EXPECT_TRUE(j.contains(k)) << k;
  std::map<std::string, nlohmann::json> checks;
  for (const auto& c : j["checks"]) checks[c["name"].get<std::string>()] = c;
  EXPECT_EQ(checks["islands"]["findings"], 1);
  EXPECT_EQ(checks["islands"]["passed"], false);
  EXPECT_EQ(checks["seams"]["findings"], 1);
  EXPECT_EQ(checks["links"]["findings"], 1);
  EXPECT_EQ(checks["narrow"]["passed"], true);
  EXPECT_EQ(checks["surface"]["ran"], false); // no level triangles given
  ASSERT_EQ(j["islands"].size(), 2u);
  EXPECT_EQ(j["islands"][0]["reachable"], true);
  EXPECT_EQ(j["islands"][1]["polys"], 1);
  EXPECT_EQ(j["islands"][1]["area"].get<float>(), 4.0f);
  EXPECT_EQ(j["links"][0]["pos"][1].get<float>(), 3.0f);
  EXPECT_TRUE(hasFailures(r, SEVERITY_ERROR));   // seams and links are errors
  EXPECT_TRUE(hasFailures(r, SEVERITY_WARNING));
}

TEST(CheckReport, JunitParsesOneTestcasePerCheck) {
  auto mesh = defectMesh();
  ASSERT_TRUE(mesh);
  const CheckResult r = runDefects(*mesh);
  const std::string xml = reportJunit({{"level <\"a\"> & b", &r}, {"second", &r}});
  std::map<std::string, int> counts;
  std::string why;
  ASSERT_TRUE(wellFormed(xml, counts, why)) << why << "\n" << xml;
  EXPECT_EQ(counts["testsuites"], 1);
  EXPECT_EQ(counts["testsuite"], 2);
  EXPECT_EQ(counts["testcase"], 2 * CHECK_COUNT);
  EXPECT_EQ(counts["failure"], 2 * 3); // islands, seams, links
  EXPECT_EQ(counts["skipped"], 2);     // surface
  EXPECT_NE(xml.find("level &lt;&quot;a&quot;&gt; &amp; b"), std::string::npos);
  EXPECT_NE(xml.find("island 1 of 1 polys"), std::string::npos);

  // And a real XML parser agrees, where python3 is at hand.
  const std::string dir = tempDir();
  const std::string path = dir + "/junit.xml";
  ASSERT_TRUE(writeTextFile(path, xml, &why)) << why;
  if (std::system("python3 -c 'pass' > /dev/null 2>&1") != 0) {
    std::printf("python3 not found: the xml.etree parse is skipped\n");
  } else {
    const std::string cmd = "python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
                            "sys.exit(0 if len(r.findall('./testsuite/testcase')) == 14 else 3)\" " + path;
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  std::remove(path.c_str());
  rmdir(dir.c_str());
}

TEST(CheckReport, BaselineKeepsOnlyNewFindings) {
  auto mesh = defectMesh();
  ASSERT_TRUE(mesh);
  CheckResult r = runDefects(*mesh);
  const std::string dir = tempDir();
  const std::string path = dir + "/baseline.json";
  std::string why;
  ASSERT_TRUE(writeBaseline(path, r, &why)) << why;
  Baseline b;
  ASSERT_TRUE(readBaseline(path, b, &why)) << why;
  EXPECT_EQ(b.entries.size(), size_t(r.unreachableIslands()) + r.seams.size() + r.links.size() + r.detours.size() +
                                  r.budget.size() + r.narrow.size() + r.surface.size());
  CheckResult same = runDefects(*mesh);
  EXPECT_GT(filterNew(same, b), 0);
  for (int k = 0; k < CHECK_COUNT; ++k) EXPECT_EQ(findingCount(same, k), 0) << checkName(k);
  EXPECT_FALSE(hasFailures(same, SEVERITY_WARNING));
  EXPECT_EQ(same.islands.size(), 2u); // still listed, marked known

  // A finding moved by more than 0.5 m is new; by less, known.
  Baseline moved = b;
  for (BaselineEntry& e : moved.entries)
    if (e.kind == CHECK_LINKS) e.pos[0] += 0.6f;
    else if (e.kind == CHECK_SEAMS) e.pos[2] += 0.4f;
  CheckResult again = runDefects(*mesh);
  filterNew(again, moved);
  EXPECT_EQ(again.links.size(), 1u);
  EXPECT_EQ(again.seams.size(), 0u);

  // A bad baseline is refused with the file named.
  const std::string bad = dir + "/bad.json";
  ASSERT_TRUE(writeTextFile(bad, "{\"version\": 1, \"findings\": [{\"kind\": \"islandz\", \"pos\": [0, 0, 0]}]}", &why));
  EXPECT_FALSE(readBaseline(bad, b, &why));
  EXPECT_NE(why.find("bad.json"), std::string::npos) << why;
  EXPECT_NE(why.find("islandz"), std::string::npos) << why;
  std::remove(bad.c_str());
  std::remove(path.c_str());

  // An unwritable output leaves nothing behind and says where.
  EXPECT_FALSE(writeBaseline(dir + "/no/such/dir/b.json", r, &why));
  EXPECT_NE(why.find("no/such/dir"), std::string::npos);
  rmdir(dir.c_str());
}
