// gpu-unrolled: cuPSO's "Loop Unrolling" variant of the reduction baseline (000 §3.2). The same two
// launches per iteration as gpu-reduction (move/evaluate/pbest + block best, then one block per swarm for
// the swarm best), but the block reduction is unrolled for a compile-time block size: the halving steps
// are written out, so their addresses and branches are resolved at compile time. The paper-era code
// finished the last warp with implicit warp-synchronous shared-memory reads, which races on Volta and
// later (independent thread scheduling); here the last 32 values are reduced with warp shuffles instead.
// An unwatched run's launches go out as CUDA graphs (iteration_graph.cuh).
#include "gpu/core/gpu_strategy.h"
#include "gpu/cupso/block_best_buffers.cuh"
#include "gpu/cupso/global_sync_check.h"
#include "gpu/cupso/iteration_graph.cuh"
#include "gpu/cupso/thread_per_particle.cuh"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/detail/strategies.h"
#include "swarm/cuda/detail/swarm_state.h"

namespace swarm::gpu {
namespace {

constexpr int k_block = 256;

// Unrolled arg-min over a block of `Block` threads. Shared-memory halving down to 64 values (each step a
// compile-time `if`), then the last warp folds 64 -> 32 and finishes with shuffles. Result in thread 0.
template <int Block, typename Real>
__device__ __forceinline__ ArgMin<Real> unrolled_reduce(ArgMin<Real> mine, ArgMin<Real>* s) {
    static_assert(Block >= 64 && Block <= 1024 && (Block & (Block - 1)) == 0, "power-of-two block of 64..1024");
    const unsigned tid = threadIdx.x;
    s[tid] = mine;
    __syncthreads();
    if constexpr (Block >= 1024) {
        if (tid < 512) s[tid] = better_of(s[tid], s[tid + 512]);
        __syncthreads();
    }
    if constexpr (Block >= 512) {
        if (tid < 256) s[tid] = better_of(s[tid], s[tid + 256]);
        __syncthreads();
    }
    if constexpr (Block >= 256) {
        if (tid < 128) s[tid] = better_of(s[tid], s[tid + 128]);
        __syncthreads();
    }
    if constexpr (Block >= 128) {
        if (tid < 64) s[tid] = better_of(s[tid], s[tid + 64]);
        __syncthreads();
    }
    ArgMin<Real> v = s[tid];
    if (tid < 32) {
        v = better_of(s[tid], s[tid + 32]);
        // The paper's unrolled tail, race-free: five shuffle steps instead of volatile shared reads.
        v = warp_reduce(v);
    }
    return v;
}

// Launch (1): thread per particle. t == 0 initialises instead of moving.
template <typename Real>
__global__ void __launch_bounds__(k_block) unrolled_step_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                                const Real* gbest_x, ArgMin<Real>* block_best,
                                                                IterationClock clock) {
    __shared__ ArgMin<Real> shared[k_block];
    const std::uint32_t t = clock.now();
    const int s = blockIdx.y;
    const int i = blockIdx.x * k_block + threadIdx.x;
    ArgMin<Real> mine = no_best<Real>();
    if (i < pb.particles) {
        const std::size_t r = static_cast<std::size_t>(s) * pb.particles + i;
        particle_step(pb, st, r, gbest_x + static_cast<std::size_t>(s) * pb.dims, t);
        mine = {st.pf[r], static_cast<int>(r)};
    }
    const ArgMin<Real> b = unrolled_reduce<k_block>(mine, shared);
    if (threadIdx.x == 0) {
        block_best[static_cast<std::size_t>(s) * gridDim.x + blockIdx.x] = b;
    }
}

// Launch (2): one block per swarm, the same unrolled reduction over the block results.
template <typename Real>
__global__ void __launch_bounds__(k_block) unrolled_swarm_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                                 const ArgMin<Real>* block_best, int blocks_per_swarm,
                                                                 Real* best_f, Real* best_x) {
    __shared__ ArgMin<Real> shared[k_block];
    __shared__ int best_row;
    const int s = blockIdx.x;
    ArgMin<Real> mine = no_best<Real>();
    for (int b = threadIdx.x; b < blocks_per_swarm; b += k_block) {
        mine = better_of(mine, block_best[static_cast<std::size_t>(s) * blocks_per_swarm + b]);
    }
    const ArgMin<Real> g = unrolled_reduce<k_block>(mine, shared);
    if (threadIdx.x == 0) {
        best_f[s] = g.f;
        best_row = g.row;
    }
    __syncthreads(); // the shuffle result lives in thread 0 only
    const std::size_t row = static_cast<std::size_t>(best_row);
    for (int d = threadIdx.x; d < pb.dims; d += k_block) {
        best_x[static_cast<std::size_t>(s) * pb.dims + d] = st.p[row * pb.dims + d];
    }
}

class GpuUnrolled final : public GpuStrategy<GpuUnrolled, BlockBestBuffers> {
public:
    GpuUnrolled() : GpuStrategy(Strategy::GpuUnrolled) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, BlockBestBuffers<Real>& buf) {
        require_global_synchronous_builtin(ctx, "gpu-unrolled");
        const auto& pb = ctx.dp;
        const int bps = (pb.particles + k_block - 1) / k_block;
        buf.state.resize(pb.rows(), pb.dims, ctx.stream);
        buf.block_best.resize(static_cast<std::size_t>(bps) * pb.swarms, ctx.stream);
        const dim3 grid(static_cast<unsigned>(bps), static_cast<unsigned>(pb.swarms));
        const StateView<Real> view = buf.state.view();
        ArgMin<Real>* const block_best = buf.block_best.data();
        auto launch = [&](IterationClock clock) {
            unrolled_step_kernel<Real>
                <<<grid, k_block, 0, ctx.stream>>>(pb, view, ctx.best_x.data(), block_best, clock);
            SWARM_CHECK_LAUNCH(unrolled_step_kernel, grid, k_block, 0);
            unrolled_swarm_kernel<Real><<<pb.swarms, k_block, 0, ctx.stream>>>(pb, view, block_best, bps,
                                                                               ctx.best_f.data(), ctx.best_x.data());
            SWARM_CHECK_LAUNCH(unrolled_swarm_kernel, pb.swarms, k_block, 0);
        };
        const struct Key {
            DeviceProblem<Real> pb;
            StateView<Real> view;
            const Real* best_f;
            const Real* best_x;
            const ArgMin<Real>* block_best;
            dim3 grid;
        } key{pb, view, ctx.best_f.data(), ctx.best_x.data(), block_best, grid};
        run_iterations(ctx, buf.graph, key, launch);
    }
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_unrolled() { return std::make_unique<GpuUnrolled>(); }

} // namespace swarm::gpu
