// Host emulation of the gpu-bees kernel: every block's rows in host arrays, each per-thread step of
// cuba_block.h applied to every row between the points where the kernel has a barrier.
#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "bees/cuba_block.h"
#include "bees/cuba_plan.h"
#include "swarm/detail/stopping.h"

namespace swarm::detail {
namespace {

template <typename Real>
Result emulate(const Problem& problem, const Params& params, const BeesParams& bees, int per_block) {
    const auto t0 = std::chrono::steady_clock::now();
    BeesParams layout = bees;
    layout.colonies_per_block = per_block;
    const CubaPlan plan = plan_cuba(problem, params, layout, sizeof(Real), std::numeric_limits<std::size_t>::max());
    bees::CubaShape<Real> k;
    k.n = params.particles;
    k.m = bees.selected;
    k.nep = bees.elite_recruits;
    k.dims = problem.dims;
    k.stride = plan.stride;
    k.ngh0 = static_cast<Real>(bees.ngh);
    k.shrink = static_cast<Real>(bees.shrink);
    k.sign = problem.goal == Goal::Maximise ? Real(-1) : Real(1);
    k.function = problem.function;
    k.seed = params.seed;
    const int n = k.n, S = params.swarms, D = problem.dims;
    std::vector<Real> lo, hi;
    for (double v : colony_bounds(problem, S, false)) lo.push_back(static_cast<Real>(v));
    for (double v : colony_bounds(problem, S, true)) hi.push_back(static_cast<Real>(v));

    const std::size_t rows = static_cast<std::size_t>(plan.blocks) * plan.threads;
    std::vector<Real> x(rows * k.stride), stage(rows * k.stride), f(rows), ngh(rows);
    auto block = [&](int b) {
        const std::size_t r0 = static_cast<std::size_t>(b) * plan.threads;
        return bees::BlockRows<Real>{x.data() + r0 * k.stride, stage.data() + r0 * k.stride, f.data() + r0, ngh.data() + r0};
    };
    auto colonies_in = [&](int b) { return std::min(plan.per_block, S - b * plan.per_block); };
    // Calls step(rows, row, rank, colony_in_block, global colony) for every active row of every block.
    auto each_row = [&](auto&& step) {
        for (int b = 0; b < plan.blocks; ++b) {
            const bees::BlockRows<Real> br = block(b);
            for (int r = 0; r < colonies_in(b) * n; ++r) {
                step(br, r, r % n, r / n, b * plan.per_block + r / n, colonies_in(b));
            }
        }
    };
    auto bee = [&](int colony, int rank) { return static_cast<std::uint32_t>(colony * n + rank); };
    auto sort_all = [&] {
        for (int phase = 0; phase < n; ++phase) {
            each_row([&](const auto& br, int r, int rank, int, int, int) { bees::cuba_sort_step(k, br, r, rank, phase); });
        }
    };

    each_row([&](const auto& br, int r, int rank, int, int c, int) {
        bees::cuba_scout(k, br, r, bee(c, rank), 0, &lo[static_cast<std::size_t>(c) * D], &hi[static_cast<std::size_t>(c) * D]);
    });
    sort_all();

    Result res;
    res.swarms.resize(static_cast<std::size_t>(S));
    StopRule stop(params, problem.known_optimum);
    long long t = 0;
    while (true) {
        ++t;
        const auto cycle = static_cast<std::uint32_t>(t);
        each_row([&](const auto& br, int r, int rank, int, int c, int) {
            bees::cuba_forage(k, br, r, rank, bee(c, rank), cycle, &lo[static_cast<std::size_t>(c) * D],
                              &hi[static_cast<std::size_t>(c) * D]);
        });
        sort_all();
        each_row([&](const auto& br, int r, int rank, int cb, int, int count) {
            bees::cuba_exchange_stage(k, br, r, rank, cb, t, count);
        });
        each_row([&](const auto& br, int r, int rank, int cb, int, int count) {
            bees::cuba_exchange_commit(k, br, r, rank, cb, t, count);
        });
        Real overall = std::numeric_limits<Real>::infinity();
        each_row([&](const auto& br, int r, int rank, int, int c, int) {
            if (rank == 0) {
                const Real v = bees::cuba_colony_best(k, br, r);
                overall = std::min(overall, v);
                if (params.record_history) {
                    res.swarms[static_cast<std::size_t>(c)].history.push_back(static_cast<double>(k.sign * v));
                }
            }
        });
        if (stop.after_iteration(t, static_cast<double>(k.sign * overall), problem.goal == Goal::Maximise)) {
            break;
        }
    }

    // Each colony's best row (lowest value, first on ties).
    std::vector<Real> best(static_cast<std::size_t>(S), std::numeric_limits<Real>::infinity());
    std::vector<std::size_t> where(static_cast<std::size_t>(S));
    for (int b = 0; b < plan.blocks; ++b) {
        for (int r = 0; r < colonies_in(b) * n; ++r) {
            const std::size_t row = static_cast<std::size_t>(b) * plan.threads + r;
            const auto c = static_cast<std::size_t>(b * plan.per_block + r / n);
            if (r % n == 0 || f[row] < best[c]) {
                best[c] = f[row];
                where[c] = row;
            }
        }
    }
    for (int c = 0; c < S; ++c) {
        auto& sr = res.swarms[static_cast<std::size_t>(c)];
        const Real* p = &x[where[static_cast<std::size_t>(c)] * k.stride];
        sr.best_position.assign(p, p + D);
        sr.best_fitness = static_cast<double>(k.sign * best[static_cast<std::size_t>(c)]);
        if (best[static_cast<std::size_t>(c)] < best[static_cast<std::size_t>(res.best_swarm)]) {
            res.best_swarm = c;
        }
    }
    res.iterations = t;
    res.evaluations = cuba_evaluations(params, bees, t);
    res.stop_reason = stop.reason();
    res.strategy = Strategy::GpuBees;
    res.device = "host emulation of gpu-bees";
    res.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

} // namespace

Result run_cuba_host(const Problem& problem, const Params& params, const BeesParams& bees, int per_block) {
    params.validate();
    bees.validate(params);
    problem.validate(params.swarms);
    if (params.precision == Precision::FP64) {
        return emulate<double>(problem, params, bees, per_block);
    }
    return emulate<float>(problem, params, bees, per_block);
}

} // namespace swarm::detail
