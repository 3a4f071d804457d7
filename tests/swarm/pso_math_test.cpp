// The update formulas, boundary rules and random streams that the CPU reference and every kernel share.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "swarm/detail/philox.h"
#include "swarm/detail/pso_math.h"

namespace pso = swarm::pso;
namespace rng = swarm::rng;

TEST(PsoMath, VelocityIsEquationOne) {
    const pso::Coefficients<double> k{0.5, 2.0, 3.0};
    // w v + c1 r1 (p - x) + c2 r2 (g - x)
    EXPECT_DOUBLE_EQ(pso::velocity(1.0, 2.0, 4.0, 6.0, k, 0.25, 0.5), 0.5 + 2.0 * 0.25 * 2.0 + 3.0 * 0.5 * 4.0);
    // A particle sitting on both bests keeps only its inertia.
    EXPECT_DOUBLE_EQ(pso::velocity(-3.0, 1.0, 1.0, 1.0, k, 0.9, 0.9), -1.5);
}

TEST(PsoMath, VelocityClamp) {
    EXPECT_EQ(pso::clamp_velocity(5.0, 2.0), 2.0);
    EXPECT_EQ(pso::clamp_velocity(-5.0, 2.0), -2.0);
    EXPECT_EQ(pso::clamp_velocity(1.5, 2.0), 1.5);
    EXPECT_EQ(pso::clamp_velocity(100.0, 0.0), 100.0); // 0 disables
    EXPECT_DOUBLE_EQ(pso::velocity_limit(-10.0, 10.0, 0.25), 5.0);
}

TEST(PsoMath, BoundaryClampKeepsVelocity) {
    double x = 9.0, v = 3.0;
    pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Clamp, 0.0);
    EXPECT_EQ(x, 10.0);
    EXPECT_EQ(v, 3.0);
    x = -9.0;
    v = -4.0;
    pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Clamp, 0.0);
    EXPECT_EQ(x, -10.0);
}

// The branch-free forms the register kernels use for the Clamp rule (particle_ops.cuh, move_block<Real, true>):
// clamp_position after x + v is move(Clamp), and the velocity clamp with an infinite limit for "none" is
// clamp_velocity, for every input a kernel can meet, infinities and NaN included.
TEST(PsoMath, ClampFormsAgreeWithMove) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const double values[] = {-1e300, -11.0, -10.0, -3.5, 0.0, 7.25, 10.0, 10.5, 1e300, inf, -inf, nan};
    auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    for (const double x0 : values) {
        for (const double v0 : {-4.0, 0.0, 3.0, 25.0}) {
            double x = x0, v = v0;
            pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Clamp, 0.0);
            EXPECT_TRUE(same(pso::clamp_position(x0 + v0, -10.0, 10.0), x)) << x0 << " + " << v0;
            EXPECT_EQ(v, v0);
        }
        for (const double vmax : {0.0, -1.0, 2.0, nan}) {
            const double lim = vmax > 0.0 ? vmax : inf;
            const double branch_free = x0 > lim ? lim : (x0 < -lim ? -lim : x0);
            EXPECT_TRUE(same(branch_free, pso::clamp_velocity(x0, vmax))) << x0 << " vmax " << vmax;
        }
    }
}

TEST(PsoMath, BoundaryReflectMirrorsPositionAndVelocity) {
    double x = 9.0, v = 3.0; // would land at 12: reflected to 8
    pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Reflect, 0.0);
    EXPECT_DOUBLE_EQ(x, 8.0);
    EXPECT_EQ(v, -3.0);
    x = 0.0;
    v = 95.0; // lands at 95: folds to a point inside
    pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Reflect, 0.0);
    EXPECT_GE(x, -10.0);
    EXPECT_LE(x, 10.0);
}

TEST(PsoMath, BoundaryRandomRedraws) {
    double x = 9.0, v = 3.0;
    pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Random, 0.75);
    EXPECT_DOUBLE_EQ(x, 5.0);
    x = 0.0;
    v = 1.0; // inside: untouched
    pso::move(x, v, -10.0, 10.0, pso::BoundaryMode::Random, 0.75);
    EXPECT_DOUBLE_EQ(x, 1.0);
}

TEST(PsoMath, RingNeighbourWrapsAround) {
    EXPECT_EQ(pso::ring_neighbour(0, -1, 8), 7);
    EXPECT_EQ(pso::ring_neighbour(7, 1, 8), 0);
    EXPECT_EQ(pso::ring_neighbour(3, -1, 8), 2);
    EXPECT_EQ(pso::ring_neighbour(1, -3, 8), 6);
    EXPECT_EQ(pso::ring_neighbour(0, 1, 1), 0);
}

TEST(PsoMath, TiesGoToTheLowerIndex) {
    EXPECT_TRUE(pso::better(1.0, 5, 2.0, 1));
    EXPECT_TRUE(pso::better(1.0, 1, 1.0, 5));
    EXPECT_FALSE(pso::better(1.0, 5, 1.0, 1));
}

// The keyed stream is cuRAND's Philox4x32-10: the project's portable implementation (used where the CUDA
// toolkit is absent) must agree bit for bit with curand_Philox4x32_10.
TEST(Philox, PortableMatchesCurand) {
#if defined(SWARM_HAVE_CURAND)
    for (std::uint32_t i = 0; i < 1000; ++i) {
        const rng::Words c{{i, i * 7u + 1u, 0xFFFFFFFFu - i, i ^ 0x5a5a5a5au}};
        const std::uint64_t seed = 0x123456789abcdefULL + i;
        const auto a = rng::philox4x32_10(c, seed);
        const auto b = rng::philox4x32_10_portable(c, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
        for (int k = 0; k < 4; ++k) {
            ASSERT_EQ(a.v[k], b.v[k]);
        }
    }
#else
    GTEST_SKIP() << "built without the CUDA toolkit";
#endif
}

TEST(Philox, KnownAnswer) {
    // Random123's published known-answer vector for philox4x32_10: counter and key all zero.
    const auto r = rng::philox4x32_10_portable(rng::Words{{0, 0, 0, 0}}, 0, 0);
    EXPECT_EQ(r.v[0], 0x6627e8d5u);
    EXPECT_EQ(r.v[1], 0xe169c58du);
    EXPECT_EQ(r.v[2], 0xbc57ac4cu);
    EXPECT_EQ(r.v[3], 0x9b00dbd8u);
}

TEST(Philox, UniformsInUnitIntervalAndDistinctPerKey) {
    std::set<float> seen;
    double sum = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const float u = rng::uniform<float>(7, rng::Stream::R1, static_cast<std::uint32_t>(i / 100),
                                            static_cast<std::uint32_t>(i % 100), 3);
        ASSERT_GT(u, 0.0f);
        ASSERT_LE(u, 1.0f);
        sum += u;
        seen.insert(u);
    }
    EXPECT_NEAR(sum / n, 0.5, 0.01);
    EXPECT_GT(seen.size(), static_cast<std::size_t>(n * 0.99));
    // Different streams, iterations, particles and dims give different numbers.
    const auto base = rng::uniform<double>(1, rng::Stream::R1, 1, 1, 1);
    EXPECT_NE(base, rng::uniform<double>(1, rng::Stream::R2, 1, 1, 1));
    EXPECT_NE(base, rng::uniform<double>(1, rng::Stream::R1, 2, 1, 1));
    EXPECT_NE(base, rng::uniform<double>(1, rng::Stream::R1, 1, 2, 1));
    EXPECT_NE(base, rng::uniform<double>(1, rng::Stream::R1, 1, 1, 2));
    EXPECT_NE(base, rng::uniform<double>(2, rng::Stream::R1, 1, 1, 1));
}
