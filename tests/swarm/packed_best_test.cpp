// The packed (fitness, row) keys that gpu-elementwise's one-launch kernel merges with atomicMin
// (gpu/elementwise/packed_best.h): their unsigned order must be pso::better's, and unpacking must give the pair back.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gpu/elementwise/packed_best.h"
#include "swarm/detail/pso_math.h"

namespace {

using swarm::gpu::ew::k_no_packed_best;
using swarm::gpu::ew::pack_best;
using swarm::gpu::ew::unpack_best;

struct Pair {
    float f;
    int row;
};

std::vector<Pair> sample_pairs() {
    const float inf = std::numeric_limits<float>::infinity();
    const float big = std::numeric_limits<float>::max();
    const float tiny = std::numeric_limits<float>::denorm_min();
    std::vector<Pair> out;
    for (float f : {-inf, -big, -1e30f, -3.5f, -1.0f, -tiny, -0.0f, 0.0f, tiny, 1e-30f, 0.5f, 1.0f, 1.0000001f,
                    131.072f, 1e30f, big, inf}) {
        for (int row : {0, 1, 7, 99999, 1 << 30, std::numeric_limits<int>::max()}) out.push_back({f, row});
    }
    return out;
}

TEST(PackedBest, KeyOrderIsPsoBetter) {
    const auto pairs = sample_pairs();
    for (const Pair& a : pairs) {
        for (const Pair& b : pairs) {
            EXPECT_EQ(pack_best(a.f, a.row) < pack_best(b.f, b.row), swarm::pso::better(a.f, a.row, b.f, b.row))
                << a.f << " row " << a.row << " against " << b.f << " row " << b.row;
        }
    }
}

TEST(PackedBest, UnpackGivesThePairBack) {
    for (const Pair& a : sample_pairs()) {
        const auto u = unpack_best(pack_best(a.f, a.row));
        EXPECT_EQ(u.row, a.row);
        EXPECT_EQ(u.f, a.f);
        EXPECT_FALSE(std::signbit(u.f) && u.f == 0.0f) << "-0 comes back as +0";
        if (a.f != 0.0f) EXPECT_EQ(std::signbit(u.f), std::signbit(a.f));
    }
}

// -0 and +0 are equal fitness (the lower row wins); a NaN is never better, so it ranks after every number,
// infinity included, and an all-NaN merge still names a row.
TEST(PackedBest, SignedZeroAndNaN) {
    EXPECT_EQ(pack_best(-0.0f, 5), pack_best(0.0f, 5));
    EXPECT_LT(pack_best(-0.0f, 4), pack_best(0.0f, 5));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_LT(pack_best(inf, 9), pack_best(nan, 0));
    EXPECT_LT(pack_best(-nan, 3), k_no_packed_best);
    EXPECT_TRUE(std::isnan(unpack_best(pack_best(nan, 3)).f));
    EXPECT_EQ(unpack_best(pack_best(nan, 3)).row, 3);
    EXPECT_EQ(pack_best(nan, 2), pack_best(-nan, 2));
}

} // namespace
