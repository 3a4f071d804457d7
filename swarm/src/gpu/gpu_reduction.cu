// gpu-reduction: CPSO's (002) and cuPSO's baseline (000 §3.2). Thread per particle; each iteration is two
// launches: (1) move, evaluate and update personal bests, then a shared-memory tree reduction gives each
// block's best; (2) one block per swarm reduces the block results and snapshots the swarm's best
// position, which the next iteration's launch (1) reads. The launch boundary is the synchronisation.
#include <cfloat>
#include <climits>

#include "gpu/global_sync_check.h"
#include "swarm/cuda/detail/block_reduce.cuh"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/detail/strategies.h"
#include "swarm/cuda/detail/swarm_state.h"

namespace swarm::gpu {
namespace {

constexpr int k_block = 256;

template <typename Real>
__device__ __forceinline__ Real worst() {
    return sizeof(Real) == sizeof(float) ? Real(FLT_MAX) : Real(DBL_MAX);
}

// Launch (1). t == 0 initialises instead of moving.
template <typename Real>
__global__ void __launch_bounds__(k_block) step_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                       const Real* gbest_x, ArgMin<Real>* block_best, std::uint32_t t) {
    __shared__ ArgMin<Real> shared[k_block];
    const int s = blockIdx.y;
    const int i = blockIdx.x * k_block + threadIdx.x;
    ArgMin<Real> mine{worst<Real>(), INT_MAX};
    if (i < pb.particles) {
        const std::size_t r = static_cast<std::size_t>(s) * pb.particles + i;
        Real* x = st.x + r * pb.dims;
        Real* v = st.v + r * pb.dims;
        Real* p = st.p + r * pb.dims;
        if (t == 0) {
            for (int d = 0; d < pb.dims; ++d) {
                initial_state(pb, r, d, x[d], v[d]);
            }
        } else {
            const Real* g = gbest_x + static_cast<std::size_t>(s) * pb.dims;
            for (int d = 0; d < pb.dims; ++d) {
                move_dimension(pb, r, d, t, x[d], v[d], p[d], g[d]);
            }
        }
        const Real f = builtin_fitness(pb, x);
        st.f[r] = f;
        if (t == 0 || f < st.pf[r]) {
            st.pf[r] = f;
            for (int d = 0; d < pb.dims; ++d) {
                p[d] = x[d];
            }
        }
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
    ArgMin<Real> mine{worst<Real>(), INT_MAX};
    for (int b = threadIdx.x; b < blocks_per_swarm; b += k_block) {
        mine = better_of(mine, block_best[static_cast<std::size_t>(s) * blocks_per_swarm + b]);
    }
    const ArgMin<Real> g = tree_reduce(mine, shared);
    for (int d = threadIdx.x; d < pb.dims; d += k_block) {
        best_x[static_cast<std::size_t>(s) * pb.dims + d] = st.p[static_cast<std::size_t>(g.row) * pb.dims + d];
    }
    if (threadIdx.x == 0) {
        best_f[s] = g.f;
    }
}

class GpuReduction final : public GpuPsoOptimizer {
public:
    GpuReduction() : GpuPsoOptimizer(Strategy::GpuReduction) {}

protected:
    void solve(RunContext<float>& ctx) override { solve_impl(ctx, m_f32); }
    void solve(RunContext<double>& ctx) override { solve_impl(ctx, m_f64); }

private:
    template <typename Real>
    struct Buffers {
        SwarmState<Real> state;
        GPUMemory<ArgMin<Real>> block_best;
    };

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, Buffers<Real>& buf) {
        require_global_synchronous_builtin(ctx, "gpu-reduction");
        const auto& pb = ctx.dp;
        const int bps = (pb.particles + k_block - 1) / k_block;
        buf.state.resize(pb.rows(), pb.dims, ctx.stream);
        buf.block_best.resize(static_cast<std::size_t>(bps) * pb.swarms, ctx.stream);
        const dim3 grid(static_cast<unsigned>(bps), static_cast<unsigned>(pb.swarms));
        for (long long t = 0;; ++t) {
            step_kernel<Real><<<grid, k_block, 0, ctx.stream>>>(pb, buf.state.view(), ctx.best_x.data(),
                                                                buf.block_best.data(), static_cast<std::uint32_t>(t));
            SWARM_CHECK_LAUNCH(step_kernel, grid, k_block, 0);
            swarm_best_kernel<Real><<<pb.swarms, k_block, 0, ctx.stream>>>(
                pb, buf.state.view(), buf.block_best.data(), bps, ctx.best_f.data(), ctx.best_x.data());
            SWARM_CHECK_LAUNCH(swarm_best_kernel, pb.swarms, k_block, 0);
            if (t > 0 && ctx.after_iteration(t, ctx.best_f.data())) {
                break;
            }
        }
    }

    Buffers<float> m_f32;
    Buffers<double> m_f64;
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_reduction() { return std::make_unique<GpuReduction>(); }

} // namespace swarm::gpu
