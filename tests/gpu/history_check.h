#pragma once
// Per-iteration agreement of two runs' recorded histories (Params::record_history), shared by the GPU
// suites that compare a strategy's trajectory with cpu-serial's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

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
