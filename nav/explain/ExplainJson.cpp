#include "nav/explain/ExplainJson.h"

#include "nav/base/Json.h"

#include <cmath>
#include <cstdio>

namespace nav::explain {

namespace {

nlohmann::json vec(const Vec3& v) { return base::exactVec3(v.data()); }

std::string hex(Status s) {
  char b[16];
  std::snprintf(b, sizeof(b), "0x%x", unsigned(s));
  return b;
}

nlohmann::json length(float v) { return v < 0 ? nlohmann::json(nullptr) : base::exactFloat(v); }

nlohmann::json changeJson(const Counterfactual& c) {
  nlohmann::json j = {{"what", changeName(c.change)}, {"text", c.text}};
  switch (c.change) {
  case CHANGE_NODE_BUDGET: j["nodeBudget"] = c.nodeBudget; break;
  case CHANGE_FILTER:
    j["include"] = c.include;
    j["exclude"] = c.exclude;
    break;
  case CHANGE_AREA_COSTS: {
    nlohmann::json a = nlohmann::json::object();
    for (const auto& ac : c.areaCosts) a[std::to_string(ac.first)] = base::exactFloat(ac.second);
    j["areaCosts"] = a;
    break;
  }
  case CHANGE_HALF_EXTENTS: j["halfExtents"] = vec(c.halfExtents); break;
  case CHANGE_HEURISTIC_SCALE: j["heuristicScale"] = base::exactFloat(c.heuristicScale); break;
  case CHANGE_LINK:
    j["link"] = {{"start", vec(c.link.start)},
                 {"end", vec(c.link.end)},
                 {"radius", base::exactFloat(c.link.radius)},
                 {"bidirectional", c.link.bidirectional},
                 {"flags", c.link.flags},
                 {"area", c.link.area}};
    break;
  default: break;
  }
  return j;
}

} // namespace

nlohmann::json answerJson(const Answer& a) {
  return {{"status", hex(a.status)}, {"reached", a.reached}, {"length", length(a.length)},        {"nodes", a.nodes},
          {"startPoly", a.startRef}, {"endPoly", a.endRef},  {"corridorPolys", a.corridor.size()}};
}

nlohmann::json causeJson(const Cause& c) {
  nlohmann::json ev = nlohmann::json::object();
  for (const Evidence& e : c.evidence) {
    switch (e.type) {
    case Evidence::POINT: ev[e.name] = vec(e.point); break;
    case Evidence::POLY: ev[e.name] = e.poly; break;
    case Evidence::NUMBER: // integers as integers, the rest as the float they came from
      if (e.number == std::floor(e.number) && std::fabs(e.number) < 9e15)
        ev[e.name] = int64_t(e.number);
      else
        ev[e.name] = base::exactFloat(float(e.number));
      break;
    case Evidence::TEXT: ev[e.name] = e.text; break;
    }
  }
  nlohmann::json j = {{"kind", causeName(c.kind)},
                      {"text", c.text},
                      {"evidence", ev},
                      {"counterfactual",
                       {{"change", changeJson(c.counterfactual)},
                        {"result", answerJson(c.counterfactual.result)},
                        {"checked", c.counterfactual.checked}}}};
  if (c.expansion >= 0) j["expansion"] = c.expansion;
  return j;
}

nlohmann::json explanationJson(const Query& q, const Explanation& e) {
  nlohmann::json causes = nlohmann::json::array();
  for (const Cause& c : e.causes) causes.push_back(causeJson(c));
  return {{"query",
           {{"start", vec(q.start)},
            {"end", vec(q.end)},
            {"halfExtents", vec(q.halfExtents)},
            {"nodeBudget", q.nodeBudget}}},
          {"answer", answerJson(e.answer)},
          {"exactLength", length(e.exactMetric)},
          {"causes", causes}};
}

} // namespace nav::explain
