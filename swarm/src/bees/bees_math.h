#pragma once
// Bees Algorithm rules shared by cpu-bees, the CUBA kernels and their host emulation: the keyed random
// draws, the patch step, neighbourhood shrinking, site abandonment, the odd-even sort's pairing and the
// two-phase exchange between colonies. Written once for host and device so the tests check the very
// rules the GPU runs.
#include <cstdint>

#include "swarm/detail/philox.h"
#include "swarm/host_device.h"

namespace swarm::bees {

// Counter layout of every bees draw (both strategies): {dim_block, bee, cycle, Stream::Bees | trial << 8},
// with bee = colony * n + rank (the site's rank in its colony after the last sort), cycle 0 for the
// initial scouts, trial = which draw of that bee in that cycle (recruit k, 0 for scouts). The low byte
// of word 3 keeps the PSO streams (< 256) disjoint from every bees counter.
constexpr std::uint32_t k_rescout_trial = 0xFFFFFFu; // cpu-bees: the scout replacing an abandoned site

SWARM_HOST_DEVICE SWARM_INLINE rng::Words draw_block(std::uint64_t seed, std::uint32_t cycle, std::uint32_t bee,
                                                    std::uint32_t trial, std::uint32_t dim_block) {
    const rng::Words c{{dim_block, bee, cycle, static_cast<std::uint32_t>(rng::Stream::Bees) | (trial << 8)}};
    return rng::philox4x32_10(c, seed);
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real draw(std::uint64_t seed, std::uint32_t cycle, std::uint32_t bee,
                                         std::uint32_t trial, std::uint32_t dim) {
    return rng::to_uniform<Real>(rng::pick(draw_block(seed, cycle, bee, trial, dim >> 2), dim & 3u));
}

// A scout's coordinate: uniform over [lo, hi] from u in (0, 1].
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real scout_coordinate(Real lo, Real hi, Real u) {
    return lo + u * (hi - lo);
}

// A recruit's coordinate: uniform within +-ngh * range of the site (CUBA's 2 (r - 0.5) ngh), kept inside.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real patch_coordinate(Real x, Real lo, Real hi, Real ngh, Real u) {
    const Real y = x + (Real(2) * u - Real(1)) * ngh * (hi - lo);
    return y < lo ? lo : (y > hi ? hi : y);
}

// Neighbourhood shrinking (Pham & Castellani 2009): unchanged after an improvement, shrink x ngh otherwise.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real next_ngh(Real ngh, bool improved, Real shrink) {
    return improved ? ngh : ngh * shrink;
}

// One selected site after its cycle's local search: shrinking, then the stagnation count. Returns true
// when the site is to be abandoned (stlim consecutive cycles without improvement).
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE bool after_search(Real& ngh, int& stagnant, bool improved, Real shrink, int stlim) {
    ngh = next_ngh(ngh, improved, shrink);
    stagnant = improved ? 0 : stagnant + 1;
    return stagnant >= stlim;
}

// Odd-even transposition sort: in phase p, the site at rank r compares with rank r + 1 when r has p's
// parity. n phases sort n sites; each phase's pairs are disjoint, so one thread per site needs no locks.
SWARM_HOST_DEVICE SWARM_INLINE bool sorts_with_next(int rank, int phase, int n) {
    return (rank & 1) == (phase & 1) && rank + 1 < n;
}

// Two-phase exchange (CUBA §3.2.3.4): after cycle t (1-based) colony i of the `count` colonies in a block
// receives the best site of colony exchange_source(i, t, count) into its worst selected slot. Odd cycles
// use the adjacent phase (odd i <- i+1, even i <- i-1), even cycles the skip-one phase (odd i <- i+2,
// even i <- i-2), modulo count. Returns i itself when there is nobody to exchange with.
SWARM_HOST_DEVICE SWARM_INLINE int exchange_source(int colony, long long cycle, int count) {
    if (count < 2) {
        return colony;
    }
    const int step = (cycle & 1) ? 1 : 2;
    const int j = (colony + ((colony & 1) ? step : -step)) % count;
    return j < 0 ? j + count : j;
}

} // namespace swarm::bees
