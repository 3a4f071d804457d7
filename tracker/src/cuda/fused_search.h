#pragma once
// The tracker's per-frame search as ONE cooperative launch: gpu-fused with a warp-cooperative functor
// (swarm/cuda/custom.cuh) that scores a pose exactly as the batched fitness kernel does. The batched
// evaluator path costs three launches per generation (move, fitness, swarm best); this runs every swarm
// for every generation with one barrier per generation (each swarm's cluster barrier on Hopper and later,
// else the grid barrier). Plain C++ interface; fused_search.cu.
#include <memory>
#include <vector>

#include "swarm/params.h"
#include "swarm/problem.h"
#include "swarm/result.h"

namespace tracker {

class DeviceFrame;
class SignEvaluator;

class FusedSearch {
public:
    FusedSearch();
    ~FusedSearch();
    FusedSearch(const FusedSearch&) = delete;
    FusedSearch& operator=(const FusedSearch&) = delete;

    // Runs the swarms of `problem` (its bounds; its evaluator, if any, is ignored) on `frame` against
    // `ev`'s targets and masks. `positions`, when given, receives every particle's final position
    // (swarm-major rows x dims).
    swarm::Result run(DeviceFrame& frame, const SignEvaluator& ev, const swarm::Problem& problem,
                      const swarm::Params& params, std::vector<float>* positions);
    // EngineSettings::gpu_cluster_barrier (default true).
    void set_cluster_barrier(bool allowed);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace tracker
