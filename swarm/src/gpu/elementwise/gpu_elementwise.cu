// gpu-elementwise: FastPSO (001). Thread per (particle x 4 dimensions) element-wise swarm update with
// per-iteration random matrices, per-particle fitness reduction, pbest/gbest update (elementwise_kernel.cuh
// has the kernel and why it is shaped so). This file is the host side: FastPSO's memory caching (every
// buffer is a member, so a second run of the same shape allocates nothing) and a cached CUDA graph that
// replays a chunk of iterations, hiding the launch gaps of many short iterations.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "gpu/core/gpu_strategy.h"
#include "gpu/elementwise/elementwise_persistent.cuh"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/detail/strategies.h"
#include "swarm/cuda/launch.h"

namespace swarm::gpu {
namespace {

using ew::k_block;

constexpr int k_graph_chunk = 32; // iterations per graph replay
// Largest swarm-best copy the persistent kernel keeps in shared memory (pitch values): 12,288 fp32 or
// 6,144 fp64 dimensions; wider rows take the per-launch path.
constexpr std::size_t k_max_persistent_smem = 48 * 1024;
// Largest shared memory a block of the staged persistent kernel may take (two blocks and their 1 KiB each
// reserved by the system fit an SM's 228 KiB),
// or the device's opt-in limit per block where that is lower (99 KiB on some parts).
std::size_t max_staged_smem() {
    const auto optin = static_cast<std::size_t>(device_attribute<cudaDevAttrMaxSharedMemoryPerBlockOptin>());
    return std::min<std::size_t>(112 * 1024, optin);
}

// Lets `kernel` take up to max_staged_smem() of dynamic shared memory (above 48 KiB needs the opt-in); once
// per kernel (variant -1: no launch query uses a negative size).
template <typename Kernel>
void allow_staged_smem(Kernel kernel) {
    cached_launch_query(kernel, ew::k_block, -1, [&] {
        SWARM_CUDA_CHECK_THROW(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    static_cast<int>(max_staged_smem())));
        return 0;
    });
}

template <typename Real>
__global__ void pad_bounds_kernel(DeviceProblem<Real> pb, int pitch, Real* lo, Real* hi, Real* vmax,
                                  ew::RunScalars<Real>* run) {
    const int s = blockIdx.x;
    for (int d = threadIdx.x; d < pitch; d += blockDim.x) {
        const std::size_t k = static_cast<std::size_t>(s) * pitch + d;
        const std::size_t src = static_cast<std::size_t>(s) * pb.dims + d;
        lo[k] = d < pb.dims ? pb.lower[src] : Real(0);
        hi[k] = d < pb.dims ? pb.upper[src] : Real(0);
        if (d < pb.dims && !ew::clamps_by_min_max(lo[k], hi[k])) run->clamp_by_min_max = false; // every writer agrees
        // No clamp (v_max <= 0, or NaN) as +infinity: the same velocities, and a clamp without that test
        // (clamp_padded_velocity).
        const Real v_max = d < pb.dims ? pb.vmax[src] : Real(0);
        vmax[k] = v_max > Real(0) ? v_max : std::numeric_limits<Real>::infinity();
    }
}

template <typename Real>
__global__ void unpad_best_kernel(int dims, int pitch, const Real* gf, const Real* gx, Real* best_f, Real* best_x) {
    const int s = blockIdx.x;
    if (threadIdx.x == 0) best_f[s] = gf[s];
    for (int d = threadIdx.x; d < dims; d += blockDim.x) {
        best_x[static_cast<std::size_t>(s) * dims + d] = gx[static_cast<std::size_t>(s) * pitch + d];
    }
}

// Calls pick(std::integral_constant<Function, F>) with F the kernel instantiation for a function:
// separable ones compiled in, the rest through the gather path (Function::Rosenbrock stands for it).
template <typename Pick>
auto by_function(Function f, Pick pick) {
    using std::integral_constant;
    switch (f) {
    case Function::Sphere: return pick(integral_constant<Function, Function::Sphere>{});
    case Function::Rastrigin: return pick(integral_constant<Function, Function::Rastrigin>{});
    case Function::Griewank: return pick(integral_constant<Function, Function::Griewank>{});
    case Function::GriewankShifted: return pick(integral_constant<Function, Function::GriewankShifted>{});
    case Function::Ackley: return pick(integral_constant<Function, Function::Ackley>{});
    case Function::EasomND: return pick(integral_constant<Function, Function::EasomND>{});
    case Function::Schwefel: return pick(integral_constant<Function, Function::Schwefel>{});
    case Function::Cubic: return pick(integral_constant<Function, Function::Cubic>{});
    case Function::Euclidean: return pick(integral_constant<Function, Function::Euclidean>{});
    default: return pick(integral_constant<Function, Function::Rosenbrock>{});
    }
}

template <typename Real>
void (*kernel_for(Function f))(ew::View<Real>) {
    return by_function(f, [](auto c) { return &ew::elementwise_kernel<decltype(c)::value, Real>; });
}

// Staged (rows through shared memory by bulk copies) exists for fp32 only: fp64 measured slower staged.
// A staged kernel always alternates (a staged state is larger than L2). Resident rows exist in both precisions
// and never alternate (nothing streams from DRAM).
template <typename Real>
void (*persistent_kernel_for(Function f, ew::Staging staging, bool alternate))(ew::View<Real>, ew::PersistentArgs) {
    using ew::Staging;
    if (!std::is_same_v<Real, float> && staging != Staging::Global && staging != Staging::Resident) {
        throw std::logic_error("gpu-elementwise: staged rows and the clamped resident kernel are fp32 only (a caller "
                               "asked for fp64)");
    }
    return by_function(f, [staging, alternate](auto c) {
        constexpr Function F = decltype(c)::value;
        if (staging == Staging::Resident) return &ew::elementwise_persistent_kernel<F, Real, Staging::Resident, false>;
        if constexpr (std::is_same_v<Real, float>) {
            if (staging == Staging::ResidentClamped) {
                return &ew::elementwise_persistent_kernel<F, Real, Staging::ResidentClamped, false>;
            }
            if (staging == Staging::ResidentClampedBox) {
                return &ew::elementwise_persistent_kernel<F, Real, Staging::ResidentClampedBox, false>;
            }
            if (staging == Staging::FlatTiles) {
                return &ew::elementwise_persistent_kernel<F, Real, Staging::FlatTiles, true>;
            }
            if (staging == Staging::RowSegments) {
                return &ew::elementwise_persistent_kernel<F, Real, Staging::RowSegments, true>;
            }
        }
        if (alternate) return &ew::elementwise_persistent_kernel<F, Real, Staging::Global, true>;
        return &ew::elementwise_persistent_kernel<F, Real, Staging::Global, false>;
    });
}

// Flat tiles at 100 dimensions (25 groups, 16 lanes per row, 5 rows fit the shared memory): 5 rows, 125 of
// 128 lane slots; at 32 dimensions the segments are already full (8 rows per warp, as update_rows).
static_assert(ew::flat_tile_rows(25, 16, 5) == 5 && ew::flat_lane_use(25, 5) > ew::segment_lane_use(25, 16) + 0.05);
static_assert(ew::flat_tile_rows(8, 4, 16) == 8 && !(ew::flat_lane_use(8, 8) > ew::segment_lane_use(8, 4)));
static_assert(ew::flat_tile_rows(9, 8, 14) == 7);   // 36 dimensions: 63 of 64 slots
static_assert(ew::flat_tile_rows(3, 2, 43) == 32);  // 12 dimensions: 96 of 96 slots, the largest tile
// The update sums the fitness terms where every one of a row's 32 fitness lanes has groups: 200 fp32 dimensions
// (50 groups), not 100 fp64 ones (25 groups, 32 lanes), nor a gathered function.
static_assert(ew::summed_in_update(Function::Sphere, 32, 50, true) && !ew::summed_in_update(Function::Sphere, 32, 25, true));
static_assert(!ew::summed_in_update(Function::Rosenbrock, 32, 50, true) && !ew::summed_in_update(Function::Sphere, 32, 50, false));

// An instantiated graph of `k_graph_chunk` launches, kept while the launch it replays stays the same.
class CachedGraph {
public:
    CachedGraph() = default;
    CachedGraph(const CachedGraph&) = delete;
    CachedGraph& operator=(const CachedGraph&) = delete;
    ~CachedGraph() { reset(); }

    template <typename Real>
    void launch(void (*kernel)(ew::View<Real>), dim3 grid, const ew::View<Real>& view, cudaStream_t stream) {
        Key key{reinterpret_cast<const void*>(kernel), grid.x, grid.y, {}};
        static_assert(sizeof(view) <= sizeof(key.view), "view fits the key");
        std::memcpy(key.view, &view, sizeof(view));
        if (!m_exec || std::memcmp(&key, &m_key, sizeof(Key)) != 0) {
            reset();
            cudaGraph_t graph = nullptr;
            SWARM_CUDA_CHECK_THROW(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
            for (int k = 0; k < k_graph_chunk; ++k) {
                kernel<<<grid, k_block, 0, stream>>>(view);
            }
            const cudaError_t launch_err = cudaGetLastError();
            const cudaError_t end_err = cudaStreamEndCapture(stream, &graph);
            SWARM_CUDA_CHECK_THROW(launch_err);
            SWARM_CUDA_CHECK_THROW(end_err);
            const cudaError_t inst = cudaGraphInstantiate(&m_exec, graph, 0);
            SWARM_CUDA_CHECK_LOG(cudaGraphDestroy(graph));
            SWARM_CUDA_CHECK_THROW(inst);
            m_key = key;
        }
        SWARM_CUDA_CHECK_THROW(cudaGraphLaunch(m_exec, stream));
    }

private:
    struct Key {
        const void* kernel;
        unsigned gx, gy;
        unsigned char view[160];
    };
    void reset() {
        if (m_exec) SWARM_CUDA_CHECK_LOG(cudaGraphExecDestroy(m_exec));
        m_exec = nullptr;
    }
    cudaGraphExec_t m_exec = nullptr;
    Key m_key{};
};

template <typename Real>
struct ElementwiseBuffers {
    GPUMemory<Real> x, v, p, pf, lo, hi, vmax, gx, gf;
    GPUMemory<ArgMin<Real>> block_best;
    GPUMemory<unsigned> done;
    GPUMemory<unsigned> readers; // persistent kernel: phase-B copy counters, 3 per swarm
    GPUMemory<unsigned long long> best_keys; // persistent kernel, fp32: packed block results, 3 per swarm
    GPUMemory<int> iteration;
    GPUMemory<ew::RunScalars<Real>> run;
    ew::RunScalars<Real> host_run{};
    CachedGraph graph;
};

class GpuElementwise final : public GpuStrategy<GpuElementwise, ElementwiseBuffers> {
public:
    GpuElementwise() : GpuStrategy(Strategy::GpuElementwise) {}

private:
    friend GpuStrategy;

    static int lanes_per_row(int groups) {
        int w = 1;
        while (w < groups && w < 32) w <<= 1;
        return w;
    }

    static bool cooperative_launch_supported() { return device_attribute<cudaDevAttrCooperativeLaunch>() != 0; }

    // Blocks of `kernel` that can be resident at once on the whole device (swarm/cuda/launch.h caches it).
    template <typename Kernel>
    static int resident_blocks(Kernel kernel, std::size_t smem) {
        const int per_sm = cached_launch_query(kernel, ew::k_block, static_cast<long long>(smem), [&] {
            int v = 0;
            SWARM_CUDA_CHECK_THROW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, ew::k_block, smem));
            return v;
        });
        return sm_count() * per_sm;
    }

    // Blocks per swarm: enough for one tile (rows_per_warp rows) per warp, no more than fit on the device.
    static int blocks_per_swarm(int resident, int particles, int rows_per_warp, int swarms) {
        const int rows_per_block = ew::k_warps * rows_per_warp;
        const int needed = (particles + rows_per_block - 1) / rows_per_block;
        return std::max(1, std::min(needed, std::max(resident, 1) / std::max(swarms, 1)));
    }

    // The resident form for a shape: blocks_per_swarm 0 where the state does not fit.
    template <typename Real>
    struct ResidentPlan {
        void (*kernel)(ew::View<Real>, ew::PersistentArgs) = nullptr;
        std::size_t smem = 0;
        int blocks_per_swarm = 0, tile_rows = 0, rows = 0;
        bool draws_ahead = false;
    };
    // Whether every iteration after the first may take the clamped resident kernel's loop, given the draws made
    // ahead (ew::Staging::ResidentClamped): fp32, the Clamp rule, no padding, and bounds that clamp by min / max in
    // every dimension of every swarm (the test pad_bounds_kernel makes on the device, on the same values); and Box
    // (ew::Staging::ResidentClampedBox) where each swarm has one interval in every dimension, whose velocity limit
    // (pso::velocity_limit of the interval) is then one too.
    enum class ClampedLoop { None, PerDimension, Box };
    template <typename Real>
    static ClampedLoop clamped_loop(const Problem& problem, const DeviceProblem<Real>& pb, int pitch) {
        if constexpr (!std::is_same_v<Real, float>) {
            return ClampedLoop::None;
        } else {
            if (pb.boundary != pso::BoundaryMode::Clamp || pb.dims != pitch) return ClampedLoop::None;
            bool box = true;
            for (int s = 0; s < pb.swarms; ++s) {
                const auto lo0 = static_cast<Real>(problem.lower_of(s, 0));
                const auto hi0 = static_cast<Real>(problem.upper_of(s, 0));
                for (int d = 0; d < pb.dims; ++d) {
                    const auto lo = static_cast<Real>(problem.lower_of(s, d));
                    const auto hi = static_cast<Real>(problem.upper_of(s, d));
                    if (!ew::clamps_by_min_max(lo, hi)) return ClampedLoop::None;
                    box = box && lo == lo0 && hi == hi0;
                }
            }
            return box ? ClampedLoop::Box : ClampedLoop::PerDimension;
        }
    }

    template <typename Real>
    static ResidentPlan<Real> resident_plan(const DeviceProblem<Real>& pb, int pitch, int width, ClampedLoop loop) {
        ResidentPlan<Real> plan;
        // As many blocks as two per SM allow, but no warp without a row; tiles as long as the warps' share
        // of rows, of the length that fills the most lanes (flat_tile_rows). Every block that fits, not only as
        // many as whole tiles need: with fewer blocks than two per SM some SMs run two blocks and others one, and
        // the grid barrier waits for the fullest; SplitTiles spreads the rows evenly over all of them
        // (docs/benchmarks.md, "Design evidence").
        const int most_blocks = sm_count() * ew::k_flat_min_blocks / std::max(pb.swarms, 1);
        if (most_blocks < 1) return plan;
        const int groups = pitch / 4;
        const int share = std::clamp((pb.particles + most_blocks * ew::k_warps - 1) / (most_blocks * ew::k_warps), 1, 32);
        const int tile = ew::flat_tile_rows(groups, width, share);
        const int blocks = std::min(most_blocks, (pb.particles + ew::k_warps - 1) / ew::k_warps);
        const int rows = ew::SplitTiles::max_rows(blocks * ew::k_warps, pb.particles, tile);
        // The next iteration's draws made at the grid barrier (ResidentTiles::draws_ahead) where a lane updates at
        // least two groups an iteration and the two arrays fit. Where a lane has one group they measured slower:
        // its update is too short to need them gone, and the barrier's wait is shorter than the draws
        // (docs/benchmarks.md, "Design evidence").
        const bool worth_drawing_ahead = static_cast<long>(rows) * groups >= 64;
        for (const bool ahead : {true, false}) {
            if (ahead && !worth_drawing_ahead) continue;
            const bool clamped = ahead && loop != ClampedLoop::None;
            const bool summed = ew::summed_in_update(pb.function, width, groups, clamped);
            const std::size_t smem =
                ew::staging_offset<Real>(pitch) + ew::resident_bytes<Real>(ew::k_warps, rows, pitch, ahead, summed);
            const ew::Staging stage = !clamped                   ? ew::Staging::Resident
                                      : loop == ClampedLoop::Box ? ew::Staging::ResidentClampedBox
                                                                 : ew::Staging::ResidentClamped;
            auto* kernel = persistent_kernel_for<Real>(pb.function, stage, false);
            allow_staged_smem(kernel);
            if (smem > max_staged_smem() || resident_blocks(kernel, smem) < blocks * pb.swarms) continue;
            plan.kernel = kernel;
            plan.smem = smem;
            plan.blocks_per_swarm = blocks;
            plan.tile_rows = tile;
            plan.rows = rows;
            plan.draws_ahead = ahead;
            return plan;
        }
        return plan;
    }

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, ElementwiseBuffers<Real>& buf) {
        const Params& pr = ctx.params;
        if (pr.topology != Topology::Global || pr.update != Update::Synchronous) {
            throw ValidationError("topology", "gpu-elementwise runs the global, synchronous PSO (FastPSO); use "
                                              "gpu-ring-* for rings or cpu-serial for asynchronous updates");
        }
        if (ctx.dp.init_focus > 0) {
            throw ValidationError("init_lower", "gpu-elementwise starts every particle over the whole bounds (FastPSO's "
                                                "random matrices); use gpu-fused, gpu-sync or a cpu-* strategy for a "
                                                "start box");
        }
        if (ctx.has_evaluator()) {
            throw ValidationError("fitness", "gpu-elementwise scores built-in functions only; use gpu-fused for a "
                                             "batched evaluator");
        }
        const auto& pb = ctx.dp;
        const int pitch = (pb.dims + 3) / 4 * 4;
        constexpr int np = ew::k_groups_per_lane<Real>;
        const int width = lanes_per_row((pitch / 4 + np - 1) / np);
        const auto S = static_cast<std::size_t>(pb.swarms);
        const std::size_t n = pb.rows() * pitch;
        cudaStream_t st = ctx.stream;

        // One cooperative launch for the whole run when nothing is watched and every block of every swarm
        // can be resident at once (elementwise_persistent.cuh); otherwise a launch per iteration.
        const bool watch = ctx.watched();
        // A state larger than L2 streams from DRAM: the one-launch kernel then walks odd iterations backward
        // (TileWalk, elementwise_kernel.cuh) and, on sm_90, may stage the rows.
        const std::size_t state_bytes = 3 * n * sizeof(Real);
        const bool over_l2 = state_bytes > static_cast<std::size_t>(device_attribute<cudaDevAttrL2CacheSize>());
        auto* persistent = persistent_kernel_for<Real>(pb.function, ew::Staging::Global, over_l2);
        int rows_per_warp = 32 / width; // a warp's tile: rows_per_warp rows
        int tile_rows = 0;              // Staging::FlatTiles only
        std::size_t persistent_smem = static_cast<std::size_t>(pitch) * sizeof(Real);
        int bps = 0;
        bool use_persistent = false;
        if (!watch && pr.iterations < INT_MAX && persistent_smem <= k_max_persistent_smem &&
            cooperative_launch_supported()) {
            int resident = resident_blocks(persistent, persistent_smem);
            // Rows staged through shared memory by bulk copies (elementwise_staging.cuh) where that pays:
            // the hardware has them (sm_90), fp32, a row is one chunk, the swarms' x, v and p do not fit in
            // L2 (they stream from DRAM, whose latency the copies hide; an L2-resident state such as
            // FastPSO's 5,000 x 200 measured slower staged), and the slots cost no resident blocks.
            // Where a row's segment leaves lanes idle (100 dims: 25 groups on 16 lanes x 2 = 78 % used), flat
            // tiles of several rows fill them (elementwise_flat_tiles.cuh; 5 rows: 125 of 128 slots).
            auto staged_smem_for = [&](int tile, bool flat) {
                const bool scratch = flat && ew::flat_scratch_rows(pb.function);
                return ew::staging_offset<Real>(pitch) + ew::staged_bytes<Real>(ew::k_warps, tile, pitch) +
                       (scratch ? ew::flat_scratch_bytes<Real>(ew::k_warps, tile, pitch) : 0);
            };
            const int groups = pitch / 4;
            int max_tile = 0;
            while (max_tile < 32 && staged_smem_for(max_tile + 1, true) <= max_staged_smem()) ++max_tile;
            const int flat_rows = ew::flat_tile_rows(groups, width, max_tile);
            const bool flat = flat_rows > 0 && ew::flat_lane_use(groups, flat_rows) >
                                                   ew::segment_lane_use(groups, width) + 0.05;
            const int staged_rows = flat ? flat_rows : 32 / width;
            const std::size_t staged_smem = staged_smem_for(staged_rows, flat);
            if (std::is_same_v<Real, float> && device_attribute<cudaDevAttrComputeCapabilityMajor>() >= 9 &&
                (groups + np - 1) / np <= 32 && staged_smem <= max_staged_smem() && over_l2) {
                auto* staged = persistent_kernel_for<Real>(
                    pb.function, flat ? ew::Staging::FlatTiles : ew::Staging::RowSegments, true);
                allow_staged_smem(staged);
                const int staged_resident = resident_blocks(staged, staged_smem);
                if (staged_resident >= resident) {
                    persistent = staged;
                    persistent_smem = staged_smem;
                    resident = staged_resident;
                    rows_per_warp = staged_rows;
                    tile_rows = flat ? flat_rows : 0;
                }
            }
            use_persistent = resident >= pb.swarms;
            bps = blocks_per_swarm(resident, pb.particles, rows_per_warp, pb.swarms);
        }
        int resident_rows = 0;    // Staging::Resident only
        bool draws_ahead = false; // Staging::Resident only
        if (use_persistent) {
            // The whole state in shared memory (Staging::Resident, elementwise_flat_tiles.cuh), where it fits:
            // no row traffic per iteration at all, which beats every streaming form (docs/benchmarks.md,
            // "Design evidence").
            const ResidentPlan<Real> kept = resident_plan<Real>(pb, pitch, width, clamped_loop(ctx.problem, pb, pitch));
            if (kept.blocks_per_swarm > 0) {
                persistent = kept.kernel;
                persistent_smem = kept.smem;
                bps = kept.blocks_per_swarm;
                tile_rows = kept.tile_rows;
                resident_rows = kept.rows;
                draws_ahead = kept.draws_ahead;
            }
        }
        auto* kernel = kernel_for<Real>(pb.function);
        if (!use_persistent) {
            bps = blocks_per_swarm(resident_blocks(kernel, 0), pb.particles, 32 / width, pb.swarms);
        }

        // Cached across runs: resize is a no-op for an unchanged shape.
        buf.x.resize(n, st);
        buf.v.resize(n, st);
        buf.p.resize(n, st);
        buf.pf.resize(pb.rows(), st);
        buf.lo.resize(S * pitch, st);
        buf.hi.resize(S * pitch, st);
        buf.vmax.resize(S * pitch, st);
        buf.gx.resize(S * pitch, st);
        buf.gf.resize(S, st);
        buf.block_best.resize(2 * S * bps, st); // the persistent kernel alternates two sets
        buf.done.resize(S + 1, st);
        buf.iteration.resize(1, st);
        buf.run.resize(1, st);
        buf.readers.resize(3 * S, st);
        buf.best_keys.resize(3 * S, st);

        buf.host_run = {pb.k, pb.sign, pb.v_fraction, pb.seed, pb.boundary, pb.function, true}; // see pad_bounds_kernel
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(buf.run.data(), &buf.host_run, sizeof(buf.host_run),
                                               cudaMemcpyHostToDevice, st));
        buf.done.memset(0, st);
        buf.iteration.memset(0, st);
        buf.readers.memset(0, st);
        buf.best_keys.memset(0xff, st);
        pad_bounds_kernel<Real>
            <<<pb.swarms, 128, 0, st>>>(pb, pitch, buf.lo.data(), buf.hi.data(), buf.vmax.data(), buf.run.data());
        SWARM_CHECK_LAUNCH(pad_bounds_kernel, pb.swarms, 128, 0);

        ew::View<Real> view{pb.swarms,      pb.particles,     pb.dims,           pitch,          width,
                            buf.x.data(),   buf.v.data(),     buf.p.data(),      buf.pf.data(),  buf.lo.data(),
                            buf.hi.data(),  buf.vmax.data(),  buf.gx.data(),     buf.gf.data(),  buf.block_best.data(),
                            buf.done.data(), buf.iteration.data(), buf.run.data()};
        const dim3 grid(static_cast<unsigned>(bps), static_cast<unsigned>(pb.swarms));

        if (use_persistent) {
            ew::PersistentArgs args{buf.readers.data(), buf.best_keys.data(), static_cast<int>(pr.iterations), tile_rows,
                                    resident_rows, draws_ahead};
            void* params[] = {&view, &args};
            SWARM_CUDA_CHECK_THROW(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent), grid,
                                                               dim3(k_block), params, persistent_smem, st));
            SWARM_CHECK_LAUNCH(elementwise_persistent_kernel, grid, k_block, persistent_smem);
            ctx.after_iteration(pr.iterations, buf.gf.data());
        } else {
            auto launch_one = [&] {
                kernel<<<grid, k_block, 0, st>>>(view);
                SWARM_CHECK_LAUNCH(elementwise_kernel, grid, k_block, 0);
            };
            launch_one(); // t = 0: initialise and evaluate
            if (watch) {
                for (long long t = 1;; ++t) {
                    launch_one();
                    if (ctx.after_iteration(t, buf.gf.data())) break;
                }
            } else {
                long long t = 0;
                for (; t + k_graph_chunk <= pr.iterations; t += k_graph_chunk) {
                    buf.graph.launch(kernel, grid, view, st);
                }
                for (; t < pr.iterations; ++t) {
                    launch_one();
                }
                ctx.after_iteration(pr.iterations, buf.gf.data());
            }
        }
        unpad_best_kernel<Real><<<pb.swarms, 128, 0, st>>>(pb.dims, pitch, buf.gf.data(), buf.gx.data(),
                                                            ctx.best_f.data(), ctx.best_x.data());
        SWARM_CHECK_LAUNCH(unpad_best_kernel, pb.swarms, 128, 0);
    }
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_elementwise() { return std::make_unique<GpuElementwise>(); }

} // namespace swarm::gpu
