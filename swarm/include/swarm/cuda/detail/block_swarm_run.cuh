#pragma once
// Host side of the block-per-swarm whole-run kernel: picks on-chip or global state, and runs the whole
// run in one launch when nothing needs watching. With history or early stopping it runs chunks of
// generations (each chunk one launch, the per-generation swarm bests copied back once per chunk); when a
// stopping rule fires inside a chunk, the chunk is re-run from a snapshot up to that generation, so the
// run stops exactly where cpu-serial would.
#include <algorithm>
#include <vector>

#include "swarm/cuda/detail/block_swarm.cuh"
#include "swarm/cuda/detail/block_swarm_reg.cuh"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/detail/swarm_state.h"
#include "swarm/cuda/launch.h"

namespace swarm::gpu {

template <typename Real>
struct BlockRunBuffers {
    SwarmState<Real> state, snapshot;
    GPUMemory<Real> history;
};

template <typename Real>
void copy_state(SwarmState<Real>& dst, const SwarmState<Real>& src, cudaStream_t stream) {
    for (auto [d, s] : {std::pair{&dst.x, &src.x}, std::pair{&dst.v, &src.v}, std::pair{&dst.p, &src.p},
                        std::pair{&dst.f, &src.f}, std::pair{&dst.pf, &src.pf}}) {
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(d->data(), s->data(), s->bytes(), cudaMemcpyDeviceToDevice, stream));
    }
}

// Threads per block for a swarm of `particles`: one per particle up to 1024 (whole warps).
inline int block_threads(int particles) {
    return std::min(1024, (particles + 31) / 32 * 32);
}

// Runs generations in chunks of launches, feeding every generation's per-swarm best (from `history`) to
// the stopping rules and the recorded history. `launch(first, last, history, keep_state)` runs
// generations first..last (first == 0: initialise first); `save`/`restore` snapshot the device state.
template <typename Real, typename Launch, typename Save, typename Restore>
void run_watched(RunContext<Real>& ctx, GPUMemory<Real>& history, Launch&& launch, Save&& save, Restore&& restore) {
    const auto& pb = ctx.dp;
    const Params& pr = ctx.params;
    const int S = pb.swarms;
    const bool early = ctx.stop.early_stopping();
    const auto T = static_cast<std::uint32_t>(pr.iterations);
    // Chunks grow from 64 generations (quick early stops) to 4096 (few host round trips), capped so the
    // history buffer stays under 64 MiB.
    const std::uint32_t cap = static_cast<std::uint32_t>(
        std::max<std::size_t>(1, (std::size_t{64} << 20) / (sizeof(Real) * static_cast<std::size_t>(S))));
    std::uint32_t chunk = std::min<std::uint32_t>(64, cap);
    std::vector<Real> host;
    std::uint32_t done = 0; // generations completed
    while (true) {
        const std::uint32_t last = std::min(T, done + chunk);
        const std::uint32_t n = last - done;
        history.resize(static_cast<std::size_t>(n) * S, ctx.stream);
        if (early && done > 0) {
            save();
        }
        launch(done == 0 ? 0 : done + 1, last, history.data(), true);
        host.resize(static_cast<std::size_t>(n) * S);
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(host.data(), history.data(), host.size() * sizeof(Real),
                                               cudaMemcpyDeviceToHost, ctx.stream));
        SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(ctx.stream));
        std::uint32_t stop_at = 0;
        for (std::uint32_t k = 0; k < n && stop_at == 0; ++k) {
            const Real* row = host.data() + static_cast<std::size_t>(k) * S;
            Real best = row[0];
            for (int s = 0; s < S; ++s) {
                best = std::min(best, row[s]);
                if (pr.record_history) {
                    ctx.history[static_cast<std::size_t>(s)].push_back(static_cast<double>(pb.sign * row[s]));
                }
            }
            if (ctx.stop.after_iteration(done + k + 1, static_cast<double>(pb.sign * best),
                                         ctx.problem.goal == Goal::Maximise)) {
                stop_at = done + k + 1;
            }
        }
        if (stop_at != 0) {
            if (stop_at < last) { // replay the chunk up to the stopping generation
                if (done > 0) {
                    restore();
                }
                launch(done == 0 ? 0 : done + 1, stop_at, nullptr, false);
            }
            ctx.iterations = stop_at;
            return;
        }
        done = last;
        chunk = std::min(chunk * 2, std::min<std::uint32_t>(4096, cap));
    }
}

// The whole run as `launch(first, last, history, keep_state)` calls of a kernel whose state is BlockRunBuffers'
// (the block kernel, gpu-fused's cluster form): one launch when nothing is watched, else run_watched's chunks with
// the buffers' snapshot for replays.
template <typename Real, typename Launch>
void run_block_launches(RunContext<Real>& ctx, BlockRunBuffers<Real>& buf, Launch&& launch) {
    const auto& pb = ctx.dp;
    if (!ctx.watched()) {
        launch(0, static_cast<std::uint32_t>(ctx.params.iterations), nullptr, false);
        ctx.iterations = ctx.params.iterations;
        return;
    }
    run_watched(
        ctx, buf.history, launch,
        [&] {
            buf.snapshot.resize(pb.rows(), pb.dims, ctx.stream);
            copy_state(buf.snapshot, buf.state, ctx.stream);
        },
        [&] { copy_state(buf.state, buf.snapshot, ctx.stream); });
}

// The kernel for a shape: fp32 swarms of up to 256 particles in 1-6 or 8 dimensions get an unrolled
// copy (the shapes of the seeds' small benchmarks and of poses); everything else the generic one.
template <typename Real, typename Fit>
auto pick_block_kernel(int dims, int threads) {
    using Kernel = void (*)(BlockRunArgs<Real>, Fit);
    if constexpr (sizeof(Real) == sizeof(float)) {
        if (threads > 256) { // 1-D (cuPSO's cubic) keeps its unrolled copy up to 1024 particles
            return dims == 1 ? Kernel(block_swarm_kernel<Real, Fit, 1, 1024>) : Kernel(block_swarm_kernel<Real, Fit, 0>);
        }
        switch (dims) {
        case 1: return Kernel(block_swarm_kernel<Real, Fit, 1, 256>);
        case 2: return Kernel(block_swarm_kernel<Real, Fit, 2, 256>);
        case 3: return Kernel(block_swarm_kernel<Real, Fit, 3, 256>);
        case 4: return Kernel(block_swarm_kernel<Real, Fit, 4, 256>);
        case 5: return Kernel(block_swarm_kernel<Real, Fit, 5, 256>);
        case 6: return Kernel(block_swarm_kernel<Real, Fit, 6, 256>);
        case 8: return Kernel(block_swarm_kernel<Real, Fit, 8, 256>);
        default: break;
        }
    }
    return Kernel(block_swarm_kernel<Real, Fit, 0>);
}

// The register-resident, pipelined form (block_swarm_reg.cuh) for the shapes that are one warp's or
// one SM's latency per generation: fp32, global topology, a swarm of one warp in 1-6 or 8 dimensions, or
// a 1-D swarm of up to 1024 particles. Null for every other shape (the generic kernel runs them).
template <typename Real, typename Fit>
auto pick_block_reg_kernel(const DeviceProblem<Real>& pb, int threads) {
    using Kernel = void (*)(BlockRunArgs<Real>, Fit);
    if constexpr (sizeof(Real) == sizeof(float)) {
        if (pb.ring) {
            return Kernel(nullptr);
        }
        if (threads == 32) {
            switch (pb.dims) {
            case 1: return Kernel(block_swarm_reg_kernel<Fit, 1, 32>);
            case 2: return Kernel(block_swarm_reg_kernel<Fit, 2, 32>);
            case 3: return Kernel(block_swarm_reg_kernel<Fit, 3, 32>);
            case 4: return Kernel(block_swarm_reg_kernel<Fit, 4, 32>);
            case 5: return Kernel(block_swarm_reg_kernel<Fit, 5, 32>);
            case 6: return Kernel(block_swarm_reg_kernel<Fit, 6, 32>);
            case 8: return Kernel(block_swarm_reg_kernel<Fit, 8, 32>);
            default: break;
            }
        }
        if (pb.dims == 1) {
            return Kernel(block_swarm_reg_kernel<Fit, 1, 1024>);
        }
    }
    return Kernel(nullptr);
}

template <typename Real, typename Fit>
void run_block_swarms(RunContext<Real>& ctx, const Fit& fit, BlockRunBuffers<Real>& buf) {
    const auto& pb = ctx.dp;
    const int S = pb.swarms, N = pb.particles, D = pb.dims;
    const int stride = D % 2 == 1 ? D : D + 1;
    const std::size_t smem = block_swarm_shared_bytes<Real>(N, D, stride);
    const int threads = block_threads(N);
    const auto reg_kernel = pick_block_reg_kernel<Real, Fit>(pb, threads);
    const auto kernel = reg_kernel != nullptr ? reg_kernel : pick_block_kernel<Real, Fit>(D, threads);
    // The register form keeps its state in registers (its few shared arrays are static): it needs the
    // global state only to resume or keep a watched run, like the on-chip layout.
    const bool on_chip = reg_kernel != nullptr || smem + 1024 <= max_shared_optin_bytes(); // + warp_best
    const std::size_t dyn = on_chip && reg_kernel == nullptr ? smem : 0;
    if (dyn > 48 * 1024) {
        SWARM_CUDA_CHECK_THROW(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    static_cast<int>(dyn)));
    }
    if (!on_chip || ctx.watched()) {
        buf.state.resize(pb.rows(), D, ctx.stream);
    }

    BlockRunArgs<Real> a{pb, buf.state.view(), nullptr, ctx.best_f.data(), ctx.best_x.data(), 0, 0, stride,
                         on_chip, false};
    auto launch = [&](std::uint32_t first, std::uint32_t last, Real* history, bool keep) {
        a.first = first;
        a.last = last;
        a.history = history;
        a.keep_state = keep;
        kernel<<<S, threads, dyn, ctx.stream>>>(a, fit);
        SWARM_CHECK_LAUNCH(block_swarm_kernel, S, threads, dyn);
    };

    run_block_launches(ctx, buf, launch);
}

// run_block_swarms with the built-in functions (instantiated once, in gpu_sync.cu).
template <typename Real>
void run_block_builtin(RunContext<Real>& ctx, BlockRunBuffers<Real>& buf);

} // namespace swarm::gpu
