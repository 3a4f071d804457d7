#include "swarm/optimizer.h"

#include <new>
#include <string>

#include <spdlog/spdlog.h>

#include "cpu/cpu_pso.h"
#include "registry.h"
#include "swarm/cuda/detail/fused_plan.h"
#include "swarm/detail/stopping.h"
#include "swarm/errors.h"

namespace swarm {
namespace {

std::string shape(const Problem& problem, const Params& params) {
    return std::to_string(params.swarms) + " swarms x " + std::to_string(params.particles) + " particles x " +
           std::to_string(problem.dims) + " dims";
}

class CpuPsoOptimizer final : public Optimizer {
public:
    explicit CpuPsoOptimizer(bool parallel) : m_parallel(parallel) {}
    Strategy strategy() const override { return m_parallel ? Strategy::CpuParallel : Strategy::CpuSerial; }
    Result run(const Problem& problem, const Params& params) override {
        params.validate();
        problem.validate(params.swarms);
        try {
            return detail::run_cpu_pso(problem, params, m_parallel);
        } catch (const std::bad_alloc&) {
            throw Error(std::string(to_string(strategy())) + ": host memory cannot hold " + shape(problem, params) +
                        "; use fewer swarms, particles or dims");
        }
    }

private:
    bool m_parallel;
};

// Work of one run in particle-dimension updates: what decides whether threads pay off.
double work(const Problem& problem, const Params& params) {
    return static_cast<double>(params.swarms) * params.particles * problem.dims * static_cast<double>(params.iterations);
}

Strategy choose_cpu(const Problem& problem, const Params& params) {
    return work(problem, params) >= 2e6 && params.swarms * params.particles >= 64 ? Strategy::CpuParallel
                                                                                  : Strategy::CpuSerial;
}

Availability gpu_availability(Strategy s);

// The GPU pick by problem shape (measured on an H200, docs/benchmarks-gpu-a.md):
//  - gpu-fused by default. For swarms that fit a block it runs the very kernel gpu-sync runs (one launch
//    per run, state in shared memory: as fast as gpu-sync and several times faster than gpu-ring-2k's two
//    launches per generation); for bigger swarms it switches to one cooperative launch that gpu-sync
//    cannot run at all; wide rings get RingPSO's kernels fused into one launch; and it is the only
//    strategy that takes a batched evaluator. So gpu-sync never beats it and is not picked.
//  - many particles x many dimensions, global topology (FastPSO's shapes, e.g. 5,000 x 200): gpu-elementwise
//    when it is built, since gpu-fused keeps a thread per whole particle there (its owner's measurements),
//    unless the problem has a start box (Problem::init_lower), which gpu-elementwise does not take.
//  - the asynchronous update: gpu-fused's warp form where it runs the shape, else a CPU strategy (the other
//    GPU strategies run the synchronous PSO only).
//  - one big 1-D swarm, global topology (cuPSO's Table 4 shapes): gpu-queue-lock beyond 512 particles per SM.
//    gpu-fused's grid form keeps a particle per thread in blocks of 256, of which about two per SM are
//    resident; past that its blocks take two tiles a generation and its time steps up, while gpu-queue-lock's
//    launch per generation grows smoothly. H200 (132 SMs; fp64 cubic, 100,000 generations): 65,536 particles
//    gpu-fused 379 ms / gpu-queue-lock 420, 98,304: 636 / 488, 131,072: 660 / 535, 196,608: 950 / 823.
Strategy choose_gpu(const Problem& problem, const Params& params) {
    if (params.update == Update::Asynchronous) {
        // The same test gpu-fused applies when it runs (a target error counts only with a known optimum).
        const bool watched =
            params.record_history || detail::StopRule(params, problem.known_optimum).early_stopping();
        return gpu::async_warp_unsupported(params, problem.dims, static_cast<bool>(problem.evaluator), watched) == nullptr
                   ? Strategy::GpuFused
                   : choose_cpu(problem, params);
    }
    if (problem.evaluator) {
        return Strategy::GpuFused;
    }
    const long long elems = static_cast<long long>(params.particles) * problem.dims;
    if (params.topology == Topology::Global && problem.init_lower.empty() && // no start box in FastPSO's init
        static_cast<long long>(params.swarms) * elems >= (1LL << 18) &&
        problem.dims >= 32 && gpu_availability(Strategy::GpuElementwise).available) {
        return Strategy::GpuElementwise;
    }
    if (params.topology == Topology::Global && params.swarms == 1 && problem.dims == 1 &&
        params.iterations < (1LL << 30)) { // gpu-queue-lock's 31-bit iteration stamps
        const int sms = detail::cuda_sm_count();
        if (sms > 0 && static_cast<long long>(params.particles) > 512LL * sms) {
            return Strategy::GpuQueueLock;
        }
    }
    return Strategy::GpuFused;
}

Availability gpu_availability(Strategy s) { return detail::gpu_strategy_availability(s); }

} // namespace

Availability availability(Strategy s) {
    if (s == Strategy::Auto || s == Strategy::CpuSerial || s == Strategy::CpuParallel) {
        return {true, ""};
    }
    if (is_bees(s)) {
        return detail::bees_availability(s);
    }
    return detail::gpu_strategy_availability(s);
}

bool cuda_device_present() {
    return detail::cuda_device_count() > 0;
}

std::string cuda_device_name() {
    return detail::cuda_device_name_or_empty();
}

Strategy resolve_strategy(Strategy requested, Backend backend, const Problem& problem, const Params& params,
                          std::string* note) {
    auto say = [&](const std::string& line) {
        if (note) {
            *note = line;
        }
    };
    const bool gpu_ok = detail::cuda_compiled() && cuda_device_present();
    if (backend == Backend::Cuda && !gpu_ok) {
        throw UnavailableError(detail::cuda_compiled()
                                   ? "--backend cuda: no CUDA device is visible; use --backend cpu or auto"
                                   : "--backend cuda: this build has no CUDA support; rebuild with nvcc or use --backend cpu");
    }
    if (requested == Strategy::Auto) {
        if (backend != Backend::Cpu && gpu_ok) {
            const Strategy s = choose_gpu(problem, params);
            say("auto picked " + std::string(to_string(s)) + " for " + std::to_string(params.swarms) + " x " +
                std::to_string(params.particles) + " particles x " + std::to_string(problem.dims) + " dims on " +
                cuda_device_name());
            return s;
        }
        const Strategy s = choose_cpu(problem, params);
        say("auto picked " + std::string(to_string(s)) +
            (backend == Backend::Cpu ? " (--backend cpu)" : " (no usable CUDA device)"));
        return s;
    }
    if (is_gpu(requested)) {
        if (backend == Backend::Cpu) {
            throw UnavailableError(std::string(to_string(requested)) + " is a GPU strategy but --backend cpu was given");
        }
        if (!gpu_ok) {
            const Strategy fallback = requested == Strategy::GpuBees ? Strategy::CpuBees : choose_cpu(problem, params);
            say("warning: " + std::string(to_string(requested)) + " needs a CUDA device (" +
                availability(requested).reason + "); falling back to " + std::string(to_string(fallback)));
            return fallback;
        }
    } else if (backend == Backend::Cuda) {
        throw UnavailableError(std::string(to_string(requested)) + " runs on the CPU but --backend cuda was given");
    }
    return requested;
}

std::unique_ptr<Optimizer> create_optimizer(Strategy s) {
    switch (s) {
    case Strategy::Auto: throw Error("create_optimizer needs a concrete strategy; call resolve_strategy first");
    case Strategy::CpuSerial: return std::make_unique<CpuPsoOptimizer>(false);
    case Strategy::CpuParallel: return std::make_unique<CpuPsoOptimizer>(true);
    case Strategy::CpuBees:
    case Strategy::GpuBees: return detail::create_bees_optimizer(s);
    default: return detail::create_gpu_optimizer(s);
    }
}

Result optimize(const Problem& problem, const Params& params, Strategy s, Backend backend, std::string* note) {
    std::string why;
    const Strategy concrete = resolve_strategy(s, backend, problem, params, &why);
    if (!why.empty()) {
        if (why.rfind("warning", 0) == 0) {
            spdlog::warn("{}", why.substr(9));
        } else {
            spdlog::info("{}", why);
        }
    }
    if (note) {
        *note = why;
    }
    try {
        return create_optimizer(concrete)->run(problem, params);
    } catch (const OutOfMemoryError& e) {
        // --backend auto promises a result where the CPU can give one: a GPU out of memory (the device is
        // smaller than the request, or shared) falls back to the strategy's CPU counterpart, with a warning.
        if (backend != Backend::Auto || !is_gpu(concrete)) {
            throw;
        }
        const Strategy fallback = concrete == Strategy::GpuBees ? Strategy::CpuBees : choose_cpu(problem, params);
        why = "warning: " + std::string(to_string(concrete)) + " ran out of GPU memory (" + e.what() +
              "); falling back to " + std::string(to_string(fallback));
        spdlog::warn("{}", why.substr(9));
        if (note) {
            *note = why;
        }
        try {
            return create_optimizer(fallback)->run(problem, params);
        } catch (const std::bad_alloc&) {
            throw Error(std::string(to_string(fallback)) + ": host memory cannot hold " + shape(problem, params) +
                        " either; use fewer swarms, particles or dims");
        }
    }
}

} // namespace swarm
