#pragma once
// The accuracy protocol of the scene tests and `bench --suite scenes`: a tracker run over a synthetic scene's
// frames, its detections scored against the scene's exact ground truth.
#include "scenes/synthetic.h"
#include "tracker/eval.h"
#include "tracker/tracker.h"

namespace tracker {

// Runs `tracker` over the next `frames` frames of `scene` and scores its detections with evaluate(). `wall_ms`,
// when given, receives the mean host time of Tracker::process per frame.
EvalReport track_scene(Tracker& tracker, SceneGenerator& scene, long long frames, double* wall_ms = nullptr);

// Both ways of reading one run: `online`, the detections as Tracker::process reported them frame by frame;
// `offline`, the same detections after smooth_track_angles with `settings` (what `swarmtrack process
// --smooth-angles` writes). Only the rotation errors differ.
struct SceneReports {
    EvalReport online, offline;
    double wall_ms = 0; // mean host time of Tracker::process per frame
};
SceneReports track_scene_both(Tracker& tracker, SceneGenerator& scene, long long frames, const TrackerSettings& settings);

} // namespace tracker
