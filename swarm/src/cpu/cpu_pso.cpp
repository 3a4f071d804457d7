#include "cpu/cpu_pso.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "common/objective.h"
#include "swarm/detail/philox.h"
#include "swarm/detail/pso_math.h"
#include "swarm/detail/stopping.h"

namespace swarm::detail {
namespace {

// cpu-parallel meets a barrier after every phase of every iteration. Below this many particle-dimension
// updates per phase a phase takes about as long as that barrier, so each thread gets at least this much work
// and a smaller problem runs serially. And a thread that the machine's other jobs deschedule holds every other
// at the barrier for a time slice, which on a loaded machine is slower than serial, so only the cores the
// load average leaves idle are used (docs/benchmarks.md, "cpu-parallel on a shared machine").
constexpr long long k_min_work_per_thread = 1LL << 15;

int threads_for(long long work_per_phase, bool parallel) {
#if defined(_OPENMP)
    if (!parallel) return 1;
    const long long by_work = work_per_phase / k_min_work_per_thread;
    long long idle = omp_get_max_threads();
    double load = 0;
    if (getloadavg(&load, 1) == 1) idle = std::min(idle, omp_get_num_procs() - std::llround(load) + 1); // +1: this run
    return static_cast<int>(std::max(1LL, std::min(by_work, idle)));
#else
    (void)work_per_phase;
    (void)parallel;
    return 1;
#endif
}

using rng::Stream;

template <typename Real>
class CpuPso {
public:
    CpuPso(const Problem& problem, const Params& params, bool parallel)
        : m_problem(problem), m_params(params), m_parallel(parallel), m_objective(problem, params.swarms, params.particles),
          m_s(params.swarms), m_n(params.particles), m_d(problem.dims) {
        const std::size_t rows = static_cast<std::size_t>(m_s) * m_n;
        m_threads = threads_for(static_cast<long long>(rows) * m_d, parallel);
        m_x.resize(rows * m_d);
        m_v.resize(rows * m_d);
        m_p.resize(rows * m_d);
        m_f.resize(rows);
        m_pf.resize(rows);
        m_nbest.resize(rows);
        m_gbest.resize(static_cast<std::size_t>(m_s));
        m_lo.resize(static_cast<std::size_t>(m_s) * m_d);
        m_hi.resize(m_lo.size());
        m_init_lo.resize(m_lo.size());
        m_init_hi.resize(m_lo.size());
        m_focus = problem.init_focus(m_n);
        m_vmax.resize(m_lo.size());
        for (int s = 0; s < m_s; ++s) {
            for (int d = 0; d < m_d; ++d) {
                const std::size_t k = static_cast<std::size_t>(s) * m_d + d;
                m_lo[k] = static_cast<Real>(problem.lower_of(s, d));
                m_hi[k] = static_cast<Real>(problem.upper_of(s, d));
                m_init_lo[k] = static_cast<Real>(problem.init_lower_of(s, d));
                m_init_hi[k] = static_cast<Real>(problem.init_upper_of(s, d));
                m_vmax[k] = pso::velocity_limit<Real>(m_lo[k], m_hi[k], static_cast<Real>(params.v_max_fraction));
            }
        }
        m_k = {static_cast<Real>(params.w), static_cast<Real>(params.c1), static_cast<Real>(params.c2)};
        m_mode = static_cast<pso::BoundaryMode>(static_cast<int>(params.boundary));
    }

    Result run() {
        Result res;
        res.swarms.resize(static_cast<std::size_t>(m_s));
        const auto t0 = std::chrono::steady_clock::now();
        initialise();
        StopRule stop(m_params, m_problem.known_optimum);
        const bool maximise = m_problem.goal == Goal::Maximise;
        long long t = 0;
        while (true) {
            ++t;
            if (m_params.update == Update::Synchronous) {
                iterate_synchronous(static_cast<std::uint32_t>(t));
            } else {
                iterate_asynchronous(static_cast<std::uint32_t>(t));
            }
            if (m_params.record_history) {
                for (int s = 0; s < m_s; ++s) {
                    res.swarms[static_cast<std::size_t>(s)].history.push_back(report(m_pf[swarm_best(s)]));
                }
            }
            if (stop.after_iteration(t, report(m_pf[overall_best()]), maximise)) {
                break;
            }
        }
        const auto t1 = std::chrono::steady_clock::now();

        res.iterations = t;
        res.evaluations = static_cast<long long>(m_s) * m_n * (t + 1);
        res.wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        res.stop_reason = stop.reason();
        res.strategy = m_parallel ? Strategy::CpuParallel : Strategy::CpuSerial;
        res.device = "CPU (" + std::to_string(threads()) + (threads() == 1 ? " thread)" : " threads)");
        int best_s = 0;
        for (int s = 0; s < m_s; ++s) {
            const std::size_t g = swarm_best(s);
            auto& sr = res.swarms[static_cast<std::size_t>(s)];
            sr.best_fitness = report(m_pf[g]);
            sr.best_position.assign(m_p.begin() + static_cast<std::ptrdiff_t>(g * m_d),
                                    m_p.begin() + static_cast<std::ptrdiff_t>((g + 1) * m_d));
            if (m_pf[g] < m_pf[swarm_best(best_s)]) {
                best_s = s;
            }
        }
        res.best_swarm = best_s;
        return res;
    }

private:
    std::size_t row(int s, int i) const { return static_cast<std::size_t>(s) * m_n + i; }
    double report(Real minimise_form) const { return static_cast<double>(m_objective.sign() * minimise_form); }
    int threads() const { return m_threads; }

    void initialise() {
        const std::uint64_t seed = m_params.seed;
        for_rows([&](std::size_t r) {
            const int s = static_cast<int>(r / m_n);
            // The first m_focus particles of a swarm start in the problem's start box (Problem::init_lower).
            const bool focus = static_cast<int>(r % m_n) < m_focus;
            const Real* lo = focus ? m_init_lo.data() : m_lo.data();
            const Real* hi = focus ? m_init_hi.data() : m_hi.data();
            for (int d = 0; d < m_d; ++d) {
                const std::size_t b = static_cast<std::size_t>(s) * m_d + d;
                const auto gi = static_cast<std::uint32_t>(r);
                const Real ux = rng::uniform<Real>(seed, Stream::InitPosition, 0, gi, static_cast<std::uint32_t>(d));
                const Real uv = rng::uniform<Real>(seed, Stream::InitVelocity, 0, gi, static_cast<std::uint32_t>(d));
                m_x[r * m_d + d] = pso::initial_position(lo[b], hi[b], ux);
                m_v[r * m_d + d] = pso::initial_velocity(
                    pso::initial_velocity_range(lo[b], hi[b], static_cast<Real>(m_params.v_max_fraction)), uv);
            }
        });
        score_all();
        std::copy(m_x.begin(), m_x.end(), m_p.begin());
        std::copy(m_f.begin(), m_f.end(), m_pf.begin());
        update_neighbourhoods();
    }

    // One particle's Eq. 1-2 with the keyed random draws of iteration t.
    void move_particle(std::size_t r, std::size_t nb, std::uint32_t t) {
        const int s = static_cast<int>(r / m_n);
        const std::uint64_t seed = m_params.seed;
        const auto gi = static_cast<std::uint32_t>(r);
        for (int d = 0; d < m_d; ++d) {
            const std::size_t b = static_cast<std::size_t>(s) * m_d + d;
            const std::size_t k = r * m_d + d;
            const auto ud = static_cast<std::uint32_t>(d);
            const Real r1 = rng::uniform<Real>(seed, Stream::R1, t, gi, ud);
            const Real r2 = rng::uniform<Real>(seed, Stream::R2, t, gi, ud);
            Real v = pso::velocity(m_v[k], m_x[k], m_p[k], m_p[nb * m_d + d], m_k, r1, r2);
            v = pso::clamp_velocity(v, m_vmax[b]);
            const Real rb = m_mode == pso::BoundaryMode::Random ? rng::uniform<Real>(seed, Stream::Boundary, t, gi, ud) : Real(0);
            pso::move(m_x[k], v, m_lo[b], m_hi[b], m_mode, rb);
            m_v[k] = v;
        }
    }

    void update_personal_best(std::size_t r) {
        if (m_f[r] < m_pf[r]) {
            m_pf[r] = m_f[r];
            std::copy_n(m_x.begin() + static_cast<std::ptrdiff_t>(r * m_d), m_d, m_p.begin() + static_cast<std::ptrdiff_t>(r * m_d));
        }
    }

    // Synchronous PSO (003, Listing 2): every particle moves using the previous iteration's bests.
    void iterate_synchronous(std::uint32_t t) {
        for_rows([&](std::size_t r) { move_particle(r, neighbourhood_best(r), t); });
        score_all();
        for_rows([&](std::size_t r) { update_personal_best(r); });
        update_neighbourhoods();
    }

    // Asynchronous PSO (000 Algorithm 1): the bests are updated right after each particle's evaluation,
    // so later particles of the same iteration already follow them. Swarms are independent.
    void iterate_asynchronous(std::uint32_t t) {
        for_swarms([&](int s) {
            for (int i = 0; i < m_n; ++i) {
                const std::size_t r = row(s, i);
                const std::size_t nb = m_params.topology == Topology::Global ? m_gbest[static_cast<std::size_t>(s)] : ring_best(s, i);
                move_particle(r, nb, t);
                m_f[r] = m_objective(&m_x[r * m_d]);
                update_personal_best(r);
                std::size_t& g = m_gbest[static_cast<std::size_t>(s)];
                if (pso::better(m_pf[r], static_cast<int>(r), m_pf[g], static_cast<int>(g))) {
                    g = r;
                }
            }
        });
    }

    std::size_t ring_best(int s, int i) const {
        std::size_t best = row(s, i);
        for (int k = 1; k <= m_params.ring_radius; ++k) {
            for (const int off : {-k, k}) {
                const std::size_t j = row(s, pso::ring_neighbour(i, off, m_n));
                if (pso::better(m_pf[j], static_cast<int>(j), m_pf[best], static_cast<int>(best))) {
                    best = j;
                }
            }
        }
        return best;
    }

    std::size_t swarm_best(int s) const {
        std::size_t best = row(s, 0);
        for (int i = 1; i < m_n; ++i) {
            const std::size_t r = row(s, i);
            if (pso::better(m_pf[r], static_cast<int>(r), m_pf[best], static_cast<int>(best))) {
                best = r;
            }
        }
        return best;
    }

    std::size_t overall_best() const {
        std::size_t best = swarm_best(0);
        for (int s = 1; s < m_s; ++s) {
            const std::size_t g = swarm_best(s);
            if (m_pf[g] < m_pf[best]) {
                best = g;
            }
        }
        return best;
    }

    std::size_t neighbourhood_best(std::size_t r) const {
        return m_params.topology == Topology::Global ? m_gbest[r / static_cast<std::size_t>(m_n)] : m_nbest[r];
    }

    void update_neighbourhoods() {
        for_swarms([&](int s) { m_gbest[static_cast<std::size_t>(s)] = swarm_best(s); });
        if (m_params.topology == Topology::Ring) {
            for_rows([&](std::size_t r) {
                m_nbest[r] = ring_best(static_cast<int>(r / m_n), static_cast<int>(r % m_n));
            });
        }
    }

    void score_all() {
        const std::size_t rows = m_f.size();
        if (m_objective.batched() || m_threads == 1) {
            m_objective.score_rows(m_x.data(), m_f.data(), 0, rows);
            return;
        }
        for_rows([&](std::size_t r) { m_f[r] = m_objective(&m_x[r * m_d]); });
    }

    template <typename F>
    void for_rows(F&& f) {
        const auto rows = static_cast<std::int64_t>(m_f.size());
        if (m_threads > 1) {
#pragma omp parallel for schedule(static) num_threads(m_threads)
            for (std::int64_t r = 0; r < rows; ++r) {
                f(static_cast<std::size_t>(r));
            }
        } else {
            for (std::int64_t r = 0; r < rows; ++r) {
                f(static_cast<std::size_t>(r));
            }
        }
    }

    template <typename F>
    void for_swarms(F&& f) {
        if (m_threads > 1 && m_s > 1) {
#pragma omp parallel for schedule(dynamic) num_threads(std::min(m_threads, m_s))
            for (int s = 0; s < m_s; ++s) {
                f(s);
            }
        } else {
            for (int s = 0; s < m_s; ++s) {
                f(s);
            }
        }
    }

    const Problem& m_problem;
    const Params& m_params;
    bool m_parallel;
    int m_threads = 1; // 1: every phase runs on the calling thread (cpu-serial, or too little work)
    HostObjective<Real> m_objective;
    int m_s, m_n, m_d;
    pso::Coefficients<Real> m_k{};
    pso::BoundaryMode m_mode{};
    std::vector<Real> m_x, m_v, m_p, m_f, m_pf, m_lo, m_hi, m_vmax;
    std::vector<Real> m_init_lo, m_init_hi; // start box (= bounds without one), swarms x dims
    int m_focus = 0;                        // particles per swarm starting in it
    std::vector<std::size_t> m_nbest; // ring: row of each particle's neighbourhood best (pbest index)
    std::vector<std::size_t> m_gbest; // row of each swarm's best particle
};

} // namespace

Result run_cpu_pso(const Problem& problem, const Params& params, bool parallel) {
    if (params.precision == Precision::FP64) {
        return CpuPso<double>(problem, params, parallel).run();
    }
    return CpuPso<float>(problem, params, parallel).run();
}

} // namespace swarm::detail
