// TesterModes.h: the views of the NavMeshTesterTool modes (one .cpp each): Pathfind Follow,
// Pathfind Straight, Pathfind Sliced, Raycast, Distance to Wall, Find Polys in Circle, Find Polys in
// Shape, Find Local Neighbourhood, Random Points. Their state and compute: app/model/TesterModes.h;
// common input and readouts: Tester.h.
#pragma once

#include "app/model/TesterModes.h"
#include "app/tools/Tester.h"

namespace navbench {

/// The smooth path, and stepping a follower along it (Space / Play).
class ToolFollow : public TesterView<FollowModel> {
public:
  void step() override { model().step(); }
  void update(float dt) override { model().update(dt); }

protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The straight path with the crossing option (None / Area / All).
class ToolStraight : public TesterView<StraightModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The sliced A*: a few iterations per frame, the search (open/closed nodes) drawn as it grows.
class ToolSliced : public TesterView<SlicedModel> {
public:
  void update(float /*dt*/) override { model().update(); }
  void step() override { model().step(); }

protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The ray, its hit point and wall normal, the visited polys.
class ToolRaycast : public TesterView<RaycastModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The distance to the nearest wall around the start.
class ToolWallDistance : public TesterView<WallDistanceModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The polys found around the circle start -> end.
class ToolPolysCircle : public TesterView<PolysCircleModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The polys found around the quad along start -> end.
class ToolPolysShape : public TesterView<PolysShapeModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// The local neighbourhood of the start, with the found polys' walls and portals.
class ToolLocalNeighbourhood : public TesterView<LocalNeighbourhoodModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

/// Random points anywhere, or around the start.
class ToolRandomPoints : public TesterView<RandomPointsModel> {
protected:
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
};

} // namespace navbench
