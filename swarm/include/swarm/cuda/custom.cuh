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
// The functor returns the plain value; problem.goal says whether it is minimised or maximised, and
// problem.dims / bounds / known_optimum mean what they mean for built-in functions (problem.function is
// ignored). Extended __device__ lambdas work too (`[] __device__ (const float* x, int d) { ... }`) with
// fp32; they cannot run on the host, so use a __host__ __device__ lambda or a functor to compare with
// cpu-serial. A functor that only takes `const float*` runs fp32 only; fp64 then fails with a
// ValidationError naming `precision`.
#include <functional>
#include <type_traits>
#include <vector>

#include "gpu/block_swarm_run.cuh"
#include "gpu/fused_plan.h"
#include "gpu/grid_swarm_run.cuh"
#include "gpu/strategies.h"
#include "swarm/optimizer.h"

namespace swarm::cuda {

namespace detail {

#if defined(__CUDACC_EXTENDED_LAMBDA__)
template <typename F>
inline constexpr bool device_lambda_v = __nv_is_extended_device_lambda_closure_type(F);
#else
template <typename F>
inline constexpr bool device_lambda_v = false;
#endif

// Whether the functor scores `const Real*` rows. Extended __device__ lambdas are opaque on the host
// pass, so they are taken to be fp32.
template <typename F, typename Real>
inline constexpr bool accepts_v = device_lambda_v<F> ? std::is_same_v<Real, float>
                                                     : std::is_invocable_v<const F&, const Real*, int>;

template <typename F>
class CustomOptimizer final : public gpu::GpuPsoOptimizer {
public:
    CustomOptimizer(Strategy s, F f) : GpuPsoOptimizer(s), m_f(std::move(f)) {}

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
            const gpu::SignedFitness<Real, F> fit{m_f, ctx.dp.sign};
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
            } else {
                gpu::run_block_swarms(ctx, fit, buf.block);
            }
        }
    }

    F m_f;
    Buffers<float> m_f32;
    Buffers<double> m_f64;
};

} // namespace detail

// Runs `functor` as the fitness of `problem` with gpu-fused (default, or Strategy::Auto) or gpu-sync,
// the functor inlined into the kernel. Throws ValidationError for any other strategy, UnavailableError
// without a device.
template <typename F>
Result optimize(const Problem& problem, const Params& params, F functor, Strategy strategy = Strategy::GpuFused) {
    if (strategy == Strategy::Auto) {
        strategy = Strategy::GpuFused;
    }
    if (strategy != Strategy::GpuFused && strategy != Strategy::GpuSync) {
        throw ValidationError("strategy", std::string(to_string(strategy)) +
                                              " cannot inline a custom functor; use gpu-fused or gpu-sync");
    }
    if (problem.evaluator) {
        throw ValidationError("fitness", "a problem with a batched evaluator cannot also take a functor; pick one");
    }
    Problem p = problem;
    p.host_function = nullptr; // the functor is the fitness here; a host copy may be set for cpu-serial
    detail::CustomOptimizer<F> opt(strategy, std::move(functor));
    return opt.run(p, params);
}

// The same functor as a Problem::host_function, to run it with cpu-serial / cpu-parallel.
template <typename F>
std::function<double(const double*, int)> host_function(F functor) {
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
