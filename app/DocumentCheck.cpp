// DocumentCheck.cpp: the Check panel's operations that span the document's agent types
// (Document.h: checkAgents, selectCheckFinding).
#include "app/Document.h"

namespace navbench {

std::vector<CheckAgent> Document::checkAgents() const {
  std::vector<CheckAgent> out;
  if (!agents.enabled()) return out;
  for (int i = 0; i < agents.count(); ++i) {
    CheckAgent a;
    a.index = i;
    a.name = agents.type(i).name;
    a.color = agents.type(i).color;
    const NavState* n = agents.nav(i);
    a.mesh = n ? &n->mesh() : nullptr;
    out.push_back(std::move(a));
  }
  return out;
}

bool Document::selectCheckFinding(int i) {
  if (i < 0 || i >= int(check.findings().size())) return check.select(i);
  const CheckReportOf& report = check.reports()[size_t(check.findings()[size_t(i)].report)];
  if (report.index >= 0 && agents.enabled() && report.index != agents.active()) {
    const bool fresh = !check.stale(checkAgents());
    if (!setActiveAgent(report.index)) return false;
    if (fresh) check.keepResults(checkAgents());
  }
  return check.select(i);
}

} // namespace navbench
