#pragma once
// A track's life between frames: folding its tracking swarm's result into it, and ending or merging tracks.
#include <vector>

#include "track_state.h"
#include "tracker/tracker.h"

namespace tracker {

// Folds this frame's measured pose (the tracking swarm's best) into the track: image-plane velocity, the depth
// alpha-beta filter, and the running average of the angles. `width_px_at_1m`: the sign's width in pixels at a
// depth of one metre (fx times the model's diameter), which weighs the frame's angle evidence.
void apply_measurement(Track& t, const PoseVec& measured, double fitness, double width_px_at_1m,
                       const TrackerSettings& s);

// No match this frame: the track coasts on its prediction.
void coast(Track& t, double fitness);

// Duplicates: outlines overlapping by more than duplicate_iou, or one mostly inside the other (a small red
// sign fitted into the corner of a large red rim). Outlines, not boxes: a sign standing behind another
// (a danger triangle beside the give-way triangle in front of it) shares much of its box with it but
// little of its outline, and is a sign of its own.
bool same_sign(const Track& a, const Track& b, double duplicate_iou);

// Ends tracks after max_missed misses, unvouched ones after verifier_refusals refusals, past the near plane, or
// mostly out of the image; then of duplicate tracks keeps the confirmed, long-lived, fit one.
void prune_tracks(std::vector<Track>& tracks, const TrackerSettings& s, const cv::Rect2f& image);

// Whether a track is one of this frame's detections: confirmed (it has an id) and matched this frame, and not refused
// by the verifier on this frame (its box read as no sign, Track::refusals) unless the verifier vouched for it before or
// its fit is 0.7 or more.
// Clutter that the verifier took for a sign at a first look (sky through backlit foliage) reads as background on most
// later frames, a sign on nearly none: such a track stays (prune_tracks ends it after verifier_refusals refusals in a
// row) but is not reported while refused. TrackingSettings::hide_refused (default true) turns the rule on.
bool reported(const Track& t, const TrackerSettings& s);

} // namespace tracker
