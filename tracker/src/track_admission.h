#pragma once
// What a frame's detections change in the tracks.
#include <functional>
#include <vector>

#include "track_state.h"

namespace tracker {

// Best fitness first, each detection (a fresh, unconfirmed track) either starts a track of a sign not yet
// tracked, or takes over the track of its sign when its model explains the sign clearly better, or re-places a
// weak track of its own model, or one that tracks a part of the sign; else it is a duplicate and dropped. A
// detection inside a larger verified one of its category that fits nearly as well is a part of that sign and
// dropped. `verify` is asked only for detections that
// would change the tracks; `place` re-projects a moved track's outline and box.
void admit_detections(std::vector<Track> fresh, std::vector<Track>& tracks, double duplicate_iou,
                      const std::function<bool(const Track&)>& verify, const std::function<void(Track&)>& place);

// The fresh detections admit_detections will most likely ask `verify` about, by index: all but those that a track
// of their own model already covers (duplicates, asked only when they would re-place a weak or partial track).
// Verifying these in one batch beforehand answers nearly every ask at a batch's cost.
std::vector<std::size_t> likely_verified(const std::vector<Track>& fresh, const std::vector<Track>& tracks,
                                         double duplicate_iou);

} // namespace tracker
