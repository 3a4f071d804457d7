// gpu-bees: CUBA (004) behind the Optimizer API. Cycles run in launches of growing length (8, 16, ...,
// 256); after each launch the per-cycle colony bests come back and the stopping rules are replayed
// cycle by cycle, so `iterations` is the exact cycle a rule fired. The device state may then be a few
// cycles further on (its bests can only be better: a colony's best site is never lost).
#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "bees/cuba_kernel.cuh"
#include "bees/cuba_plan.h"
#include "bees/gpu_bees.h"
#include "common/stopping.h"
#include "gpu/cuda_check.h"
#include "gpu/cuda_stream.h"
#include "gpu/gpu_memory.h"
#include "registry.h"
#include "swarm/errors.h"

namespace swarm::detail {
namespace {

constexpr int k_first_chunk = 8;
constexpr int k_max_chunk = 256;

std::size_t shared_limit() {
    int device = 0, bytes = 0;
    SWARM_CUDA_CHECK_THROW(cudaGetDevice(&device));
    SWARM_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return static_cast<std::size_t>(bytes);
}

template <typename Real>
struct Buffers {
    gpu::GPUMemory<Real> lo, hi, x, f, ngh, record;
};

class GpuBeesOptimizer final : public Optimizer {
public:
    Strategy strategy() const override { return Strategy::GpuBees; }

    Result run(const Problem& problem, const Params& params) override {
        params.validate();
        m_bees.validate(params);
        problem.validate(params.swarms);
        if (cuda_device_count() == 0) {
            throw UnavailableError("gpu-bees: no CUDA device is visible; use cpu-bees or --backend cpu");
        }
        try {
            if (params.precision == Precision::FP64) {
                return run_typed<double>(problem, params, m_double);
            }
            return run_typed<float>(problem, params, m_float);
        } catch (const CudaError&) {
            gpu::rethrow_with_strategy("gpu-bees"); // kernel errors name the strategy, too
        }
    }

private:
    template <typename Real>
    Result run_typed(const Problem& problem, const Params& params, Buffers<Real>& buf) {
        const CubaPlan plan = plan_cuba(problem, params, m_bees, sizeof(Real), shared_limit());
        if (plan.shared_bytes > 48 * 1024) {
            SWARM_CUDA_CHECK_THROW(cudaFuncSetAttribute(bees::cuba_kernel<Real>,
                                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                        static_cast<int>(plan.shared_bytes)));
        }
        const int S = params.swarms, n = params.particles, D = problem.dims;
        gpu::Stream stream;
        const cudaStream_t st = stream.get();
        std::vector<Real> lo, hi;
        for (double v : colony_bounds(problem, S, false)) lo.push_back(static_cast<Real>(v));
        for (double v : colony_bounds(problem, S, true)) hi.push_back(static_cast<Real>(v));
        buf.lo.copy_from_host(lo, st);
        buf.hi.copy_from_host(hi, st);
        const std::size_t bees_total = static_cast<std::size_t>(S) * n;
        buf.x.resize(bees_total * D, st);
        buf.f.resize(bees_total, st);
        buf.ngh.resize(bees_total, st);

        StopRule stop(params, problem.known_optimum);
        const bool need_record = stop.early_stopping() || params.record_history;
        const int max_chunk = std::max(1, std::min<int>(k_max_chunk, (1 << 22) / S));
        if (need_record) {
            buf.record.resize(static_cast<std::size_t>(max_chunk) * S, st);
        }

        bees::CubaLaunch<Real> p;
        p.k.n = n;
        p.k.m = m_bees.selected;
        p.k.nep = m_bees.elite_recruits;
        p.k.dims = D;
        p.k.stride = plan.stride;
        p.k.ngh0 = static_cast<Real>(m_bees.ngh);
        p.k.shrink = static_cast<Real>(m_bees.shrink);
        p.k.sign = problem.goal == Goal::Maximise ? Real(-1) : Real(1);
        p.k.function = problem.function;
        p.k.seed = params.seed;
        p.colonies = S;
        p.per_block = plan.per_block;
        p.lo = buf.lo.data();
        p.hi = buf.hi.data();
        p.x = buf.x.data();
        p.f = buf.f.data();
        p.ngh = buf.ngh.data();
        p.record = need_record ? buf.record.data() : nullptr;

        Result res;
        res.swarms.resize(static_cast<std::size_t>(S));
        std::vector<Real> rec;
        gpu::EventTimer timer;
        const auto t0 = std::chrono::steady_clock::now();
        timer.start(st);
        long long stopped = 0;
        int chunk = k_first_chunk;
        while (stopped == 0) {
            p.count = static_cast<int>(need_record ? std::min<long long>(chunk, params.iterations - p.first)
                                                   : params.iterations);
            bees::cuba_kernel<Real><<<plan.blocks, plan.threads, plan.shared_bytes, st>>>(p);
            SWARM_CHECK_LAUNCH(bees::cuba_kernel, plan.blocks, plan.threads, plan.shared_bytes);
            if (!need_record) {
                stopped = params.iterations;
            } else {
                rec.resize(static_cast<std::size_t>(p.count) * S);
                buf.record.copy_to_host(rec.data(), rec.size(), st);
                stream.synchronize();
                stopped = replay(rec, p.first, p.count, S, p.k.sign, problem, params, stop, res);
            }
            p.first += p.count;
            chunk = std::min(2 * chunk, max_chunk);
        }
        timer.stop(st);
        const std::vector<Real> x = buf.x.to_host(st);
        const std::vector<Real> f = buf.f.to_host(st);
        res.device_ms = timer.elapsed_ms();
        res.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

        for (int c = 0; c < S; ++c) {
            std::size_t best = static_cast<std::size_t>(c) * n;
            for (int r = 1; r < n; ++r) {
                const std::size_t b = static_cast<std::size_t>(c) * n + r;
                best = f[b] < f[best] ? b : best;
            }
            auto& sr = res.swarms[static_cast<std::size_t>(c)];
            sr.best_fitness = static_cast<double>(p.k.sign * f[best]);
            sr.best_position.assign(x.begin() + static_cast<std::ptrdiff_t>(best) * D,
                                    x.begin() + static_cast<std::ptrdiff_t>(best + 1) * D);
            const double mine = static_cast<double>(f[best]);
            const double theirs = p.k.sign * res.swarms[static_cast<std::size_t>(res.best_swarm)].best_fitness;
            if (mine < theirs) {
                res.best_swarm = c;
            }
        }
        res.iterations = stopped;
        res.evaluations = cuba_evaluations(params, m_bees, p.first);
        res.stop_reason = stop.reason();
        res.strategy = Strategy::GpuBees;
        res.device = cuda_device_name_or_empty();
        return res;
    }

    // Feeds the cycles of one launch to the stopping rules; returns the cycle that stopped the run, or 0.
    template <typename Real>
    static long long replay(const std::vector<Real>& rec, long long first, int count, int S, Real sign,
                            const Problem& problem, const Params& params, StopRule& stop, Result& res) {
        for (int i = 0; i < count; ++i) {
            Real best = std::numeric_limits<Real>::infinity();
            for (int c = 0; c < S; ++c) {
                const Real v = rec[static_cast<std::size_t>(i) * S + c];
                best = std::min(best, v);
                if (params.record_history) {
                    res.swarms[static_cast<std::size_t>(c)].history.push_back(static_cast<double>(sign * v));
                }
            }
            const long long cycle = first + 1 + i;
            if (stop.after_iteration(cycle, static_cast<double>(sign * best), problem.goal == Goal::Maximise)) {
                return cycle;
            }
        }
        return 0;
    }

    Buffers<float> m_float;
    Buffers<double> m_double;
};

} // namespace

std::unique_ptr<Optimizer> create_gpu_bees_optimizer() {
    return std::make_unique<GpuBeesOptimizer>();
}

} // namespace swarm::detail
