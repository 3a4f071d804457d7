#pragma once
// gpu-fused's cluster form of the block-per-swarm kernel (swarm/cuda/detail/cluster_swarm.cuh).
#include "swarm/cuda/detail/block_swarm_run.cuh"

namespace swarm::gpu {

// Runs the whole run in the cluster form and returns true when the shape and the device suit it: synchronous
// global-topology swarms of 256-2,048 particles in 1-4 dimensions, on a device of compute capability 9.0 with room
// for every swarm's cluster at once. Returns false, having run nothing, otherwise (the caller runs its block or
// grid form).
template <typename Real>
bool run_cluster_builtin(RunContext<Real>& ctx, BlockRunBuffers<Real>& buf);

} // namespace swarm::gpu
