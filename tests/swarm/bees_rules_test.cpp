// The Bees Algorithm's rules as pure functions: keyed draws, patch step, shrinking, abandonment, the
// odd-even sort of each colony and the two-phase exchange pattern (host side of what the kernel runs).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "bees/bees_math.h"
#include "bees/cuba_block.h"

namespace {

using namespace swarm::bees;

TEST(BeesRules, DrawsAreKeyedAndInUnitInterval) {
    const float a = draw<float>(7, 3, 11, 2, 5);
    EXPECT_EQ(a, draw<float>(7, 3, 11, 2, 5));
    EXPECT_NE(a, draw<float>(7, 3, 11, 3, 5)); // another recruit
    EXPECT_NE(a, draw<float>(7, 4, 11, 2, 5)); // another cycle
    EXPECT_NE(a, draw<float>(7, 3, 12, 2, 5)); // another bee
    EXPECT_NE(a, draw<float>(8, 3, 11, 2, 5)); // another seed
    for (std::uint32_t d = 0; d < 64; ++d) {
        const double u = draw<double>(1, 1, 0, 0, d);
        EXPECT_GT(u, 0.0);
        EXPECT_LE(u, 1.0);
    }
    // The block form used by the kernels gives the same numbers as one draw per dimension.
    const auto w = draw_block(9, 2, 3, 4, 1);
    for (std::uint32_t j = 0; j < 4; ++j) {
        EXPECT_EQ(swarm::rng::to_uniform<float>(swarm::rng::pick(w, j)), draw<float>(9, 2, 3, 4, 4 + j));
    }
}

TEST(BeesRules, PatchStepStaysInsideTheBoxAndThePatch) {
    for (int i = 1; i <= 1000; ++i) {
        const double u = i / 1000.0;
        const double y = patch_coordinate(3.0, -5.0, 5.0, 0.1, u);
        EXPECT_GE(y, 2.0 - 1e-12);
        EXPECT_LE(y, 4.0 + 1e-12);
        const double z = patch_coordinate(4.9, -5.0, 5.0, 1.0, u);
        EXPECT_GE(z, -5.0);
        EXPECT_LE(z, 5.0);
    }
    EXPECT_DOUBLE_EQ(scout_coordinate(-2.0, 2.0, 1.0), 2.0);
}

TEST(BeesRules, NeighbourhoodShrinksOnlyWithoutImprovement) {
    EXPECT_FLOAT_EQ(next_ngh(0.5f, true, 0.8f), 0.5f);
    EXPECT_FLOAT_EQ(next_ngh(0.5f, false, 0.8f), 0.4f);
    double ngh = 1.0;
    int stagnant = 0;
    for (int i = 0; i < 3; ++i) {
        EXPECT_FALSE(after_search(ngh, stagnant, false, 0.8, 5));
    }
    EXPECT_NEAR(ngh, 0.512, 1e-12);
    EXPECT_EQ(stagnant, 3);
    EXPECT_FALSE(after_search(ngh, stagnant, true, 0.8, 5)); // an improvement resets the count, keeps ngh
    EXPECT_EQ(stagnant, 0);
    EXPECT_NEAR(ngh, 0.512, 1e-12);
}

TEST(BeesRules, SiteIsAbandonedAfterStlimStagnantCycles) {
    double ngh = 1.0;
    int stagnant = 0;
    for (int i = 1; i < 4; ++i) {
        EXPECT_FALSE(after_search(ngh, stagnant, false, 0.8, 4)) << "cycle " << i;
    }
    EXPECT_TRUE(after_search(ngh, stagnant, false, 0.8, 4));
}

TEST(BeesExchange, AdjacentPhaseOnOddCyclesSkipOneOnEven) {
    // Colony i receives the best site of exchange_source(i, cycle, 8).
    const int adjacent[8] = {7, 2, 1, 4, 3, 6, 5, 0}; // odd <- i+1, even <- i-1
    const int skip_one[8] = {6, 3, 0, 5, 2, 7, 4, 1}; // odd <- i+2, even <- i-2
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(exchange_source(i, 1, 8), adjacent[i]) << "colony " << i;
        EXPECT_EQ(exchange_source(i, 3, 8), adjacent[i]) << "colony " << i;
        EXPECT_EQ(exchange_source(i, 2, 8), skip_one[i]) << "colony " << i;
        EXPECT_EQ(exchange_source(i, 4, 8), skip_one[i]) << "colony " << i;
    }
    // The adjacent phase pairs colonies up: each pair swaps best sites.
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(exchange_source(exchange_source(i, 1, 8), 1, 8), i);
    }
}

TEST(BeesExchange, SmallAndOddBlocks) {
    EXPECT_EQ(exchange_source(0, 1, 1), 0); // alone: nobody to exchange with
    EXPECT_EQ(exchange_source(0, 1, 2), 1);
    EXPECT_EQ(exchange_source(1, 1, 2), 0);
    EXPECT_EQ(exchange_source(0, 2, 2), 0); // skip-one wraps onto itself
    EXPECT_EQ(exchange_source(1, 2, 2), 1);
    for (int count = 3; count <= 9; count += 2) {
        for (int i = 0; i < count; ++i) {
            for (long long c = 1; c <= 2; ++c) {
                const int j = exchange_source(i, c, count);
                EXPECT_GE(j, 0);
                EXPECT_LT(j, count);
            }
        }
    }
}

// Sorts a block of `colonies` colonies of n rows with n odd-even phases, as the kernel does.
void sort_block(int colonies, int n, unsigned seed, bool reversed) {
    CubaShape<double> k;
    k.n = n;
    k.dims = 3;
    k.stride = cuba_stride(k.dims);
    const int rows = colonies * n;
    std::vector<double> x(static_cast<std::size_t>(rows) * k.stride), stage(x.size()), f(rows), ngh(rows);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-10, 10);
    for (int r = 0; r < rows; ++r) {
        f[r] = reversed ? -(r % n) + 100.0 * (r / n) : u(gen);
        ngh[r] = f[r] * 2;
        for (int d = 0; d < k.dims; ++d) {
            x[static_cast<std::size_t>(r) * k.stride + d] = f[r] + d;
        }
    }
    const std::vector<double> before = f;
    const BlockRows<double> b{x.data(), stage.data(), f.data(), ngh.data()};
    for (int phase = 0; phase < n; ++phase) {
        for (int r = 0; r < rows; ++r) {
            cuba_sort_step(k, b, r, r % n, phase);
        }
    }
    for (int c = 0; c < colonies; ++c) {
        std::vector<double> want(before.begin() + c * n, before.begin() + (c + 1) * n);
        std::sort(want.begin(), want.end());
        for (int i = 0; i < n; ++i) {
            const int r = c * n + i;
            ASSERT_EQ(f[r], want[i]) << "colony " << c << " rank " << i << " (n=" << n << ")";
            EXPECT_EQ(ngh[r], f[r] * 2) << "ngh must move with its site";
            for (int d = 0; d < k.dims; ++d) {
                EXPECT_EQ(x[static_cast<std::size_t>(r) * k.stride + d], f[r] + d) << "row moved whole";
            }
        }
    }
}

TEST(BeesSort, OddEvenSortsEachColonyOnItsOwn) {
    for (const int n : {1, 2, 3, 7, 8, 16, 33}) {
        sort_block(4, n, 17u + static_cast<unsigned>(n), false);
        sort_block(3, n, 0u, true); // worst case: every colony in reverse order
    }
}

TEST(BeesExchange, StagedCopyReplacesTheWorstSelectedSite) {
    CubaShape<double> k;
    k.n = 4;
    k.m = 2;
    k.dims = 2;
    k.stride = cuba_stride(k.dims);
    const int colonies = 2, rows = colonies * k.n;
    std::vector<double> x(static_cast<std::size_t>(rows) * k.stride), stage(x.size()), f(rows), ngh(rows);
    for (int r = 0; r < rows; ++r) {
        f[r] = r;
        ngh[r] = 0.5 + r;
        x[static_cast<std::size_t>(r) * k.stride] = 10 * r;
    }
    const BlockRows<double> b{x.data(), stage.data(), f.data(), ngh.data()};
    for (int r = 0; r < rows; ++r) {
        cuba_exchange_stage(k, b, r, r % k.n, r / k.n, 1, colonies);
    }
    for (int r = 0; r < rows; ++r) {
        cuba_exchange_commit(k, b, r, r % k.n, r / k.n, 1, colonies);
    }
    // Colony 0's slot m-1 = row 1 received colony 1's best (row 4), and the other way round.
    EXPECT_EQ(f[1], 4);
    EXPECT_EQ(ngh[1], 4.5);
    EXPECT_EQ(x[1 * static_cast<std::size_t>(k.stride)], 40);
    EXPECT_EQ(f[5], 0);
    EXPECT_EQ(x[5 * static_cast<std::size_t>(k.stride)], 0);
    EXPECT_EQ(f[0], 0); // bests untouched
    EXPECT_EQ(f[4], 4);
    EXPECT_EQ(cuba_colony_best(k, b, 4), 0.0);
}

} // namespace
