#include "detection_tiles.h"

#include <algorithm>

namespace tracker {

TileGrid detection_tiles(const TrackerSettings& s, bool gpu, bool with_candidates) {
    // Signs of one category in different parts of the image then do not compete for one swarm, and every part
    // of the frustum is searched densely. Alone, the tiles must find every sign: a GPU affords 6 x 3
    // (docs/benchmarks.md, "Design evidence"), the CPU backend, where every swarm costs wall time, 4 x 2. Beside
    // the candidate swarms, which find most signs, fewer suffice: 3 x 2 on a GPU (the synthetic scenes' bars
    // hold, the real frames lose under 1 % of recall, and the search takes a third less GPU time), 2 x 1 on the
    // CPU; these still catch the far, dim signs of the night scene whose paint is too faint for a region.
    TileGrid g;
    const int columns = s.search.detection_columns, rows = s.search.detection_rows;
    g.columns = columns != 0 ? columns : (gpu ? (with_candidates ? 3 : 6) : (with_candidates ? 2 : 4));
    g.rows = rows != 0 ? rows : (gpu ? (with_candidates ? 2 : 3) : (with_candidates ? 1 : 2));
    return g;
}

std::vector<SwarmJob> tile_jobs(const std::vector<int>& models, int swarms_per_category, TileGrid grid,
                                const std::vector<double>& lo, const std::vector<double>& hi) {
    std::vector<SwarmJob> jobs;
    const double du = (hi[0] - lo[0]) / grid.columns, dv = (hi[1] - lo[1]) / grid.rows;
    for (int m : models) {
        for (int k = 0; k < swarms_per_category; ++k) {
            for (int ty = 0; ty < grid.rows; ++ty) {
                for (int tx = 0; tx < grid.columns; ++tx) {
                    SwarmJob j{lo, hi, {m, true}, {}, {}};
                    j.lower[0] = std::max(lo[0], lo[0] + (tx - 0.05) * du);
                    j.upper[0] = std::min(hi[0], lo[0] + (tx + 1.05) * du);
                    j.lower[1] = std::max(lo[1], lo[1] + (ty - 0.05) * dv);
                    j.upper[1] = std::min(hi[1], lo[1] + (ty + 1.05) * dv);
                    jobs.push_back(std::move(j));
                }
            }
        }
    }
    return jobs;
}

void track_masks(const std::vector<Track>& tracks, std::vector<cv::Rect2f>& boxes, std::vector<int>& models) {
    boxes.clear();
    models.clear();
    for (const auto& t : tracks) {
        if (t.weak()) {
            continue;
        }
        models.push_back(t.model);
        const float gx = 0.1f * t.box.width, gy = 0.1f * t.box.height;
        boxes.emplace_back(t.box.x - gx, t.box.y - gy, t.box.width + 2 * gx, t.box.height + 2 * gy);
    }
}

} // namespace tracker
