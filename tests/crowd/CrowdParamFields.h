// CrowdParamFields.h: the parameter fields DetourCrowd's structs, nav::crowd's and the crowd
// scenario's share by name, so the tests hand one side's parameters to the other field by field
// without listing the fields at every crossing.
#pragma once

/// dtCrowdAgentParams / nav::crowd::CrowdAgentParams / ScenarioAgentParams (userData apart).
#define CROWDTEST_AGENT_PARAM_FIELDS(X)                                                                    \
  X(radius) X(height) X(maxAcceleration) X(maxSpeed) X(collisionQueryRange) X(pathOptimizationRange)       \
  X(separationWeight) X(updateFlags) X(obstacleAvoidanceType) X(queryFilterType)

/// dtObstacleAvoidanceParams / nav::crowd::ObstacleAvoidanceParams / ScenarioAvoidParams.
#define CROWDTEST_AVOID_PARAM_FIELDS(X)                                                                    \
  X(velBias) X(weightDesVel) X(weightCurVel) X(weightSide) X(weightToi) X(horizTime) X(gridSize)          \
  X(adaptiveDivs) X(adaptiveRings) X(adaptiveDepth)

namespace crowdtest {

#define CROWDTEST_COPY_FIELD(f) d.f = s.f;
template <class To, class From> void copyAgentParams(To& d, const From& s) {
  CROWDTEST_AGENT_PARAM_FIELDS(CROWDTEST_COPY_FIELD)
}
template <class To, class From> void copyAvoidParams(To& d, const From& s) {
  CROWDTEST_AVOID_PARAM_FIELDS(CROWDTEST_COPY_FIELD)
}
#undef CROWDTEST_COPY_FIELD

} // namespace crowdtest
