#pragma once
// What gpu-reduction and gpu-unrolled keep between runs: the swarm state, each block's best (the first stage of
// their two-stage reduction) and the iteration graph.
#include "gpu/cupso/iteration_graph.cuh"
#include "swarm/cuda/detail/block_reduce.cuh"
#include "swarm/cuda/detail/swarm_state.h"
#include "swarm/cuda/memory.h"

namespace swarm::gpu {

template <typename Real>
struct BlockBestBuffers {
    SwarmState<Real> state;
    GPUMemory<ArgMin<Real>> block_best;
    IterationGraph graph;
};

} // namespace swarm::gpu
