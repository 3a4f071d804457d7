#pragma once
// Which design gpu-fused runs for a shape (measured on H100/H200, docs/benchmarks-gpu-a.md):
//  - a batched evaluator scores all swarms per generation, so the loop is launches (Multi);
//  - swarms that fit a block (<= 1024 particles) run the block-per-swarm whole-run kernel when there are
//    enough swarms to fill the GPU or the swarm is small; a block per swarm keeps the state on chip and
//    needs only block barriers (Block); on compute capability 9.0 a few synchronous global swarms of
//    256-2,048 particles in 1-4 dims spread each over a thread-block cluster instead, since one SM's issue rate
//    bounds such a block (cluster_swarm.cuh; run_cluster_builtin decides, needing the device);
//  - otherwise (few big swarms) the cooperative grid kernel spreads every swarm over all SMs (Grid);
//    few ring swarms of >= 32 dims instead fuse RingPSO's two kernels into one cooperative launch, a
//    thread per particle x 4 dims for the move (GridPhases), unless history / early stopping is on. Its
//    generation costs about 5 us (two grid barriers) whatever the dims, while the block kernel's thread
//    walks its particle's dims one after another, about 0.2 us each: at 32 particles on an H200 (10,000
//    generations, sphere / rastrigin / rosenbrock) GridPhases took 49-55 ms at 32 dims and 50-74 ms at
//    128, the block kernel 58-81 and 223-322 ms, RingPSO's own two-kernel design 78-108 and 104-238 ms;
//  - the asynchronous update (Params::update) is its own form, a warp per 32 particles (async_warp_swarm.cuh).
#include "swarm/params.h"

namespace swarm::gpu {

enum class FusedPlan { Block, Grid, GridPhases, Multi };

inline FusedPlan fused_plan(const Params& params, int dims, bool has_evaluator, bool watched) {
    if (has_evaluator) {
        return FusedPlan::Multi;
    }
    const bool few = params.swarms < 32;
    if (few && params.topology == Topology::Ring && dims >= 32 && !watched) {
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

// Params::update = Asynchronous runs in gpu-fused's warp form (async_warp_swarm.cuh) for these shapes only;
// otherwise the reason (for a ValidationError), and `auto` picks a CPU strategy instead.
inline const char* async_warp_unsupported(const Params& pr, int dims, bool has_evaluator, bool watched) {
    if (pr.topology != Topology::Global) return "runs the global topology only; use cpu-serial for an asynchronous ring";
    if (pr.precision != Precision::FP32) return "runs fp32 only; use --precision fp32 or cpu-serial";
    if (has_evaluator) return "scores built-in functions only; use the synchronous update for a batched evaluator";
    if (watched) return "does not record history or stop early; use the synchronous update or cpu-serial for those";
    if (!(dims >= 1 && dims <= 6) && dims != 8) return "runs 1-6 or 8 dimensions; use cpu-serial for other sizes";
    return nullptr;
}

} // namespace swarm::gpu
