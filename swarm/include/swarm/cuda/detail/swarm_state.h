#pragma once
// Device buffers of a particle-major swarm state, kept between runs by the strategy that owns them, so a
// second run of the same size allocates nothing (FastPSO's caching).
#include "swarm/cuda/detail/device_problem.h"
#include "swarm/cuda/memory.h"

namespace swarm::gpu {

template <typename Real>
struct SwarmState {
    GPUMemory<Real> x, v, p, f, pf;

    void resize(std::size_t rows, int dims, cudaStream_t stream) {
        const std::size_t n = rows * static_cast<std::size_t>(dims);
        x.resize(n, stream);
        v.resize(n, stream);
        p.resize(n, stream);
        f.resize(rows, stream);
        pf.resize(rows, stream);
    }
    StateView<Real> view() { return {x.data(), v.data(), p.data(), f.data(), pf.data()}; }
};

} // namespace swarm::gpu
