#pragma once
// Which rows each warp of gpu-elementwise's flat-tile kernel updates (elementwise_flat_tiles.cuh), written
// for host and device so that the CPU tests check the partition the kernel walks.
//
// A warp's tiles: `full_rounds` rounds of tile_rows-row tiles dealt round robin over the swarm's warps (warp
// gw's i-th tile starts at row (gw + i warps) tile_rows), then the rows left over, fewer than warps x
// tile_rows, split evenly into one short tile per warp. Why: dealt as whole tiles, the rows left over gave
// some warps one tile more than the others, and the rest waited for them at the grid barrier. At 100,000 x
// 100 (20,000 tiles of 5 rows on 2,112 warps) 47 % of the warps ran a tenth tile; split, every warp runs 9
// tiles and a short one of 2 or 3 rows.
#include "swarm/host_device.h"

namespace swarm::gpu::ew {

struct Tile {
    int first; // the tile's first row in the swarm
    int rows;
};

struct SplitTiles {
    int gw, warps, tile_rows, full_rounds, tail_first, tail_rows;

    // Warp gw of `warps` over `particles` rows.
    SWARM_HOST_DEVICE static SplitTiles of(int gw, int warps, int particles, int tile_rows) {
        const int rounds = particles / (warps * tile_rows);
        const int first = rounds * warps * tile_rows;
        return {gw, warps, tile_rows, rounds, first, particles - first};
    }
    // First row of warp g's short tile (g = warps: the end of the rows).
    SWARM_HOST_DEVICE int tail_start(int g) const {
        return tail_first + static_cast<int>(static_cast<long long>(g) * tail_rows / warps);
    }
    // Tiles of this warp (the short one only if it has rows).
    SWARM_HOST_DEVICE int count() const { return full_rounds + (tail_start(gw + 1) > tail_start(gw) ? 1 : 0); }
    // Tile i of this warp, 0 <= i < count().
    SWARM_HOST_DEVICE Tile at(int i) const {
        if (i < full_rounds) return {(gw + i * warps) * tile_rows, tile_rows};
        const int first = tail_start(gw);
        return {first, tail_start(gw + 1) - first};
    }
    // Where tile i starts among this warp's rows, which the resident form keeps one after another
    // (elementwise_flat_tiles.cuh, ResidentTiles).
    SWARM_HOST_DEVICE int offset(int i) const { return (i < full_rounds ? i : full_rounds) * tile_rows; }
    // Rows of this warp, and the most any warp of `warps` gets over `particles` rows (what the resident form
    // sizes each warp's shared memory for).
    SWARM_HOST_DEVICE int rows() const { return full_rounds * tile_rows + tail_start(gw + 1) - tail_start(gw); }
    SWARM_HOST_DEVICE static int max_rows(int warps, int particles, int tile_rows) {
        const SplitTiles t = of(0, warps, particles, tile_rows);
        return t.full_rounds * tile_rows + (t.tail_rows + warps - 1) / warps;
    }
};

} // namespace swarm::gpu::ew
