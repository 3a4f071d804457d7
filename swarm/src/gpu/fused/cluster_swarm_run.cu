// Host side of gpu-fused's cluster form (swarm/cuda/detail/cluster_swarm.cuh): which shapes take it, and its
// launch (the same chunked watching as the block kernel when history or early stopping is on).
#include "gpu/fused/cluster_swarm_run.h"

#include "swarm/cuda/detail/cluster_swarm.cuh"
#include "swarm/cuda/launch.h"

namespace swarm::gpu {
namespace {

// Below this many particles a swarm's generation on one SM is already short, and the cluster barrier would
// cost more than the spread saves.
constexpr int k_cluster_min_particles = 256;

template <typename Real, typename Fit, int kThreads>
auto pick_cluster_kernel(int dims) {
    using Kernel = void (*)(BlockRunArgs<Real>, Fit);
    switch (dims) {
    case 1: return Kernel(cluster_swarm_kernel<Real, Fit, 1, kThreads>);
    case 2: return Kernel(cluster_swarm_kernel<Real, Fit, 2, kThreads>);
    case 3: return Kernel(cluster_swarm_kernel<Real, Fit, 3, kThreads>);
    case 4: return Kernel(cluster_swarm_kernel<Real, Fit, 4, kThreads>);
    default: return Kernel(nullptr);
    }
}

} // namespace

template <typename Real>
bool run_cluster_builtin(RunContext<Real>& ctx, BlockRunBuffers<Real>& buf) {
    using Fit = BuiltinFitness<Real>;
    const auto& pb = ctx.dp;
    const int S = pb.swarms, N = pb.particles, D = pb.dims;
    if (pb.ring || ctx.params.update != Update::Synchronous || N < k_cluster_min_particles ||
        N > k_cluster_swarm_max_particles) {
        return false;
    }
    const int threads = cluster_swarm_threads(N);
    const auto kernel = threads == 128 ? pick_cluster_kernel<Real, Fit, 128>(D) : pick_cluster_kernel<Real, Fit, 256>(D);
    if (kernel == nullptr) {
        return false;
    }
    const int cluster = (N + threads - 1) / threads;
    const int resident = cached_launch_query(kernel, threads, cluster, [&] {
        return resident_clusters(kernel, threads, cluster, ctx.stream);
    });
    if (resident < S) {
        return false;
    }
    if (ctx.watched()) {
        buf.state.resize(pb.rows(), D, ctx.stream);
    }
    BlockRunArgs<Real> a{pb, buf.state.view(), nullptr, ctx.best_f.data(), ctx.best_x.data(), 0, 0, D, true, false};
    const Fit fit{pb.function, pb.sign};
    auto launch = [&](std::uint32_t first, std::uint32_t last, Real* history, bool keep) {
        a.first = first;
        a.last = last;
        a.history = history;
        a.keep_state = keep;
        cudaLaunchConfig_t cfg{};
        cudaLaunchAttribute attr{};
        cluster_config(cfg, attr, S * cluster, threads, cluster, ctx.stream);
        SWARM_CUDA_CHECK_THROW(cudaLaunchKernelEx(&cfg, kernel, a, fit));
    };
    run_block_launches(ctx, buf, launch);
    return true;
}

template bool run_cluster_builtin(RunContext<float>&, BlockRunBuffers<float>&);
template bool run_cluster_builtin(RunContext<double>&, BlockRunBuffers<double>&);

} // namespace swarm::gpu
