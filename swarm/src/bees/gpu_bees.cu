// gpu-bees: CUBA (004) behind the Optimizer API. With a stopping rule the cycles run in short launches
// (4 cycles, growing for long runs); each launch leaves the overall best of each of its cycles, reduced
// on the device, and the host replays the stopping rules on them cycle by cycle, so `iterations` is the
// exact cycle a rule fired. The next launch is queued before the host reads the previous one's record,
// so the device never waits on the host; the device state may then be up to two launches past the
// stopping cycle (its bests can only be better: a colony's best site is never lost). The per-colony
// results are reduced on the device too, so only colonies x (dims + 1) values come back at the end.
#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "bees/cuba_kernel.cuh"
#include "bees/cuba_plan.h"
#include "bees/gpu_bees.h"
#include "registry.h"
#include "swarm/cuda/check.h"
#include "swarm/cuda/launch.h"
#include "swarm/cuda/memory.h"
#include "swarm/cuda/stream.h"
#include "swarm/detail/stopping.h"
#include "swarm/errors.h"

namespace swarm::detail {
namespace {

// Cycles per launch while a stopping rule is watched: short at first, since a run stops within two
// launches of its target and a cycle of many colonies costs tens of microseconds; longer once
// a run has gone on for a while, so a 5,000-cycle run is not 1,250 launches. Each launch also reloads
// and stores every bee (a few microseconds).
constexpr int k_min_chunk = 4;
constexpr int k_max_chunk = 256;

int chunk_after(long long cycles_done) {
    int c = k_min_chunk;
    while (c < k_max_chunk && 32LL * c <= cycles_done) {
        c *= 2;
    }
    return c;
}

template <typename Real>
struct Buffers {
    gpu::GPUMemory<Real> lo, hi, x, f, ngh, history, best_f, best_x;
    gpu::GPUMemory<bees::KeyWord<Real>> best;
    gpu::PinnedHost<bees::KeyWord<Real>> best_host[2]; // one per launch in flight
    gpu::PinnedHost<Real> history_host[2];
    gpu::PinnedHost<Real> best_f_host, best_x_host;
};

// One launch whose record is on its way to the host.
struct InFlight {
    long long first = 0;
    int count = 0;
    int slot = 0;
};

class GpuBeesOptimizer final : public Optimizer {
public:
    Strategy strategy() const override { return Strategy::GpuBees; }

    Result run(const Problem& problem, const Params& params) override {
        params.validate();
        m_bees.validate(params);
        problem.validate(params.swarms);
        if (!problem.init_lower.empty()) {
            throw ValidationError("init_lower", "gpu-bees scouts the whole bounds; a start box is for the PSO strategies");
        }
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
        const CubaPlan plan = plan_cuba(problem, params, m_bees, sizeof(Real), gpu::max_shared_optin_bytes());
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
        const bool watch = stop.early_stopping();
        const bool history = params.record_history;
        const bool chunked = watch || history;
        // History needs count x colonies values per launch: cap a launch at 4 Mi of them.
        const int max_chunk = history ? std::max(1, std::min<int>(k_max_chunk, (1 << 22) / S)) : k_max_chunk;
        if (watch) {
            buf.best.resize(static_cast<std::size_t>(k_max_chunk) * bees::k_record_buckets, st);
            for (auto& h : buf.best_host) {
                h.reserve(static_cast<std::size_t>(k_max_chunk) * bees::k_record_buckets);
            }
        }
        if (history) {
            buf.history.resize(static_cast<std::size_t>(max_chunk) * S, st);
            for (auto& h : buf.history_host) {
                h.reserve(static_cast<std::size_t>(max_chunk) * S);
            }
        }
        buf.best_f.resize(static_cast<std::size_t>(S), st);
        buf.best_x.resize(static_cast<std::size_t>(S) * D, st);
        Real* best_f_host = buf.best_f_host.reserve(static_cast<std::size_t>(S));
        Real* best_x_host = buf.best_x_host.reserve(static_cast<std::size_t>(S) * D);
        gpu::Event done[2] = {gpu::Event(cudaEventDisableTiming), gpu::Event(cudaEventDisableTiming)};

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
        p.best = watch ? buf.best.data() : nullptr;
        p.history = history ? buf.history.data() : nullptr;
        stream.synchronize(); // set-up copies done: the clock below times the run only

        // Queues cycles first+1 .. first+count and the copy of their record into host slot `slot`.
        const auto launch = [&](long long first, int count, int slot) {
            p.first = first;
            p.count = count;
            if (watch) {
                SWARM_CUDA_CHECK_THROW(cudaMemsetAsync(p.best, 0xFF, sizeof(*p.best) * count * bees::k_record_buckets, st));
            }
            bees::cuba_kernel<Real><<<plan.blocks, plan.threads, plan.shared_bytes, st>>>(p);
            SWARM_CHECK_LAUNCH(bees::cuba_kernel, plan.blocks, plan.threads, plan.shared_bytes);
            if (watch) {
                SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(buf.best_host[slot].data(), p.best,
                                                       sizeof(*p.best) * count * bees::k_record_buckets,
                                                       cudaMemcpyDeviceToHost, st));
            }
            if (history) {
                SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(buf.history_host[slot].data(), p.history,
                                                       sizeof(Real) * count * static_cast<std::size_t>(S),
                                                       cudaMemcpyDeviceToHost, st));
            }
            done[slot].record(st);
            return InFlight{first, count, slot};
        };
        const auto next_count = [&](long long first) {
            return static_cast<int>(std::min<long long>(std::min(chunk_after(first), max_chunk), params.iterations - first));
        };

        Result res;
        gpu::EventTimer timer;
        const auto t0 = std::chrono::steady_clock::now();
        timer.start(st);
        long long stopped = 0;
        long long queued = 0; // cycles queued so far
        InFlight cur = launch(0, chunked ? next_count(0) : static_cast<int>(params.iterations), 0);
        queued = cur.count;
        // The host would otherwise wait: allocate the per-colony results while the first launch runs.
        res.swarms.resize(static_cast<std::size_t>(S));
        for (auto& sr : res.swarms) {
            sr.best_position.resize(static_cast<std::size_t>(D));
        }
        if (!chunked) {
            stopped = params.iterations;
        } else {
            while (stopped == 0) {
                InFlight next{};
                const bool more = queued < params.iterations;
                if (more) {
                    next = launch(queued, next_count(queued), 1 - cur.slot);
                    queued += next.count;
                }
                done[cur.slot].synchronize();
                stopped = replay(buf, cur, S, p.k.sign, problem, params, stop, res);
                if (stopped == 0 && !more) {
                    stopped = params.iterations; // the rules fire at the last cycle; kept as a guard
                }
                cur = next;
            }
        }
        const int colony_threads = 128;
        bees::cuba_colony_best_kernel<Real><<<(S + colony_threads - 1) / colony_threads, colony_threads, 0, st>>>(
            buf.x.data(), buf.f.data(), S, n, D, buf.best_f.data(), buf.best_x.data());
        SWARM_CHECK_LAUNCH(bees::cuba_colony_best_kernel, (S + colony_threads - 1) / colony_threads, colony_threads, 0);
        buf.best_f.copy_to_host(best_f_host, static_cast<std::size_t>(S), st);
        buf.best_x.copy_to_host(best_x_host, static_cast<std::size_t>(S) * D, st);
        timer.stop(st);
        stream.synchronize();

        for (int c = 0; c < S; ++c) {
            auto& sr = res.swarms[static_cast<std::size_t>(c)];
            sr.best_fitness = static_cast<double>(p.k.sign * best_f_host[c]);
            const Real* bx = best_x_host + static_cast<std::size_t>(c) * D;
            std::copy(bx, bx + D, sr.best_position.begin());
            if (best_f_host[c] < best_f_host[res.best_swarm]) {
                res.best_swarm = c;
            }
        }
        res.iterations = stopped;
        res.evaluations = cuba_evaluations(params, m_bees, queued);
        res.stop_reason = stop.reason();
        res.strategy = Strategy::GpuBees;
        res.device = cuda_device_name_or_empty();
        res.device_ms = timer.elapsed_ms();
        res.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return res;
    }

    // Feeds the cycles of one finished launch to the stopping rules (and the colonies' histories);
    // returns the cycle that stopped the run, or 0.
    template <typename Real>
    static long long replay(const Buffers<Real>& buf, const InFlight& l, int S, Real sign, const Problem& problem,
                            const Params& params, StopRule& stop, Result& res) {
        const bees::KeyWord<Real>* best = buf.best_host[l.slot].data();
        const Real* hist = buf.history_host[l.slot].data();
        for (int i = 0; i < l.count; ++i) {
            Real overall = std::numeric_limits<Real>::infinity();
            if (params.record_history) {
                for (int c = 0; c < S; ++c) {
                    const Real v = hist[static_cast<std::size_t>(i) * S + c];
                    overall = std::min(overall, v);
                    res.swarms[static_cast<std::size_t>(c)].history.push_back(static_cast<double>(sign * v));
                }
            }
            if (best != nullptr && stop.early_stopping()) {
                auto key = best[static_cast<std::size_t>(i) * bees::k_record_buckets];
                for (int j = 1; j < bees::k_record_buckets; ++j) {
                    key = std::min(key, best[static_cast<std::size_t>(i) * bees::k_record_buckets + j]);
                }
                overall = bees::from_ordered_key<Real>(key);
            }
            const long long cycle = l.first + 1 + i;
            if (stop.after_iteration(cycle, static_cast<double>(sign * overall), problem.goal == Goal::Maximise)) {
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
