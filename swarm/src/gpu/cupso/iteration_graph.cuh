#pragma once
// Host-loop strategies that keep a paper's launch-per-iteration design (cuPSO's and CPSO's thread-per-particle
// kernels) submit an unwatched run's launches as CUDA graphs of k_iteration_chunk iterations: the GPU runs the
// same kernels in the same order, and the host no longer issues (nor checks) every launch, which at a few
// microseconds a kernel is what a small swarm's iteration costs. A captured launch cannot take its iteration
// number as an argument that changes per replay, so it reads it from an IterationClock: a device counter that
// the chunk's last node advances, plus the launch's place in the chunk.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "swarm/cuda/check.h"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/memory.h"

namespace swarm::gpu {

constexpr int k_iteration_chunk = 32; // iterations per graph replay

// Iteration `offset`, or `*base + offset` inside a replayed graph.
struct IterationClock {
    const std::uint32_t* base = nullptr;
    std::uint32_t offset = 0;
    __device__ __forceinline__ std::uint32_t now() const { return base != nullptr ? *base + offset : offset; }
};

static __global__ void set_iteration_kernel(std::uint32_t* base, std::uint32_t value, std::uint32_t add) {
    *base = add != 0 ? *base + add : value;
}

class IterationGraph {
public:
    IterationGraph() = default;
    IterationGraph(const IterationGraph&) = delete;
    IterationGraph& operator=(const IterationGraph&) = delete;
    ~IterationGraph() { reset(); }

    // Runs iterations first..last: `launch(clock)` queues one iteration's kernels on `stream`. Whole chunks replay
    // a graph, captured again only when `key` (the launches' arguments, as bytes) differs from the last capture;
    // the rest are launched directly.
    template <typename Launch>
    void run(cudaStream_t stream, long long first, long long last, const void* key, std::size_t key_bytes,
             Launch&& launch) {
        long long t = first;
        if (last - first + 1 >= k_iteration_chunk) {
            m_base.resize(1, stream);
            set_iteration_kernel<<<1, 1, 0, stream>>>(m_base.data(), static_cast<std::uint32_t>(first), 0);
            SWARM_CHECK_LAUNCH(set_iteration_kernel, 1, 1, 0);
            capture_if_changed(stream, key, key_bytes, launch);
            for (; t + k_iteration_chunk - 1 <= last; t += k_iteration_chunk) {
                SWARM_CUDA_CHECK_THROW(cudaGraphLaunch(m_exec, stream));
            }
        }
        for (; t <= last; ++t) {
            launch(IterationClock{nullptr, static_cast<std::uint32_t>(t)});
        }
    }

private:
    template <typename Launch>
    void capture_if_changed(cudaStream_t stream, const void* key, std::size_t key_bytes, Launch& launch) {
        const auto* k = static_cast<const unsigned char*>(key);
        if (m_exec != nullptr && m_key.size() == key_bytes && std::memcmp(m_key.data(), k, key_bytes) == 0) {
            return;
        }
        reset();
        cudaGraph_t graph = nullptr;
        SWARM_CUDA_CHECK_THROW(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        try {
            for (int i = 0; i < k_iteration_chunk; ++i) {
                launch(IterationClock{m_base.data(), static_cast<std::uint32_t>(i)});
            }
        } catch (...) { // a failed launch check: leave the stream out of capture mode before reporting it
            if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr) {
                SWARM_CUDA_CHECK_LOG(cudaGraphDestroy(graph));
            }
            throw;
        }
        set_iteration_kernel<<<1, 1, 0, stream>>>(m_base.data(), 0, k_iteration_chunk);
        const cudaError_t launch_err = cudaGetLastError();
        const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
        SWARM_CUDA_CHECK_THROW(launch_err);
        SWARM_CUDA_CHECK_THROW(end_err);
        const cudaError_t inst = cudaGraphInstantiate(&m_exec, graph, 0);
        SWARM_CUDA_CHECK_LOG(cudaGraphDestroy(graph));
        SWARM_CUDA_CHECK_THROW(inst);
        m_key.assign(k, k + key_bytes);
    }

    void reset() {
        if (m_exec != nullptr) SWARM_CUDA_CHECK_LOG(cudaGraphExecDestroy(m_exec));
        m_exec = nullptr;
        m_key.clear();
    }

    GPUMemory<std::uint32_t> m_base;
    cudaGraphExec_t m_exec = nullptr;
    std::vector<unsigned char> m_key;
};

// A host-loop strategy's whole run: iteration 0, then one launch and one look at the swarm bests per iteration
// when the run is watched (history or early stopping), else the rest as graph replays and one look at the end.
// `key` holds the launches' arguments (IterationGraph::run).
template <typename Real, typename Key, typename Launch>
void run_iterations(RunContext<Real>& ctx, IterationGraph& graph, const Key& key, Launch&& launch) {
    launch(IterationClock{nullptr, 0});
    if (ctx.watched()) {
        for (long long t = 1;; ++t) {
            launch(IterationClock{nullptr, static_cast<std::uint32_t>(t)});
            if (ctx.after_iteration(t, ctx.best_f.data())) {
                break;
            }
        }
    } else {
        graph.run(ctx.stream, 1, ctx.params.iterations, &key, sizeof(key), launch);
        ctx.after_iteration(ctx.params.iterations, ctx.best_f.data());
    }
}

} // namespace swarm::gpu
