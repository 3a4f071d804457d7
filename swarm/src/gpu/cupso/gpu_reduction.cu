// gpu-reduction: CPSO's (002) and cuPSO's baseline (000 §3.2). Thread per particle; each iteration is two
// launches: (1) move, evaluate and update personal bests, then a shared-memory tree reduction gives each
// block's best; (2) one block per swarm reduces the block results and snapshots the swarm's best
// position, which the next iteration's launch (1) reads. The launch boundary is the synchronisation.
// Blocks are sized to the swarm (threads_for: fewer halving steps for a small one), and an unwatched run's
// launches go out as CUDA graphs (iteration_graph.cuh).
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

// Launch (1). t == 0 initialises instead of moving. blockDim.x is a power of two (tree_reduce).
template <typename Real>
__global__ void __launch_bounds__(k_block) step_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                       const Real* gbest_x, ArgMin<Real>* block_best,
                                                       IterationClock clock) {
    __shared__ ArgMin<Real> shared[k_block];
    const std::uint32_t t = clock.now();
    const int s = blockIdx.y;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    ArgMin<Real> mine = no_best<Real>();
    if (i < pb.particles) {
        const std::size_t r = static_cast<std::size_t>(s) * pb.particles + i;
        particle_step(pb, st, r, gbest_x + static_cast<std::size_t>(s) * pb.dims, t);
        mine = {st.pf[r], static_cast<int>(r)};
    }
    const ArgMin<Real> b = tree_reduce(mine, shared);
    if (threadIdx.x == 0) {
        block_best[static_cast<std::size_t>(s) * gridDim.x + blockIdx.x] = b;
    }
}

// Launch (2): one block per swarm.
template <typename Real>
__global__ void __launch_bounds__(k_block) swarm_best_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                             const ArgMin<Real>* block_best, int blocks_per_swarm,
                                                             Real* best_f, Real* best_x) {
    __shared__ ArgMin<Real> shared[k_block];
    const int s = blockIdx.x;
    ArgMin<Real> mine = no_best<Real>();
    for (int b = threadIdx.x; b < blocks_per_swarm; b += blockDim.x) {
        mine = better_of(mine, block_best[static_cast<std::size_t>(s) * blocks_per_swarm + b]);
    }
    const ArgMin<Real> g = tree_reduce(mine, shared);
    for (int d = threadIdx.x; d < pb.dims; d += blockDim.x) {
        best_x[static_cast<std::size_t>(s) * pb.dims + d] = st.p[static_cast<std::size_t>(g.row) * pb.dims + d];
    }
    if (threadIdx.x == 0) {
        best_f[s] = g.f;
    }
}

class GpuReduction final : public GpuStrategy<GpuReduction, BlockBestBuffers> {
public:
    GpuReduction() : GpuStrategy(Strategy::GpuReduction) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, BlockBestBuffers<Real>& buf) {
        require_global_synchronous_builtin(ctx, "gpu-reduction");
        const auto& pb = ctx.dp;
        const int threads = threads_for(pb.particles, k_block, true);
        const int bps = (pb.particles + threads - 1) / threads;
        const int swarm_threads = threads_for(bps, k_block, true);
        buf.state.resize(pb.rows(), pb.dims, ctx.stream);
        buf.block_best.resize(static_cast<std::size_t>(bps) * pb.swarms, ctx.stream);
        const dim3 grid(static_cast<unsigned>(bps), static_cast<unsigned>(pb.swarms));
        const StateView<Real> view = buf.state.view();
        ArgMin<Real>* const block_best = buf.block_best.data();
        auto launch = [&](IterationClock clock) {
            step_kernel<Real><<<grid, threads, 0, ctx.stream>>>(pb, view, ctx.best_x.data(), block_best, clock);
            SWARM_CHECK_LAUNCH(step_kernel, grid, threads, 0);
            swarm_best_kernel<Real><<<pb.swarms, swarm_threads, 0, ctx.stream>>>(pb, view, block_best, bps,
                                                                                ctx.best_f.data(), ctx.best_x.data());
            SWARM_CHECK_LAUNCH(swarm_best_kernel, pb.swarms, swarm_threads, 0);
        };
        const struct Key {
            DeviceProblem<Real> pb;
            StateView<Real> view;
            const Real* best_f;
            const Real* best_x;
            const ArgMin<Real>* block_best;
            dim3 grid;
            int threads, swarm_threads;
        } key{pb, view, ctx.best_f.data(), ctx.best_x.data(), block_best, grid, threads, swarm_threads};
        run_iterations(ctx, buf.graph, key, launch);
    }
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_reduction() { return std::make_unique<GpuReduction>(); }

} // namespace swarm::gpu
