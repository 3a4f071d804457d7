#pragma once
// One CUDA block of CUBA (004 Ch. 3): `per_block` colonies of n bees, one thread per bee, rows in shared
// memory. Each function below is what ONE thread does between two barriers; the kernel calls them with
// __syncthreads() in between and the host emulation (cuba_host.cpp) calls them for every row in turn,
// so both run the same arithmetic on the same keyed draws.
//
// Fixes to the thesis' printed code (seed-notes §5.3): real barriers; each colony sorted on its own; the
// exchange direction as the text states it, with a non-negative modulo; ngh stored per site and moved
// with the site by the sort and the exchange; the incoming site staged before it is written, so a colony
// never reads a row another colony is overwriting.
#include <cstdint>

#include "bees/bees_math.h"
#include "swarm/benchmark_functions.h"

namespace swarm::bees {

template <typename Real>
struct CubaShape {
    int n = 0;        // bees (sites) per colony
    int m = 0;        // selected sites per colony
    int nep = 0;      // neighbourhood searches per selected site and cycle
    int dims = 0;
    int stride = 0;   // row length of the block arrays, >= dims + 2
    Real ngh0 = 1;    // initial patch size (fraction of the range)
    Real shrink = Real(0.8);
    Real sign = 1;    // -1 turns a maximised function into the minimise form
    Function function = Function::Sphere;
    std::uint64_t seed = 1;
};

// Row stride for `dims`: room for the staged [x..., f, ngh]; odd, so rows start in different banks.
SWARM_HOST_DEVICE SWARM_INLINE int cuba_stride(int dims) {
    return (dims + 2) | 1;
}

// One block's rows (row = colony_in_block * n + rank).
template <typename Real>
struct BlockRows {
    Real* x;     // site coordinates, `stride` apart
    Real* stage; // per-row scratch, `stride` apart: a recruit's coordinates, or the incoming site
    Real* f;     // site value, minimise form
    Real* ngh;   // site patch size
};

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real cuba_value(const CubaShape<Real>& k, const Real* x) {
    return k.sign * fn::evaluate<Real>(k.function, x, k.dims);
}

// Parallel initialisation (cycle 0) and the n - m random scouts of every cycle.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE void cuba_scout(const CubaShape<Real>& k, const BlockRows<Real>& b, int row,
                                               std::uint32_t bee, std::uint32_t cycle, const Real* lo, const Real* hi) {
    Real* x = b.x + row * k.stride;
    for (int d0 = 0; d0 < k.dims; d0 += 4) {
        const rng::Words w = draw_block(k.seed, cycle, bee, 0, static_cast<std::uint32_t>(d0 >> 2));
        for (int j = 0; j < 4 && d0 + j < k.dims; ++j) {
            x[d0 + j] = scout_coordinate(lo[d0 + j], hi[d0 + j], rng::to_uniform<Real>(rng::pick(w, j)));
        }
    }
    b.f[row] = cuba_value(k, x);
    b.ngh[row] = k.ngh0;
}

// A selected site (rank < m) gets nep greedy neighbourhood searches and shrinks its own ngh when none
// improved it; any other bee scouts (a fresh uniform site, always taken, ngh back to ngh0). Returns the
// evaluations done. Scouts and recruits share one loop whose first trial both take: in a warp of mixed
// ranks the scouts' draws and evaluation run alongside the recruits' first trial instead of as a second,
// divergent path (a scout draws trial 0 of its cycle, exactly as cuba_scout does).
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE int cuba_forage(const CubaShape<Real>& k, const BlockRows<Real>& b, int row, int rank,
                                               std::uint32_t bee, std::uint32_t cycle, const Real* lo, const Real* hi) {
    const bool scout = rank >= k.m;
    const int trials = scout ? 1 : k.nep;
    Real* x = b.x + row * k.stride;
    Real* y = b.stage + row * k.stride;
    const Real ngh = b.ngh[row];
    Real f = b.f[row];
    bool improved = false;
    for (int t = 0; t < trials; ++t) {
        for (int d0 = 0; d0 < k.dims; d0 += 4) {
            const rng::Words w = draw_block(k.seed, cycle, bee, static_cast<std::uint32_t>(t),
                                            static_cast<std::uint32_t>(d0 >> 2));
            for (int j = 0; j < 4 && d0 + j < k.dims; ++j) {
                const int d = d0 + j;
                const Real u = rng::to_uniform<Real>(rng::pick(w, j));
                y[d] = scout ? scout_coordinate(lo[d], hi[d], u) : patch_coordinate(x[d], lo[d], hi[d], ngh, u);
            }
        }
        const Real g = cuba_value(k, y);
        if (scout || g < f) {
            f = g;
            improved = true;
            for (int d = 0; d < k.dims; ++d) {
                x[d] = y[d];
            }
        }
    }
    b.f[row] = f;
    b.ngh[row] = scout ? k.ngh0 : next_ngh(ngh, improved, k.shrink);
    return trials;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE void cuba_swap_rows(const CubaShape<Real>& k, const BlockRows<Real>& b, int r, int s) {
    Real* x = b.x + r * k.stride;
    Real* y = b.x + s * k.stride;
    for (int d = 0; d < k.dims; ++d) {
        const Real t = x[d];
        x[d] = y[d];
        y[d] = t;
    }
    const Real f = b.f[r], g = b.ngh[r];
    b.f[r] = b.f[s];
    b.ngh[r] = b.ngh[s];
    b.f[s] = f;
    b.ngh[s] = g;
}

// One phase of the odd-even transposition sort of a colony, best (lowest value) first. Strict `<`
// keeps equal sites in place, so the order is reproducible.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE void cuba_sort_step(const CubaShape<Real>& k, const BlockRows<Real>& b, int row, int rank,
                                                   int phase) {
    if (sorts_with_next(rank, phase, k.n) && b.f[row + 1] < b.f[row]) {
        cuba_swap_rows(k, b, row, row + 1);
    }
}

// The colony's receiving slot: its worst selected site. With m = 1 there is none to spare (the only
// selected site is the colony's best), so such colonies do not exchange.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE bool cuba_receives(const CubaShape<Real>& k, int rank, int colony, long long cycle,
                                                  int count, int& source) {
    if (k.m < 2 || rank != k.m - 1) {
        return false;
    }
    source = exchange_source(colony, cycle, count);
    return source != colony;
}

// Exchange, first half: copy the source colony's best site (rank 0) into this row's stage.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE void cuba_exchange_stage(const CubaShape<Real>& k, const BlockRows<Real>& b, int row,
                                                        int rank, int colony, long long cycle, int count) {
    int source = 0;
    if (!cuba_receives(k, rank, colony, cycle, count, source)) {
        return;
    }
    const int from = source * k.n;
    Real* s = b.stage + row * k.stride;
    const Real* x = b.x + from * k.stride;
    for (int d = 0; d < k.dims; ++d) {
        s[d] = x[d];
    }
    s[k.dims] = b.f[from];
    s[k.dims + 1] = b.ngh[from];
}

// Exchange, second half (after a barrier): the staged site replaces this colony's worst selected site.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE void cuba_exchange_commit(const CubaShape<Real>& k, const BlockRows<Real>& b, int row,
                                                         int rank, int colony, long long cycle, int count) {
    int source = 0;
    if (!cuba_receives(k, rank, colony, cycle, count, source)) {
        return;
    }
    const Real* s = b.stage + row * k.stride;
    Real* x = b.x + row * k.stride;
    for (int d = 0; d < k.dims; ++d) {
        x[d] = s[d];
    }
    b.f[row] = s[k.dims];
    b.ngh[row] = s[k.dims + 1];
}

// A colony's best value after the exchange: its sorted best, or the site it just received.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real cuba_colony_best(const CubaShape<Real>& k, const BlockRows<Real>& b, int first_row) {
    const Real a = b.f[first_row], c = b.f[first_row + k.m - 1];
    return c < a ? c : a;
}

} // namespace swarm::bees
