// The JSON reading layer (nav/base/Json.h): every message names the file and the JSON path, numbers
// must be finite, the first problem is kept.
#include "nav/base/Json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

nlohmann::json parse(const char* text) { return nlohmann::json::parse(text); }

TEST(JsonIn, MessagesNameFileAndPath) {
  const nlohmann::json doc = parse(R"({"filter": {"areaCost": [1, 2, "x"]}})");
  base::JsonErrors errors("level.json");
  base::JsonIn in(doc, errors);
  float f = 0;
  EXPECT_TRUE(in["filter"]["areaCost"][1].get(f));
  EXPECT_EQ(f, 2.0f);
  EXPECT_FALSE(in["filter"]["areaCost"][2].get(f));
  EXPECT_EQ(errors.message, "level.json: filter.areaCost[2]: expected a number, got string");
  // The first problem is kept.
  EXPECT_FALSE(in["nope"].get(f));
  EXPECT_EQ(errors.message, "level.json: filter.areaCost[2]: expected a number, got string");
}

TEST(JsonIn, MissingAndOptionalKeys) {
  const nlohmann::json doc = parse(R"({"a": 1})");
  base::JsonErrors errors;
  base::JsonIn in(doc, errors);
  int b = 7;
  EXPECT_TRUE(in.opt("b", b));
  EXPECT_EQ(b, 7);
  EXPECT_TRUE(in.ok());
  EXPECT_FALSE(in.get("b", b));
  EXPECT_EQ(errors.message, "b: missing");
}

TEST(JsonIn, RangesAndIntegers) {
  const nlohmann::json doc = parse(R"({"n": 3.0, "m": 3.5, "big": 1e300, "r": 11, "u": 18446744073709551615})");
  {
    base::JsonErrors e;
    int n = 0;
    EXPECT_TRUE(base::JsonIn(doc, e).get("n", n, 0, 10));
    EXPECT_EQ(n, 3);
  }
  {
    base::JsonErrors e;
    int m = 0;
    EXPECT_FALSE(base::JsonIn(doc, e).get("m", m));
    EXPECT_EQ(e.message, "m: expected an integer, got number");
  }
  {
    base::JsonErrors e;
    float f = 0;
    EXPECT_FALSE(base::JsonIn(doc, e).get("big", f));
    EXPECT_NE(e.message.find("big: not a finite float"), std::string::npos) << e.message;
  }
  {
    base::JsonErrors e;
    int r = 0;
    EXPECT_FALSE(base::JsonIn(doc, e).get("r", r, 0, 10));
    EXPECT_EQ(e.message, "r: must be in [0, 10], got 11");
  }
  {
    base::JsonErrors e;
    long long u = 0;
    EXPECT_FALSE(base::JsonIn(doc, e).get("u", u, 0, 1000));
  }
}

TEST(JsonIn, UnknownKeysAndShapes) {
  const nlohmann::json doc = parse(R"({"start": [1, 2], "typo": true})");
  base::JsonErrors e("s.json");
  base::JsonIn in(doc, e);
  EXPECT_FALSE(in.object({"start", "end"}));
  EXPECT_EQ(e.message, "s.json: typo: unknown key");
  base::JsonErrors e2;
  float v[3] = {9, 9, 9};
  EXPECT_FALSE(base::JsonIn(doc, e2)["start"].getVec3(v));
  EXPECT_EQ(e2.message, "start: expected [x, y, z], got 2 values");
  EXPECT_EQ(v[0], 9.0f); // untouched on failure
}

TEST(JsonIn, NullIsNotAFiniteNumber) {
  // nlohmann writes NaN and infinity as null: a document holding one reads back as an error.
  nlohmann::json doc;
  doc["x"] = std::nan("");
  const nlohmann::json back = nlohmann::json::parse(doc.dump());
  base::JsonErrors e;
  float x = 0;
  EXPECT_FALSE(base::JsonIn(back, e).get("x", x));
  EXPECT_EQ(e.message, "x: expected a number, got null (not a finite number?)");
}

TEST(ParseJson, RefusesDeepAndBrokenText) {
  nlohmann::json out;
  base::JsonErrors e("f.json");
  EXPECT_FALSE(base::parseJson(std::string(100, '[') + std::string(100, ']'), e, out));
  EXPECT_EQ(e.message, "f.json: nested deeper than 64 levels");
  base::JsonErrors e2("f.json");
  EXPECT_FALSE(base::parseJson("{\"a\": 1,}", e2, out));
  EXPECT_NE(e2.message.find("f.json: not valid JSON: parse error at byte"), std::string::npos) << e2.message;
  base::JsonErrors e3;
  EXPECT_FALSE(base::readJsonFile("/nonexistent/x.json", e3, out));
  EXPECT_EQ(e3.message, "/nonexistent/x.json: cannot open the file");
}

TEST(ExactFloat, RoundTripsBitForBit) {
  for (float f : {0.1f, 1.0f / 3.0f, -0.0f, 3.4028235e38f, 1e-45f, 12345.678f}) {
    const nlohmann::json back = nlohmann::json::parse(base::exactFloat(f).dump());
    base::JsonErrors e;
    float g = 0;
    ASSERT_TRUE(base::JsonIn(back, e).get(g)) << e.message;
    EXPECT_EQ(std::memcmp(&f, &g, sizeof f), 0) << f;
  }
}

} // namespace
