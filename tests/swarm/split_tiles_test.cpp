// The rows each warp of gpu-elementwise's flat-tile kernel walks (gpu/elementwise/split_tiles.h): every row of
// the swarm exactly once, whole tiles first, and work that differs between warps by at most one row.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpu/elementwise/split_tiles.h"

namespace {

using swarm::gpu::ew::SplitTiles;
using swarm::gpu::ew::Tile;

struct Shape {
    int particles, warps, tile_rows;
};

class SplitTilesPartition : public ::testing::TestWithParam<Shape> {};

TEST_P(SplitTilesPartition, EveryRowOnceAndWarpsWithinOneRow) {
    const Shape sh = GetParam();
    std::vector<int> owner(static_cast<std::size_t>(sh.particles), -1);
    int least = sh.particles, most = 0;
    for (int gw = 0; gw < sh.warps; ++gw) {
        const SplitTiles tiles = SplitTiles::of(gw, sh.warps, sh.particles, sh.tile_rows);
        int rows = 0;
        for (int i = 0; i < tiles.count(); ++i) {
            const Tile t = tiles.at(i);
            EXPECT_EQ(tiles.offset(i), rows) << "the resident form keeps a warp's tiles one after another";
            ASSERT_GT(t.rows, 0) << "warp " << gw << " tile " << i;
            ASSERT_LE(t.rows, sh.tile_rows) << "a tile larger than the slot";
            if (i < tiles.full_rounds) EXPECT_EQ(t.rows, sh.tile_rows) << "whole tiles come first";
            for (int r = t.first; r < t.first + t.rows; ++r) {
                ASSERT_GE(r, 0);
                ASSERT_LT(r, sh.particles);
                ASSERT_EQ(owner[static_cast<std::size_t>(r)], -1) << "row " << r << " walked twice";
                owner[static_cast<std::size_t>(r)] = gw;
            }
            rows += t.rows;
        }
        EXPECT_EQ(tiles.rows(), rows);
        EXPECT_LE(rows, SplitTiles::max_rows(sh.warps, sh.particles, sh.tile_rows)) << "more than the warp's room";
        least = std::min(least, rows);
        most = std::max(most, rows);
    }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0) << "rows no warp walks";
    EXPECT_LE(most - least, 1) << "unbalanced warps";
    EXPECT_EQ(most, SplitTiles::max_rows(sh.warps, sh.particles, sh.tile_rows)) << "room for rows no warp has";
}

INSTANTIATE_TEST_SUITE_P(Shapes, SplitTilesPartition,
                         ::testing::Values(Shape{100000, 2112, 5},  // 100,000 x 100 on an H200
                                           Shape{300000, 2112, 7},  // 300,000 x 36
                                           Shape{1000000, 2112, 32}, // 12 dims, the largest tile
                                           Shape{21120, 2112, 5},   // rows a multiple of a round: no short tiles
                                           Shape{1000, 2112, 5},    // fewer rows than warps: some walk nothing
                                           Shape{5000, 2112, 3},    // 5,000 x 200 resident on an H200
                                           Shape{60001, 1056, 5}, Shape{7, 3, 4}, Shape{1, 1, 1}));

TEST(SplitTiles, HundredThousandByHundredOnAnH200) {
    // 20,000 tiles of 5 rows on 132 SMs x 2 blocks x 8 warps: 9 whole tiles each, then 4,960 rows left over,
    // 2 or 3 per warp (dealt whole, 992 warps would have run a tenth tile of 5 rows).
    for (int gw : {0, 991, 992, 2111}) {
        const SplitTiles tiles = SplitTiles::of(gw, 2112, 100000, 5);
        EXPECT_EQ(tiles.full_rounds, 9);
        ASSERT_EQ(tiles.count(), 10);
        const int short_rows = tiles.at(9).rows;
        EXPECT_TRUE(short_rows == 2 || short_rows == 3) << short_rows;
    }
}

} // namespace
