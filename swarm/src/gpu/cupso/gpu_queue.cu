// cuPSO's (000) queue designs for the global best.
//
// gpu-queue (000 §4.1, Algorithm 2): improvements of the global best are rare, so instead of reducing
// every particle, the threads whose new fitness beats the current global best push (fitness, particle
// index) into a shared-memory queue with atomicAdd; thread 0 scans the queue linearly and writes the
// block's candidate to aux arrays. A second launch does the same over the aux arrays of each swarm and
// publishes the new global best. Two launches per iteration. The queue holds the particle index, not
// its position (the paper's §5.3 advice for high dimensions), and the position is fetched afterwards.
//
// gpu-queue-lock (000 §4.2, Algorithm 3): one fused launch per iteration. After its queue scan, thread 0
// of each block takes a spin lock in global memory (atomicCAS), publishes its candidate if it beats the
// global best, fences, and releases (atomicExch). The paper's blocks publish into the very global best
// that slower blocks are still reading, which makes it asynchronous. Here the lock guards one of two
// slots per swarm: blocks read the slot published by the previous iteration and write the other one (the
// first writer of an iteration seeds it from the previous slot), so the result is the synchronous PSO
// of the reference, with the paper's queue, lock and single launch unchanged.
//
// Both are exact: a particle can become the global best only by beating the current one, and the
// queue scan and lock comparisons use the reference's (fitness, index) order.
//
// Blocks are sized to the swarm (threads_for), and an unwatched run's launches go out as CUDA graphs
// (iteration_graph.cuh): the GPU runs the paper's launches without a host issuing each one.
#include "gpu/core/gpu_strategy.h"
#include "gpu/cupso/global_sync_check.h"
#include "gpu/cupso/iteration_graph.cuh"
#include "gpu/cupso/thread_per_particle.cuh"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/detail/strategies.h"
#include "swarm/cuda/detail/swarm_state.h"

namespace swarm::gpu {
namespace {

// ThreadsPerBlock of the authors' code (000, repo default).
constexpr int k_block = 1024;

template <typename Real>
__device__ __forceinline__ bool beats(ArgMin<Real> a, ArgMin<Real> b) {
    return pso::better(a.f, a.row, b.f, b.row);
}

// Algorithm 2 lines 1-4 and 6-16: push if better than `g`, then thread 0 scans. Result valid in thread 0.
template <typename Real>
__device__ __forceinline__ ArgMin<Real> queue_best(bool push, ArgMin<Real> mine, ArgMin<Real>* queue, unsigned& num) {
    if (push) {
        const unsigned q = atomicAdd(&num, 1u);
        queue[q] = mine;
    }
    __syncthreads();
    ArgMin<Real> b = no_best<Real>();
    if (threadIdx.x == 0) {
        for (unsigned j = 0; j < num; ++j) {
            b = better_of(b, queue[j]);
        }
    }
    return b;
}

// ---- gpu-queue ---------------------------------------------------------------------------------------

template <typename Real>
__global__ void __launch_bounds__(k_block) queue_step_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                             const Real* gbest_f, const int* gbest_row,
                                                             const Real* gbest_x, ArgMin<Real>* aux,
                                                             IterationClock clock) {
    __shared__ ArgMin<Real> queue[k_block];
    __shared__ unsigned num;
    const std::uint32_t t = clock.now();
    if (threadIdx.x == 0) num = 0;
    __syncthreads();
    const int s = blockIdx.y;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const ArgMin<Real> g = t == 0 ? no_best<Real>() : ArgMin<Real>{gbest_f[s], gbest_row[s]};
    ArgMin<Real> mine = no_best<Real>();
    if (i < pb.particles) {
        const std::size_t r = static_cast<std::size_t>(s) * pb.particles + i;
        mine = {particle_step(pb, st, r, gbest_x + static_cast<std::size_t>(s) * pb.dims, t), static_cast<int>(r)};
    }
    const ArgMin<Real> b = queue_best(i < pb.particles && beats(mine, g), mine, queue, num);
    if (threadIdx.x == 0) {
        aux[static_cast<std::size_t>(s) * gridDim.x + blockIdx.x] = b; // empty queue: the "INT_MIN" sentinel
    }
}

// One block per swarm: the same queue over the aux entries (each thread pre-filters its share, so the
// queue never holds more than one entry per thread), then the new best's position is fetched.
template <typename Real>
__global__ void __launch_bounds__(k_block)
    queue_swarm_kernel(DeviceProblem<Real> pb, StateView<Real> st, const ArgMin<Real>* aux, int blocks_per_swarm,
                       Real* gbest_f, int* gbest_row, Real* gbest_x, IterationClock clock) {
    __shared__ ArgMin<Real> queue[k_block];
    __shared__ unsigned num;
    __shared__ int new_row;
    const std::uint32_t t = clock.now();
    if (threadIdx.x == 0) num = 0;
    __syncthreads();
    const int s = blockIdx.x;
    const ArgMin<Real> g = t == 0 ? no_best<Real>() : ArgMin<Real>{gbest_f[s], gbest_row[s]};
    ArgMin<Real> mine = no_best<Real>();
    for (int b = threadIdx.x; b < blocks_per_swarm; b += blockDim.x) {
        mine = better_of(mine, aux[static_cast<std::size_t>(s) * blocks_per_swarm + b]);
    }
    const ArgMin<Real> b = queue_best(beats(mine, g), mine, queue, num);
    if (threadIdx.x == 0) {
        new_row = num > 0 ? b.row : -1;
        if (num > 0) {
            gbest_f[s] = b.f;
            gbest_row[s] = b.row;
        }
    }
    __syncthreads();
    if (new_row >= 0) {
        for (int d = threadIdx.x; d < pb.dims; d += blockDim.x) {
            gbest_x[static_cast<std::size_t>(s) * pb.dims + d] = st.p[static_cast<std::size_t>(new_row) * pb.dims + d];
        }
    }
}

// ---- gpu-queue-lock ----------------------------------------------------------------------------------

// Two global-best slots per swarm, index slot * swarms + s. `stamp` is the iteration that last wrote the
// slot; the slot with the larger stamp below the current iteration is the one to read.
template <typename Real>
struct LockedBest {
    Real* f;
    int* row;
    int* stamp;
    Real* x; // (2 * swarms) x dims
    int* lock; // one per swarm
};

__device__ __forceinline__ int read_slot(const int* stamp, int swarms, int s, int t) {
    // Volatile: another block of this launch may be re-stamping the other slot to t right now; either
    // value it can see (its old stamp, or t) leaves this choice unchanged.
    const int a = *static_cast<const volatile int*>(stamp + s);
    const int b = *static_cast<const volatile int*>(stamp + swarms + s);
    if (a >= t) return 1;
    if (b >= t) return 0;
    return a > b ? 0 : 1;
}

template <typename Real>
__global__ void reset_lock_kernel(LockedBest<Real> lb, int swarms) {
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < swarms) {
        lb.stamp[s] = -2;
        lb.stamp[swarms + s] = -1;
        lb.f[swarms + s] = worst_fitness<Real>();
        lb.row[swarms + s] = INT_MAX;
        lb.lock[s] = 0;
    }
}

template <typename Real>
__global__ void __launch_bounds__(k_block) queue_lock_kernel(DeviceProblem<Real> pb, StateView<Real> st,
                                                             LockedBest<Real> lb, IterationClock clock) {
    __shared__ ArgMin<Real> queue[k_block];
    __shared__ unsigned num;
    const auto t = static_cast<int>(clock.now()); // below 2^30 (solve_impl checks)
    const int s = blockIdx.y;
    if (threadIdx.x == 0) num = 0;
    // Every thread picks the slot itself (read_slot gives all the same answer), so the particle's loads need not
    // wait for a barrier behind one thread's reads; the barrier before the queue makes num's reset visible.
    const int cur = read_slot(lb.stamp, pb.swarms, s, t);
    const int ci = cur * pb.swarms + s;
    const ArgMin<Real> g = t == 0 ? no_best<Real>() : ArgMin<Real>{lb.f[ci], lb.row[ci]};
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    ArgMin<Real> mine = no_best<Real>();
    if (i < pb.particles) {
        const std::size_t r = static_cast<std::size_t>(s) * pb.particles + i;
        const Real* gx = lb.x + static_cast<std::size_t>(ci) * pb.dims;
        mine = {particle_step(pb, st, r, gx, static_cast<std::uint32_t>(t)), static_cast<int>(r)};
    }
    __syncthreads();
    const ArgMin<Real> b = queue_best(i < pb.particles && beats(mine, g), mine, queue, num);
    if (threadIdx.x == 0 && num > 0) {
        // Algorithm 3: spin lock, publish if better, fence, release.
        while (atomicCAS(lb.lock + s, 0, 1) != 0) {
        }
        const int ti = (1 - cur) * pb.swarms + s;
        volatile Real* vf = lb.f;
        volatile int* vrow = lb.row;
        volatile int* vstamp = lb.stamp;
        volatile Real* vx = lb.x;
        if (vstamp[ti] != t) { // first publisher of this iteration seeds the slot with the previous best
            vf[ti] = vf[ci];
            vrow[ti] = vrow[ci];
            for (int d = 0; d < pb.dims; ++d) {
                vx[static_cast<std::size_t>(ti) * pb.dims + d] = vx[static_cast<std::size_t>(ci) * pb.dims + d];
            }
            __threadfence();
            vstamp[ti] = t;
        }
        if (pso::better(b.f, b.row, vf[ti], vrow[ti])) {
            vf[ti] = b.f;
            vrow[ti] = b.row;
            for (int d = 0; d < pb.dims; ++d) {
                vx[static_cast<std::size_t>(ti) * pb.dims + d] = st.p[static_cast<std::size_t>(b.row) * pb.dims + d];
            }
        }
        __threadfence();
        atomicExch(lb.lock + s, 0);
    }
}

// Copies the slot current after iteration t into the run's outputs (positions only when asked).
template <typename Real>
__global__ void publish_kernel(LockedBest<Real> lb, int swarms, int dims, int t, Real* best_f, Real* best_x,
                               bool positions) {
    const int s = blockIdx.x;
    const int ci = read_slot(lb.stamp, swarms, s, t + 1) * swarms + s;
    if (threadIdx.x == 0) best_f[s] = lb.f[ci];
    if (positions) {
        for (int d = threadIdx.x; d < dims; d += blockDim.x) {
            best_x[static_cast<std::size_t>(s) * dims + d] = lb.x[static_cast<std::size_t>(ci) * dims + d];
        }
    }
}

template <typename Real>
struct QueueBuffers {
    SwarmState<Real> state;
    GPUMemory<ArgMin<Real>> aux;
    GPUMemory<int> best_row;
    IterationGraph graph;
};

class GpuQueue final : public GpuStrategy<GpuQueue, QueueBuffers> {
public:
    GpuQueue() : GpuStrategy(Strategy::GpuQueue) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, QueueBuffers<Real>& buf) {
        require_global_synchronous_builtin(ctx, "gpu-queue");
        const auto& pb = ctx.dp;
        const int threads = threads_for(pb.particles, k_block, false);
        const int bps = (pb.particles + threads - 1) / threads;
        const int swarm_threads = threads_for(bps, k_block, false);
        buf.state.resize(pb.rows(), pb.dims, ctx.stream);
        buf.aux.resize(static_cast<std::size_t>(bps) * pb.swarms, ctx.stream);
        buf.best_row.resize(static_cast<std::size_t>(pb.swarms), ctx.stream);
        const dim3 grid(static_cast<unsigned>(bps), static_cast<unsigned>(pb.swarms));
        const StateView<Real> view = buf.state.view();
        auto launch = [&](IterationClock clock) {
            queue_step_kernel<Real><<<grid, threads, 0, ctx.stream>>>(pb, view, ctx.best_f.data(), buf.best_row.data(),
                                                                      ctx.best_x.data(), buf.aux.data(), clock);
            SWARM_CHECK_LAUNCH(queue_step_kernel, grid, threads, 0);
            queue_swarm_kernel<Real><<<pb.swarms, swarm_threads, 0, ctx.stream>>>(
                pb, view, buf.aux.data(), bps, ctx.best_f.data(), buf.best_row.data(), ctx.best_x.data(), clock);
            SWARM_CHECK_LAUNCH(queue_swarm_kernel, pb.swarms, swarm_threads, 0);
        };
        const struct Key {
            DeviceProblem<Real> pb;
            StateView<Real> view;
            const Real* best_f;
            const Real* best_x;
            const void* aux;
            const int* best_row;
            dim3 grid;
            int threads, swarm_threads;
        } key{pb, view, ctx.best_f.data(), ctx.best_x.data(), buf.aux.data(), buf.best_row.data(), grid, threads,
              swarm_threads};
        run_iterations(ctx, buf.graph, key, launch);
    }
};

template <typename Real>
struct QueueLockBuffers {
    SwarmState<Real> state;
    GPUMemory<Real> f, x;
    GPUMemory<int> row, stamp, lock;
    IterationGraph graph;
    LockedBest<Real> view() { return {f.data(), row.data(), stamp.data(), x.data(), lock.data()}; }
};

class GpuQueueLock final : public GpuStrategy<GpuQueueLock, QueueLockBuffers> {
public:
    GpuQueueLock() : GpuStrategy(Strategy::GpuQueueLock) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, QueueLockBuffers<Real>& buf) {
        require_global_synchronous_builtin(ctx, "gpu-queue-lock");
        const auto& pb = ctx.dp;
        if (ctx.params.iterations >= (1LL << 30)) {
            throw ValidationError("iterations", "gpu-queue-lock stamps slots with 31-bit iteration numbers; use "
                                                "fewer than 2^30 iterations");
        }
        const int threads = threads_for(pb.particles, k_block, false);
        const int bps = (pb.particles + threads - 1) / threads;
        const auto S = static_cast<std::size_t>(pb.swarms);
        buf.state.resize(pb.rows(), pb.dims, ctx.stream);
        buf.f.resize(2 * S, ctx.stream);
        buf.row.resize(2 * S, ctx.stream);
        buf.stamp.resize(2 * S, ctx.stream);
        buf.lock.resize(S, ctx.stream);
        buf.x.resize(2 * S * pb.dims, ctx.stream);
        const auto lb = buf.view();
        const unsigned rb = static_cast<unsigned>((S + 255) / 256);
        reset_lock_kernel<Real><<<rb, 256, 0, ctx.stream>>>(lb, pb.swarms);
        SWARM_CHECK_LAUNCH(reset_lock_kernel, rb, 256, 0);
        const bool per_iteration = ctx.watched();
        const dim3 grid(static_cast<unsigned>(bps), static_cast<unsigned>(pb.swarms));
        const StateView<Real> view = buf.state.view();
        auto launch = [&](IterationClock clock) {
            queue_lock_kernel<Real><<<grid, threads, 0, ctx.stream>>>(pb, view, lb, clock);
            SWARM_CHECK_LAUNCH(queue_lock_kernel, grid, threads, 0);
        };
        long long t = 0;
        launch(IterationClock{nullptr, 0});
        if (per_iteration) {
            for (t = 1;; ++t) {
                launch(IterationClock{nullptr, static_cast<std::uint32_t>(t)});
                publish_kernel<Real><<<pb.swarms, 32, 0, ctx.stream>>>(lb, pb.swarms, pb.dims, static_cast<int>(t),
                                                                       ctx.best_f.data(), ctx.best_x.data(), false);
                SWARM_CHECK_LAUNCH(publish_kernel, pb.swarms, 32, 0);
                if (ctx.after_iteration(t, ctx.best_f.data())) {
                    break;
                }
            }
        } else {
            t = ctx.params.iterations;
            const struct Key {
                DeviceProblem<Real> pb;
                StateView<Real> view;
                LockedBest<Real> lb;
                dim3 grid;
                int threads;
            } key{pb, view, lb, grid, threads};
            buf.graph.run(ctx.stream, 1, t, &key, sizeof(key), launch);
            ctx.after_iteration(t, ctx.best_f.data());
        }
        publish_kernel<Real><<<pb.swarms, 128, 0, ctx.stream>>>(lb, pb.swarms, pb.dims, static_cast<int>(t),
                                                                ctx.best_f.data(), ctx.best_x.data(), true);
        SWARM_CHECK_LAUNCH(publish_kernel, pb.swarms, 128, 0);
    }
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_queue() { return std::make_unique<GpuQueue>(); }
std::unique_ptr<Optimizer> make_gpu_queue_lock() { return std::make_unique<GpuQueueLock>(); }

} // namespace swarm::gpu
