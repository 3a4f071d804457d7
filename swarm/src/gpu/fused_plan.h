#pragma once
// Which design gpu-fused runs for a shape (measured on H100/H200, docs/benchmarks-gpu-a.md):
//  - a batched evaluator scores all swarms per generation, so the loop is launches (Multi);
//  - swarms that fit a block (<= 1024 particles) run the block-per-swarm whole-run kernel when there are
//    enough swarms to fill the GPU or the swarm is small; a block per swarm keeps the state on chip and
//    needs only block barriers (Block);
//  - otherwise (few big swarms) the cooperative grid kernel spreads every swarm over all SMs (Grid);
//    wide ring swarms (>= 32 dims) instead fuse RingPSO's two kernels into one cooperative launch, a
//    thread per particle x 4 dims for the move (GridPhases), unless history / early stopping is on.
#include "swarm/params.h"

namespace swarm::gpu {

enum class FusedPlan { Block, Grid, GridPhases, Multi };

inline FusedPlan fused_plan(const Params& params, int dims, bool has_evaluator, bool watched) {
    if (has_evaluator) {
        return FusedPlan::Multi;
    }
    const bool few = params.swarms < 32;
    if (few && params.topology == Topology::Ring && dims >= 32 && !watched &&
        static_cast<long long>(params.particles) * dims >= 8192) {
        return FusedPlan::GridPhases;
    }
    if (params.particles > 1024) {
        return FusedPlan::Grid;
    }
    // Work of one generation in particle-dimensions: below ~8k a single SM per swarm keeps up (and avoids
    // the grid barrier); above it, and with fewer swarms than half the SMs, spread the swarm out.
    const long long per_swarm = static_cast<long long>(params.particles) * dims;
    if (few && per_swarm >= 8192) {
        return FusedPlan::Grid;
    }
    return FusedPlan::Block;
}

} // namespace swarm::gpu
