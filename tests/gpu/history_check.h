#pragma once
// Per-iteration agreement of two runs' recorded histories (Params::record_history), shared by the GPU
// suites that compare a strategy's trajectory with cpu-serial's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "swarm/params.h"
#include "swarm/result.h"

inline void expect_same_history(const swarm::Result& gpu, const swarm::Result& cpu, double rel, const std::string& what) {
    ASSERT_EQ(gpu.iterations, cpu.iterations) << what;
    ASSERT_EQ(gpu.swarms.size(), cpu.swarms.size()) << what;
    for (std::size_t s = 0; s < cpu.swarms.size(); ++s) {
        const auto& hc = cpu.swarms[s].history;
        const auto& hg = gpu.swarms[s].history;
        ASSERT_EQ(hg.size(), hc.size()) << what;
        for (std::size_t t = 0; t < hc.size(); ++t) {
            ASSERT_NEAR(hg[t], hc[t], rel * std::max(1.0, std::fabs(hc[t])))
                << what << ": swarm " << s << " iteration " << t + 1;
        }
    }
}

// fp64 Params that record every iteration's per-swarm best, for expect_same_history.
inline swarm::Params traced(int swarms, int particles, long long iterations, swarm::Topology topo,
                            std::uint64_t seed = 7) {
    swarm::Params p;
    p.swarms = swarms;
    p.particles = particles;
    p.iterations = iterations;
    p.topology = topo;
    p.precision = swarm::Precision::FP64;
    p.record_history = true;
    p.seed = seed;
    return p;
}
