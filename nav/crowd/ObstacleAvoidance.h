// ObstacleAvoidance.h: velocity-space sampling around moving circles and wall segments
// (DetourCrowd 1.5.1's dtObstacleAvoidanceQuery and its debug data; same samples in the same order,
// same penalties, same chosen velocity bit for bit).
//
// Positions and velocities are float[3] (x, y, z) [Unit: wu, wu/s]; the sampling is 2D (xz).
// Nothing allocates after init().
#pragma once

#include <memory>

namespace nav {
namespace crowd {

constexpr int MAX_PATTERN_DIVS = 32;        ///< Max adaptive divisions (Detour's DT_MAX_PATTERN_DIVS).
constexpr int MAX_PATTERN_RINGS = 4;        ///< Max adaptive rings (DT_MAX_PATTERN_RINGS).
constexpr int MAX_OBSTAVOIDANCE_PARAMS = 8; ///< Avoidance presets a crowd holds (DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS).

/// A moving circular obstacle (another agent).
struct ObstacleCircle {
  float p[3];         ///< Position.
  float vel[3];       ///< Current velocity.
  float dvel[3];      ///< Desired velocity.
  float rad;          ///< Radius. [Unit: wu]
  float dp[3], np[3]; ///< Side-selection frame (direction to the obstacle and its normal), set by sampling.
};

/// A static wall segment.
struct ObstacleSegment {
  float p[3], q[3]; ///< End points.
  bool touch;       ///< The agent already touches it (set by sampling).
};

/// Every sample a sampling call scored, for drawing (velocity, sample size, penalties); samples cut
/// short by the early out are not recorded. normalizeSamples() rescales each penalty kind to [0, 1]
/// for colouring (the caller decides when; the sampling does not).
class ObstacleAvoidanceDebugData {
public:
  ObstacleAvoidanceDebugData() = default;
  ObstacleAvoidanceDebugData(const ObstacleAvoidanceDebugData&) = delete;
  ObstacleAvoidanceDebugData& operator=(const ObstacleAvoidanceDebugData&) = delete;

  /// Room for maxSamples samples [Limit: >= 1]. False on bad input / out of memory.
  bool init(int maxSamples);
  void reset();
  /// Records one sample (dropped when full). ssize: sample spacing; pen: total penalty; vpen, vcpen,
  /// spen, tpen: the desired-velocity, current-velocity, side and time-of-impact terms.
  void addSample(const float* vel, float ssize, float pen, float vpen, float vcpen, float spen, float tpen);
  /// Rescales each penalty kind to [0, 1] over the recorded samples.
  void normalizeSamples();

  int getSampleCount() const { return m_nsamples; }
  const float* getSampleVelocity(int i) const { return &m_vel[i * 3]; }
  float getSampleSize(int i) const { return m_ssize[i]; }
  float getSamplePenalty(int i) const { return m_pen[i]; }
  float getSampleDesiredVelocityPenalty(int i) const { return m_vpen[i]; }
  float getSampleCurrentVelocityPenalty(int i) const { return m_vcpen[i]; }
  float getSamplePreferredSidePenalty(int i) const { return m_spen[i]; }
  float getSampleCollisionTimePenalty(int i) const { return m_tpen[i]; }

private:
  int m_nsamples = 0;
  int m_maxSamples = 0;
  std::unique_ptr<float[]> m_vel; ///< [(x, y, z) * maxSamples]
  std::unique_ptr<float[]> m_ssize;
  std::unique_ptr<float[]> m_pen;
  std::unique_ptr<float[]> m_vpen;
  std::unique_ptr<float[]> m_vcpen;
  std::unique_ptr<float[]> m_spen;
  std::unique_ptr<float[]> m_tpen;
};

/// Sampling parameters (one crowd preset).
struct ObstacleAvoidanceParams {
  float velBias;      ///< Sampling area = velBias-weighted blend around the desired velocity [0, 1].
  float weightDesVel; ///< Weight of the distance to the desired velocity.
  float weightCurVel; ///< Weight of the distance to the current velocity.
  float weightSide;   ///< Weight of passing on the preferred side.
  float weightToi;    ///< Weight of the time of impact.
  float horizTime;    ///< Time horizon [Unit: s].
  unsigned char gridSize;      ///< Grid sampling: samples per side.
  unsigned char adaptiveDivs;  ///< Adaptive: directions per ring [Limit: <= MAX_PATTERN_DIVS].
  unsigned char adaptiveRings; ///< Adaptive: rings [Limit: <= MAX_PATTERN_RINGS].
  unsigned char adaptiveDepth; ///< Adaptive: refinement passes.
};

class ObstacleAvoidanceQuery {
public:
  ObstacleAvoidanceQuery() = default;
  ObstacleAvoidanceQuery(const ObstacleAvoidanceQuery&) = delete;
  ObstacleAvoidanceQuery& operator=(const ObstacleAvoidanceQuery&) = delete;

  /// Room for maxCircles circles and maxSegments segments. False on bad input / out of memory.
  bool init(int maxCircles, int maxSegments);
  /// Removes every obstacle.
  void reset();
  /// Adds a circle (dropped when full).
  void addCircle(const float* pos, float rad, const float* vel, const float* dvel);
  /// Adds a segment (dropped when full).
  void addSegment(const float* p, const float* q);

  /// Samples a gridSize x gridSize grid of velocities around dvel * velBias (radius vmax) and
  /// writes the lowest-penalty one to nvel. Returns the number of samples evaluated.
  /// debug (optional) receives every sample.
  int sampleVelocityGrid(const float* pos, float rad, float vmax, const float* vel, const float* dvel, float* nvel,
                         const ObstacleAvoidanceParams* params, ObstacleAvoidanceDebugData* debug = nullptr);

  /// Samples a polar pattern (adaptiveRings x adaptiveDivs, aligned with dvel) and refines it
  /// adaptiveDepth times around the best sample. Returns the number of samples evaluated.
  int sampleVelocityAdaptive(const float* pos, float rad, float vmax, const float* vel, const float* dvel,
                             float* nvel, const ObstacleAvoidanceParams* params,
                             ObstacleAvoidanceDebugData* debug = nullptr);

  int getObstacleCircleCount() const { return m_ncircles; }
  const ObstacleCircle* getObstacleCircle(int i) const { return &m_circles[i]; }
  int getObstacleSegmentCount() const { return m_nsegments; }
  const ObstacleSegment* getObstacleSegment(int i) const { return &m_segments[i]; }

private:
  void prepare(const float* pos, float rad, const float* dvel);
  /// Scores the samples (sx[i], sz[i]), i < n, in order, skipping those with x^2 + z^2 > limSqr;
  /// the best lowers minPenalty and goes to best. sx/sz readable up to n rounded up to 4. Returns
  /// the number scored.
  int scoreSamples(const float* sx, const float* sz, int n, float limSqr, float cs, const float* vel,
                    const float* dvel, float& minPenalty, float* best,
                   ObstacleAvoidanceDebugData* debug);
  /// One sample's penalty, or minPenalty when it cannot beat it.
  float processSample(const float* vcand, float cs, const float* vel, const float* dvel,
                      float minPenalty, ObstacleAvoidanceDebugData* debug);
  /// processSample's second half: the side and impact-time terms over the obstacles, given the
  /// first half's vpen, vcpen and impact-time threshold.
  float scoreObstacles(const float* vcand, float cs, const float* vel, float vpen, float vcpen,
                       float tThreshold, float minPenalty, ObstacleAvoidanceDebugData* debug);

  ObstacleAvoidanceParams m_params{};
  float m_invHorizTime = 0;
  float m_vmax = 0;
  float m_invVmax = 0;
  int m_maxCircles = 0;
  std::unique_ptr<ObstacleCircle[]> m_circles;
  /// Per circle, what the sampling reads, one row per field (velocity x/z, dp x/z, np x/z, and the
  /// sweep test's sample-independent part: the 2D offset from the agent and its squared length
  /// minus the squared radii sum), each row m_circleCap long (maxCircles rounded up to 4).
  std::unique_ptr<float[]> m_circleSoa;
  int m_circleCap = 0;
  /// Per segment, likewise: q - p (x, z), agent - p (x, z), perp(q - p, agent - p), touch (1/0).
  std::unique_ptr<float[]> m_segmentSoa;
  int m_segmentCap = 0;
  int m_ncircles = 0;
  int m_maxSegments = 0;
  std::unique_ptr<ObstacleSegment[]> m_segments;
  int m_nsegments = 0;
};

} // namespace crowd
} // namespace nav
