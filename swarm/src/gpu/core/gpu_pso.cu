#include "swarm/cuda/detail/gpu_pso.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "registry.h"

namespace swarm::gpu {

template <typename Real>
DeviceProblem<Real> upload_problem(const Problem& problem, const Params& params, GPUMemory<Real>& lower,
                                   GPUMemory<Real>& upper, GPUMemory<Real>& vmax, GPUMemory<Real>& init_lower,
                                   GPUMemory<Real>& init_upper, cudaStream_t stream) {
    const int S = params.swarms, D = problem.dims;
    const bool start_box = !problem.init_lower.empty();
    std::vector<Real> lo(static_cast<std::size_t>(S) * D), hi(lo.size()), vm(lo.size());
    std::vector<Real> ilo(start_box ? lo.size() : 0), ihi(ilo.size());
    for (int s = 0; s < S; ++s) {
        for (int d = 0; d < D; ++d) {
            const std::size_t k = static_cast<std::size_t>(s) * D + d;
            lo[k] = static_cast<Real>(problem.lower_of(s, d));
            hi[k] = static_cast<Real>(problem.upper_of(s, d));
            vm[k] = pso::velocity_limit<Real>(lo[k], hi[k], static_cast<Real>(params.v_max_fraction));
            if (start_box) {
                ilo[k] = static_cast<Real>(problem.init_lower_of(s, d));
                ihi[k] = static_cast<Real>(problem.init_upper_of(s, d));
            }
        }
    }
    lower.copy_from_host(lo, stream);
    upper.copy_from_host(hi, stream);
    vmax.copy_from_host(vm, stream);
    if (start_box) {
        init_lower.copy_from_host(ilo, stream);
        init_upper.copy_from_host(ihi, stream);
    }
    // The host vectors die at return: make the copies complete first.
    SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));

    DeviceProblem<Real> dp;
    dp.swarms = S;
    dp.particles = params.particles;
    dp.dims = D;
    dp.lower = lower.data();
    dp.upper = upper.data();
    dp.vmax = vmax.data();
    dp.init_lower = start_box ? init_lower.data() : lower.data();
    dp.init_upper = start_box ? init_upper.data() : upper.data();
    dp.init_focus = problem.init_focus(params.particles);
    dp.function = problem.function;
    dp.sign = problem.goal == Goal::Maximise ? Real(-1) : Real(1);
    dp.k = {static_cast<Real>(params.w), static_cast<Real>(params.c1), static_cast<Real>(params.c2)};
    dp.boundary = static_cast<pso::BoundaryMode>(static_cast<int>(params.boundary));
    dp.v_fraction = static_cast<Real>(params.v_max_fraction);
    dp.seed = params.seed;
    dp.ring = params.topology == Topology::Ring;
    dp.ring_radius = params.ring_radius;
    return dp;
}

template <typename Real>
bool RunContext<Real>::after_iteration(long long t, const Real* device_swarm_best) {
    iterations = t;
    if (!watched()) {
        return t >= params.iterations;
    }
    std::vector<Real> host(static_cast<std::size_t>(params.swarms));
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(host.data(), device_swarm_best, host.size() * sizeof(Real),
                                           cudaMemcpyDeviceToHost, stream));
    SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
    Real best = host[0];
    for (std::size_t s = 0; s < host.size(); ++s) {
        best = std::min(best, host[s]);
        if (params.record_history) {
            history[s].push_back(static_cast<double>(dp.sign * host[s]));
        }
    }
    return stop.after_iteration(t, static_cast<double>(dp.sign * best), problem.goal == Goal::Maximise);
}

namespace {
__global__ void negate_kernel(float* f, std::size_t n) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        f[i] = -f[i];
    }
}
} // namespace

template <typename Real>
void RunContext<Real>::evaluate_batch(const Real* x, Real* f) {
    if constexpr (sizeof(Real) != sizeof(float)) {
        throw ValidationError("precision", "a batched evaluator scores fp32 positions; use --precision fp32");
    } else {
        const BatchShape shape{params.swarms, params.particles, problem.dims};
        problem.evaluator->evaluate(x, f, shape, MemorySpace::Device, stream);
        if (dp.sign != Real(1)) { // maximised scores (the tracker's) become the minimise form here
            const std::size_t n = shape.rows();
            const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
            negate_kernel<<<blocks, 256, 0, stream>>>(f, n);
            SWARM_CHECK_LAUNCH(negate_kernel, blocks, 256, 0);
        }
    }
}

template <typename Real>
Result GpuPsoOptimizer::run_typed(const Problem& problem, const Params& params) {
    if (problem.host_function) {
        throw ValidationError("fitness", std::string(to_string(m_strategy)) +
                                             " cannot call a host std::function; use a device functor "
                                             "(swarm/cuda/custom.cuh), a batched evaluator, or a cpu-* strategy");
    }
    if (problem.evaluator && !problem.evaluator->supports(MemorySpace::Device)) {
        throw UnavailableError("the problem's batched evaluator has no device path; use a cpu-* strategy");
    }
    std::optional<Stream> own_stream;
    const cudaStream_t stream = m_stream != nullptr ? m_stream : own_stream.emplace().get();
    GPUMemory<Real> lower, upper, vmax, init_lower, init_upper, best_f, best_x;
    const DeviceProblem<Real> dp =
        upload_problem(problem, params, lower, upper, vmax, init_lower, init_upper, stream);
    best_f.resize(static_cast<std::size_t>(params.swarms), stream);
    best_x.resize(static_cast<std::size_t>(params.swarms) * problem.dims, stream);
    std::vector<std::vector<double>> history(static_cast<std::size_t>(params.swarms));
    RunContext<Real> ctx{problem, params, stream, dp, best_f, best_x, history, 0,
                         detail::StopRule(params, problem.known_optimum)};

    EventTimer timer;
    const auto t0 = std::chrono::steady_clock::now();
    timer.start(stream);
    solve(ctx);
    timer.stop(stream);
    const float device_ms = timer.elapsed_ms();
    const auto t1 = std::chrono::steady_clock::now();

    const std::vector<Real> bf = best_f.to_host(stream);
    const std::vector<Real> bx = best_x.to_host(stream);
    Result res;
    res.strategy = m_strategy;
    res.device = cuda_device_name();
    res.iterations = ctx.iterations;
    res.evaluations = static_cast<long long>(params.swarms) * params.particles * (ctx.iterations + 1);
    res.wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    res.device_ms = device_ms;
    res.stop_reason = ctx.stop.reason();
    res.swarms.resize(static_cast<std::size_t>(params.swarms));
    for (int s = 0; s < params.swarms; ++s) {
        auto& sr = res.swarms[static_cast<std::size_t>(s)];
        sr.best_fitness = static_cast<double>(dp.sign * bf[static_cast<std::size_t>(s)]);
        sr.best_position.assign(bx.begin() + static_cast<std::ptrdiff_t>(s) * problem.dims,
                                bx.begin() + static_cast<std::ptrdiff_t>(s + 1) * problem.dims);
        sr.history = std::move(history[static_cast<std::size_t>(s)]);
        if (bf[static_cast<std::size_t>(s)] < bf[static_cast<std::size_t>(res.best_swarm)]) {
            res.best_swarm = s;
        }
    }
    return res;
}

Result GpuPsoOptimizer::run(const Problem& problem, const Params& params) {
    params.validate();
    problem.validate(params.swarms);
    if (detail::cuda_device_count() == 0) {
        throw UnavailableError(std::string(to_string(m_strategy)) + ": no CUDA device is visible; use --backend cpu");
    }
    try {
        if (params.precision == Precision::FP64) {
            return run_typed<double>(problem, params);
        }
        return run_typed<float>(problem, params);
    } catch (const CudaError&) {
        rethrow_with_strategy(to_string(m_strategy)); // kernel errors name the strategy, too
    }
}

template DeviceProblem<float> upload_problem(const Problem&, const Params&, GPUMemory<float>&, GPUMemory<float>&,
                                             GPUMemory<float>&, GPUMemory<float>&,
                                             GPUMemory<float>&, cudaStream_t);
template DeviceProblem<double> upload_problem(const Problem&, const Params&, GPUMemory<double>&, GPUMemory<double>&,
                                              GPUMemory<double>&, GPUMemory<double>&,
                                              GPUMemory<double>&, cudaStream_t);
template struct RunContext<float>;
template struct RunContext<double>;

} // namespace swarm::gpu
