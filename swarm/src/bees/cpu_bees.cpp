#include "bees/cpu_bees.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <vector>

#include "bees/bees_math.h"
#include "common/objective.h"
#include "swarm/detail/stopping.h"

namespace swarm::detail {
namespace {

// One colony: n sites kept sorted best first, each with its own patch size and stagnation count, plus
// the best site ever abandoned (Pham records a patch's peak before leaving it).
template <typename Real>
struct Colony {
    std::vector<Real> x, f, ngh;
    std::vector<int> stagnant;
    std::vector<Real> kept_x;
    Real kept_f = 0;
    bool have_kept = false;
};

template <typename Real>
class CpuBees {
public:
    CpuBees(const Problem& problem, const Params& params, const BeesParams& bees)
        : m_problem(problem), m_params(params), m_bees(bees), m_objective(problem, params.swarms, params.particles),
          m_s(params.swarms), m_n(params.particles), m_d(problem.dims), m_colonies(static_cast<std::size_t>(m_s)),
          m_candidate(static_cast<std::size_t>(m_d)), m_trial(static_cast<std::size_t>(m_d)) {}

    Result run() {
        const auto t0 = std::chrono::steady_clock::now();
        Result res;
        res.swarms.resize(static_cast<std::size_t>(m_s));
        for (int s = 0; s < m_s; ++s) {
            initialise(s);
        }
        StopRule stop(m_params, m_problem.known_optimum);
        const bool maximise = m_problem.goal == Goal::Maximise;
        long long t = 0;
        while (true) {
            ++t;
            Real overall = 0;
            for (int s = 0; s < m_s; ++s) {
                cycle(s, static_cast<std::uint32_t>(t));
                const Real b = colony_best(s);
                overall = s == 0 ? b : std::min(overall, b);
                if (m_params.record_history) {
                    res.swarms[static_cast<std::size_t>(s)].history.push_back(report(b));
                }
            }
            if (stop.after_iteration(t, report(overall), maximise)) {
                break;
            }
        }
        res.iterations = t;
        res.evaluations = m_evaluations;
        res.stop_reason = stop.reason();
        res.strategy = Strategy::CpuBees;
        res.device = "CPU (1 thread)";
        for (int s = 0; s < m_s; ++s) {
            auto& sr = res.swarms[static_cast<std::size_t>(s)];
            const Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
            const bool kept = c.have_kept && c.kept_f < c.f[0];
            const Real* x = kept ? c.kept_x.data() : c.x.data();
            sr.best_fitness = report(kept ? c.kept_f : c.f[0]);
            sr.best_position.assign(x, x + m_d);
            if (colony_best(s) < colony_best(res.best_swarm)) {
                res.best_swarm = s;
            }
        }
        res.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return res;
    }

private:
    double report(Real minimise_form) const { return static_cast<double>(m_objective.sign() * minimise_form); }
    Real lo(int s, int d) const { return static_cast<Real>(m_problem.lower_of(s, d)); }
    Real hi(int s, int d) const { return static_cast<Real>(m_problem.upper_of(s, d)); }
    std::uint32_t bee(int s, int rank) const { return static_cast<std::uint32_t>(s * m_n + rank); }

    Real evaluate(const Real* x) {
        ++m_evaluations;
        return m_objective(x);
    }

    // Sends a scout of (cycle, trial) to a random place for the site at `rank`: fresh patch, no stagnation.
    void scout(int s, int rank, std::uint32_t cycle, std::uint32_t trial) {
        Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        Real* x = &c.x[static_cast<std::size_t>(rank) * m_d];
        for (int d = 0; d < m_d; ++d) {
            const Real u = bees::draw<Real>(m_params.seed, cycle, bee(s, rank), trial, static_cast<std::uint32_t>(d));
            x[d] = bees::scout_coordinate(lo(s, d), hi(s, d), u);
        }
        c.f[static_cast<std::size_t>(rank)] = evaluate(x);
        c.ngh[static_cast<std::size_t>(rank)] = static_cast<Real>(m_bees.ngh);
        c.stagnant[static_cast<std::size_t>(rank)] = 0;
    }

    void initialise(int s) {
        Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        c.x.resize(static_cast<std::size_t>(m_n) * m_d);
        c.f.resize(static_cast<std::size_t>(m_n));
        c.ngh.resize(static_cast<std::size_t>(m_n));
        c.stagnant.resize(static_cast<std::size_t>(m_n));
        for (int i = 0; i < m_n; ++i) {
            scout(s, i, 0, 0);
        }
        sort(s);
    }

    // Recruits `bees` around the site at `rank` and keeps the fittest of the patch (site included).
    bool local_search(int s, int rank, int recruits, std::uint32_t cycle) {
        Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        Real* x = &c.x[static_cast<std::size_t>(rank) * m_d];
        const Real ngh = c.ngh[static_cast<std::size_t>(rank)];
        Real best = c.f[static_cast<std::size_t>(rank)];
        bool improved = false;
        for (int k = 0; k < recruits; ++k) {
            for (int d = 0; d < m_d; ++d) {
                const Real u = bees::draw<Real>(m_params.seed, cycle, bee(s, rank), static_cast<std::uint32_t>(k),
                                                static_cast<std::uint32_t>(d));
                m_trial[static_cast<std::size_t>(d)] = bees::patch_coordinate(x[d], lo(s, d), hi(s, d), ngh, u);
            }
            const Real f = evaluate(m_trial.data());
            if (f < best) {
                best = f;
                improved = true;
                std::swap(m_trial, m_candidate);
            }
        }
        if (improved) {
            std::copy(m_candidate.begin(), m_candidate.end(), x);
            c.f[static_cast<std::size_t>(rank)] = best;
        }
        return improved;
    }

    void abandon(int s, int rank, std::uint32_t cycle) {
        Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        const Real f = c.f[static_cast<std::size_t>(rank)];
        if (!c.have_kept || f < c.kept_f) {
            const auto first = c.x.begin() + static_cast<std::ptrdiff_t>(rank) * m_d;
            c.kept_x.assign(first, first + m_d);
            c.kept_f = f;
            c.have_kept = true;
        }
        scout(s, rank, cycle, bees::k_rescout_trial);
    }

    // Steps 4-7 of the BA: local search on the m best sites (nep bees on the e elite, nsp on the rest)
    // with shrinking and abandonment, random scouts on the other n - m, then the sites sorted again.
    void cycle(int s, std::uint32_t t) {
        Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        for (int i = 0; i < m_bees.selected; ++i) {
            const int recruits = i < m_bees.elite ? m_bees.elite_recruits : m_bees.other_recruits;
            const bool improved = local_search(s, i, recruits, t);
            if (bees::after_search(c.ngh[static_cast<std::size_t>(i)], c.stagnant[static_cast<std::size_t>(i)],
                                   improved, static_cast<Real>(m_bees.shrink), m_bees.stlim)) {
                abandon(s, i, t);
            }
        }
        for (int i = m_bees.selected; i < m_n; ++i) {
            scout(s, i, t, 0);
        }
        sort(s);
    }

    // Best first; equal values keep their order, so the ranks (and the draws keyed by them) are reproducible.
    void sort(int s) {
        Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        std::vector<int> order(static_cast<std::size_t>(m_n));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return c.f[static_cast<std::size_t>(a)] < c.f[static_cast<std::size_t>(b)];
        });
        Colony<Real> sorted = c;
        for (int i = 0; i < m_n; ++i) {
            const auto from = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
            const auto to = static_cast<std::size_t>(i);
            std::copy_n(c.x.begin() + static_cast<std::ptrdiff_t>(from) * m_d, m_d,
                        sorted.x.begin() + static_cast<std::ptrdiff_t>(to) * m_d);
            sorted.f[to] = c.f[from];
            sorted.ngh[to] = c.ngh[from];
            sorted.stagnant[to] = c.stagnant[from];
        }
        c = std::move(sorted);
    }

    Real colony_best(int s) const {
        const Colony<Real>& c = m_colonies[static_cast<std::size_t>(s)];
        return c.have_kept ? std::min(c.kept_f, c.f[0]) : c.f[0];
    }

    const Problem& m_problem;
    const Params& m_params;
    const BeesParams& m_bees;
    HostObjective<Real> m_objective;
    int m_s, m_n, m_d;
    std::vector<Colony<Real>> m_colonies;
    std::vector<Real> m_candidate, m_trial;
    long long m_evaluations = 0;
};

} // namespace

Result run_cpu_bees(const Problem& problem, const Params& params, const BeesParams& bees) {
    if (params.precision == Precision::FP64) {
        return CpuBees<double>(problem, params, bees).run();
    }
    return CpuBees<float>(problem, params, bees).run();
}

} // namespace swarm::detail
