#pragma once
// What a frame's detections change in the tracks.
#include <functional>
#include <vector>

#include "track_state.h"

namespace tracker {

// The verifier's answers for a batch of detections: for each, whether it sees a sign of that detection's category
// in its box.
using VerifyFinds = std::function<std::vector<bool>(const std::vector<const Track*>&)>;

// Best fitness first, each detection (a fresh, unconfirmed track) either starts a track of a sign not yet
// tracked, or takes over the track of its sign when its model explains the sign clearly better, or re-places a
// weak track of its own model, or one that tracks a part of the sign; else it is a duplicate and dropped. A
// detection inside a larger verified one of its category that fits nearly as well is a part of that sign and
// dropped. `verify` is asked only about detections that would change the tracks: first, in one batch, about those
// likely_verified names (nearly every ask, at a batch's cost), then one at a time about a covered detection that
// would re-place a weak or partial track. `place` re-projects a moved track's outline and box.
void admit_detections(std::vector<Track> fresh, std::vector<Track>& tracks, double duplicate_iou,
                      const VerifyFinds& verify, const std::function<void(Track&)>& place);

// The fresh detections admit_detections will most likely ask `verify` about, by index: all but those that a track
// of their own model already covers (duplicates, asked only when they would re-place a weak or partial track).
std::vector<std::size_t> likely_verified(const std::vector<Track>& fresh, const std::vector<Track>& tracks,
                                         double duplicate_iou);

} // namespace tracker
