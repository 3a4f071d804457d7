#pragma once
// Detection swarms over the frustum: the image split into tiles, each with its own swarms per category, and the
// masks that keep them off signs already tracked.
#include <vector>

#include "search_runner.h"
#include "track_state.h"
#include "tracker/tracker.h"

namespace tracker {

struct TileGrid {
    int columns = 1, rows = 1;
};

// detection_columns x detection_rows, or for 0 (auto) 6 x 3 on a GPU and 4 x 2 on the CPU backend, or 3 x 2 and
// 2 x 1 when candidate swarms search too.
TileGrid detection_tiles(const TrackerSettings& s, bool gpu, bool with_candidates);

// For every model of `models` (indices; the categories' base models), swarms_per_category swarms per tile; a tile
// covers its share of the frustum's image directions (lo/hi: the detection space's bounds) with a 5 % overlap.
std::vector<SwarmJob> tile_jobs(const std::vector<int>& models, int swarms_per_category, TileGrid grid,
                                const std::vector<double>& lo, const std::vector<double>& hi);

// What detection swarms do not see: each track's box grown by a tenth, for the track's own model; weak tracks
// hide nothing (Track::weak).
void track_masks(const std::vector<Track>& tracks, std::vector<cv::Rect2f>& boxes, std::vector<int>& models);

} // namespace tracker
