#pragma once
// Custom fitness functions compiled into the PSO kernels (FastPSO's schema, 001 §3.3: a template kernel
// calling the user's functor). The only public header that needs nvcc (--extended-lambda for lambdas);
// link the CMake target `swarm_cuda_custom`.
//
//   struct Shifted {                       // any copyable functor, callable on host and device
//       float c;
//       template <typename Real>
//       __host__ __device__ Real operator()(const Real* x, int dims) const { ... }
//   };
//   swarm::Result r = swarm::cuda::optimize(problem, params, Shifted{3.0f});          // gpu-fused
//   swarm::Result s = swarm::cuda::optimize(problem, params, Shifted{3.0f}, swarm::Strategy::GpuSync);
//   problem.host_function = swarm::cuda::host_function(Shifted{3.0f});                // for cpu-serial
//
// Warp-cooperative functors (a pose fitness that samples hundreds of points, the tracker's): declare
// `static constexpr bool warp_cooperative = true;` (optionally `static constexpr int team_warps = N;`) and
// `__device__ Real operator()(const Real* x, int dims, int swarm, const swarm::cuda::Team& team) const`;
// every thread of the particle's team (team.size = 32 * N threads, team.rank, team.sync()) calls it for the
// same row and rank 0's return value counts. gpu-fused then runs a team per particle in one launch
// (swarm/cuda/detail/grid_warp_swarm.cuh): each swarm a thread-block cluster on Hopper and later, else one cooperative grid.
// FunctorOptimizer keeps the device buffers between runs (one run per video frame) and can hand back the
// final particle positions.
//
// The functor returns the plain value; problem.goal says whether it is minimised or maximised, and
// problem.dims / bounds / known_optimum mean what they mean for built-in functions (problem.function is
// ignored). Extended __device__ lambdas work too (`[] __device__ (const float* x, int d) { ... }`) with
// fp32; they cannot run on the host, so use a __host__ __device__ lambda or a functor to compare with
// cpu-serial. A functor that only takes `const float*` runs fp32 only; fp64 then fails with a
// ValidationError naming `precision`.
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "swarm/cuda/detail/block_swarm_run.cuh"
#include "swarm/cuda/detail/fused_plan.h"
#include "swarm/cuda/detail/grid_swarm_run.cuh"
#include "swarm/cuda/detail/strategies.h"
#include "swarm/optimizer.h"

namespace swarm::cuda {

using Team = gpu::Team; // the threads scoring one particle, for warp-cooperative functors

namespace detail {

#if defined(__CUDACC_EXTENDED_LAMBDA__)
template <typename F>
inline constexpr bool device_lambda_v = __nv_is_extended_device_lambda_closure_type(F);
#else
template <typename F>
inline constexpr bool device_lambda_v = false;
#endif

// Whether F is a warp-cooperative functor (F::warp_cooperative is true).
template <typename F, typename = void>
struct warp_functor : std::false_type {};
template <typename F>
struct warp_functor<F, std::void_t<decltype(F::warp_cooperative)>> : std::bool_constant<F::warp_cooperative> {};
template <typename F>
inline constexpr bool warp_functor_v = warp_functor<F>::value;

// Whether the functor scores `const Real*` rows. Extended __device__ lambdas are opaque on the host
// pass, so they are taken to be fp32.
template <typename F, typename Real>
inline constexpr bool accepts_v = device_lambda_v<F> ? std::is_same_v<Real, float>
                                  : warp_functor_v<F> ? std::is_invocable_v<const F&, const Real*, int, int, const gpu::Team&>
                                                      : std::is_invocable_v<const F&, const Real*, int>;

template <typename F>
class CustomOptimizer final : public gpu::GpuPsoOptimizer {
public:
    CustomOptimizer(Strategy s, F f) : GpuPsoOptimizer(s) { m_f.emplace(std::move(f)); }
    // The next run's functor (closures cannot be assigned, so it is re-made in place).
    void set_functor(F f) { m_f.emplace(std::move(f)); }
    // Warp functors: let each swarm be a thread-block cluster where the device has them (default), or always
    // use the cooperative grid barrier; and whether the last run used clusters.
    void set_cluster_barrier(bool allowed) { m_allow_cluster = allowed; }
    bool used_cluster_barrier() const { return m_cluster_ran; }
    // Positions after the last run's final generation (rows x dims), from the grid kernels' buffers.
    std::vector<float> positions() const {
        if (!m_grid_ran) {
            return {};
        }
        return m_f32.grid.x.to_host(stream());
    }

protected:
    void solve(gpu::RunContext<float>& ctx) override { solve_impl(ctx, m_f32); }
    void solve(gpu::RunContext<double>& ctx) override { solve_impl(ctx, m_f64); }

private:
    template <typename Real>
    struct Buffers {
        gpu::BlockRunBuffers<Real> block;
        gpu::GridRunBuffers<Real> grid;
    };

    template <typename Real>
    void solve_impl(gpu::RunContext<Real>& ctx, Buffers<Real>& buf) {
        if constexpr (!accepts_v<F, Real>) {
            throw ValidationError("precision", "the custom fitness functor does not take const double*; use "
                                               "fp32 or give it a templated operator()");
        } else {
            m_grid_ran = false;
            m_cluster_ran = false;
            if constexpr (warp_functor_v<F>) {
                solve_warp(ctx, buf);
            } else {
                solve_plain(ctx, buf);
            }
        }
    }

    template <typename Real>
    void solve_warp(gpu::RunContext<Real>& ctx, Buffers<Real>& buf) {
        if (strategy() != Strategy::GpuFused || ctx.params.update != Update::Synchronous) {
            throw ValidationError("strategy", "a warp-cooperative functor runs with gpu-fused and the "
                                              "synchronous update only");
        }
        const gpu::SignedWarpFitness<Real, F> fit{*m_f, ctx.dp.sign};
        m_cluster_ran = gpu::run_grid_warp_swarms(ctx, fit, buf.grid, m_allow_cluster);
        m_grid_ran = sizeof(Real) == sizeof(float);
    }

    template <typename Real>
    void solve_plain(gpu::RunContext<Real>& ctx, Buffers<Real>& buf) {
        const gpu::SignedFitness<Real, F> fit{*m_f, ctx.dp.sign};
        if (strategy() == Strategy::GpuSync) {
            gpu::check_sync_shape(ctx.params, false);
            gpu::run_block_swarms(ctx, fit, buf.block);
            return;
        }
        if (ctx.params.update != Update::Synchronous) {
            throw ValidationError("update", "gpu-fused runs the synchronous PSO; use cpu-serial with "
                                            "swarm::cuda::host_function for asynchronous updates");
        }
        const auto plan = gpu::fused_plan(ctx.params, ctx.problem.dims, false, true); // no GridPhases for functors
        if (plan == gpu::FusedPlan::Grid) {
            gpu::run_grid_swarms(ctx, fit, buf.grid);
            m_grid_ran = sizeof(Real) == sizeof(float);
        } else {
            gpu::run_block_swarms(ctx, fit, buf.block);
        }
    }

    std::optional<F> m_f;
    Buffers<float> m_f32;
    Buffers<double> m_f64;
    bool m_grid_ran = false;
    bool m_allow_cluster = true;
    bool m_cluster_ran = false;
};

inline void check_functor_strategy(Strategy strategy) {
    if (strategy != Strategy::GpuFused && strategy != Strategy::GpuSync) {
        throw ValidationError("strategy", std::string(to_string(strategy)) +
                                              " cannot inline a custom functor; use gpu-fused or gpu-sync");
    }
}

inline void check_functor_problem(const Problem& problem) {
    if (problem.evaluator) {
        throw ValidationError("fitness", "a problem with a batched evaluator cannot also take a functor; pick one");
    }
}

} // namespace detail

// A gpu-fused (or gpu-sync) optimizer for one functor type that keeps its device buffers from run to run,
// for callers that run the same shape often with a new functor value each time (the tracker: one run
// per video frame, the frame's textures and masks in the functor).
template <typename F>
class FunctorOptimizer {
public:
    explicit FunctorOptimizer(Strategy strategy = Strategy::GpuFused)
        : m_strategy(strategy == Strategy::Auto ? Strategy::GpuFused : strategy) {
        detail::check_functor_strategy(m_strategy);
    }

    Result run(const Problem& problem, const Params& params, F functor) {
        detail::check_functor_problem(problem);
        if (!m_opt) {
            m_opt = std::make_unique<detail::CustomOptimizer<F>>(m_strategy, std::move(functor));
            m_opt->set_cluster_barrier(m_allow_cluster);
            m_opt->set_stream(m_stream);
        } else {
            m_opt->set_functor(std::move(functor));
        }
        Problem p = problem;
        p.host_function = nullptr;
        return m_opt->run(p, params);
    }

    // Warp functors: each swarm a thread-block cluster with its own barrier where the device (compute
    // capability 9.0+) and build have them and a swarm fits one cluster (default), or always one cooperative
    // grid with the grid barrier (`false`; the trajectory is the same). Whether the last run used clusters.
    void set_cluster_barrier(bool allowed) {
        m_allow_cluster = allowed;
        if (m_opt) {
            m_opt->set_cluster_barrier(allowed);
        }
    }
    bool used_cluster_barrier() const { return m_opt && m_opt->used_cluster_barrier(); }

    // Runs on the caller's stream, after the work queued there (a tracker's frame preprocessing), instead of a
    // stream of each run's own; null restores that default.
    void set_stream(cudaStream_t stream) {
        m_stream = stream;
        if (m_opt) {
            m_opt->set_stream(stream);
        }
    }

    // fp32 positions of every particle after the last run's final generation (swarm-major rows x dims),
    // when that run used a grid kernel (warp functors always do); empty otherwise.
    std::vector<float> positions() const { return m_opt ? m_opt->positions() : std::vector<float>{}; }

private:
    Strategy m_strategy;
    bool m_allow_cluster = true;
    cudaStream_t m_stream = nullptr;
    std::unique_ptr<detail::CustomOptimizer<F>> m_opt;
};

// Runs `functor` as the fitness of `problem` with gpu-fused (default, or Strategy::Auto) or gpu-sync,
// the functor inlined into the kernel. Throws ValidationError for any other strategy, UnavailableError
// without a device.
template <typename F>
Result optimize(const Problem& problem, const Params& params, F functor, Strategy strategy = Strategy::GpuFused) {
    if (strategy == Strategy::Auto) {
        strategy = Strategy::GpuFused;
    }
    detail::check_functor_strategy(strategy);
    detail::check_functor_problem(problem);
    Problem p = problem;
    p.host_function = nullptr; // the functor is the fitness here; a host copy may be set for cpu-serial
    detail::CustomOptimizer<F> opt(strategy, std::move(functor));
    return opt.run(p, params);
}

// The same functor as a Problem::host_function, to run it with cpu-serial / cpu-parallel.
template <typename F>
std::function<double(const double*, int)> host_function(F functor) {
    static_assert(!detail::warp_functor_v<F>, "a warp-cooperative functor runs on the GPU only");
    static_assert(!detail::device_lambda_v<F>, "an extended __device__ lambda cannot run on the host; "
                                               "use a __host__ __device__ lambda or a functor");
    return [f = std::move(functor)](const double* x, int dims) -> double {
        if constexpr (std::is_invocable_v<const F&, const double*, int>) {
            return static_cast<double>(f(x, dims));
        } else {
            const std::vector<float> row(x, x + dims);
            return static_cast<double>(f(row.data(), dims));
        }
    };
}

} // namespace swarm::cuda
