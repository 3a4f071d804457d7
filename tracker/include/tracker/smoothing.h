#pragma once
// Offline angle smoothing: when a whole video is processed before anyone looks at the result, each frame's
// angles can use the frames after it too.
//
// Why: driving straight, a sign's orientation in the camera frame stays put, but a far sign shows it only
// faintly (the fitness is nearly flat in yaw and pitch below about 30 px), so the online running average
// (TrackingSettings::angle_memory) can only guess until the sign comes near. Run backwards as well, the same
// weighted average gives the early, far frames the near frames' evidence, which lowers the median
// rotation error on every shipped scene (docs/benchmarks.md, "Synthetic scenes").
#include <vector>

#include "tracker/tracker.h"
#include "tracker/types.h"

namespace tracker {

// Replaces the angles of every tracked detection (track_id >= 0) by the two-sided weighted mean of its track's
// measured angles (Detection::measured_angles, weights Detection::angle_evidence): a measurement k frames away
// weighs angle_memory^k times its own weight, and a prior at 0 weighs angle_prior_px^2, as in the online
// average. Positions, depth, outlines and boxes are left as they were; detections without a track, and tracks
// with no angle measurement at all, are untouched. `detections` may come in any order.
void smooth_track_angles(std::vector<Detection>& detections, const TrackerSettings& settings);

} // namespace tracker
