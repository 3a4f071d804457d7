#pragma once
// The SPSO formulas (Algorithm 1 of 000, Eq. 1-2), shared verbatim by the CPU reference and every
// CUDA kernel. Ties between equal fitness values always go to the lower particle index, so reductions
// in any order agree with the sequential reference.
#include <cstdint>

#include "swarm/host_device.h"

namespace swarm::pso {

enum class BoundaryMode : int { Clamp = 0, Reflect = 1, Random = 2 };

template <typename Real>
struct Coefficients {
    Real w, c1, c2;
};

// Eq. 1: v <- w v + c1 r1 (p - x) + c2 r2 (g - x)
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real velocity(Real v, Real x, Real pbest, Real nbest, Coefficients<Real> k, Real r1,
                                             Real r2) {
    return k.w * v + k.c1 * r1 * (pbest - x) + k.c2 * r2 * (nbest - x);
}

// Keep v in [-v_max, v_max]; v_max <= 0 means no clamp. One expression, so a kernel can select instead of branch.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real clamp_velocity(Real v, Real v_max) {
    return v_max <= Real(0) ? v : (v > v_max ? v_max : (v < -v_max ? -v_max : v));
}

// BoundaryMode::Clamp's position rule: outside [lo, hi] (NaN included) the position goes to a bound.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real clamp_position(Real x, Real lo, Real hi) {
    return (x >= lo && x <= hi) ? x : (x < lo ? lo : hi);
}

// Eq. 2 followed by the boundary rule. `r` is a uniform draw used only by BoundaryMode::Random.
// Clamp keeps the velocity (as Algorithm 1 does); Reflect mirrors the position and the velocity.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE void move(Real& x, Real& v, Real lo, Real hi, BoundaryMode mode, Real r) {
    x += v;
    if (x >= lo && x <= hi) {
        return;
    }
    switch (mode) {
    case BoundaryMode::Clamp:
        x = clamp_position(x, lo, hi);
        break;
    case BoundaryMode::Reflect: {
        const Real width = hi - lo;
        Real over = x < lo ? lo - x : x - hi;
        if (width > Real(0)) {
            // fold repeatedly for huge steps, without a loop
            // (k beyond the range of long long, or NaN from a non-finite position, would make the cast
            // undefined: such a step lands at the bound instead. Found by fuzzing.)
            const Real k = over / width;
            if (k < Real(9.0e18)) {
                over -= width * static_cast<Real>(static_cast<long long>(k));
            } else {
                over = Real(0);
            }
        } else {
            over = Real(0);
        }
        x = x < lo ? lo + over : hi - over;
        v = -v;
        break;
    }
    case BoundaryMode::Random:
        x = lo + r * (hi - lo);
        break;
    }
}

// Initial position and velocity from two uniforms in (0, 1].
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real initial_position(Real lo, Real hi, Real u) {
    return lo + u * (hi - lo);
}
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real initial_velocity(Real v_range, Real u) {
    return (Real(2) * u - Real(1)) * v_range;
}

// The velocity clamp of a dimension: fraction of its range, or 0 (none).
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real velocity_limit(Real lo, Real hi, Real fraction) {
    return fraction > Real(0) ? fraction * (hi - lo) : Real(0);
}
// Initial velocity range: the clamp when there is one, else half the dimension's range.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real initial_velocity_range(Real lo, Real hi, Real fraction) {
    return fraction > Real(0) ? fraction * (hi - lo) : Real(0.5) * (hi - lo);
}

// Is (f, i) better than (g, j)? Lower fitness wins; equal fitness goes to the lower index.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE bool better(Real f, int i, Real g, int j) {
    return f < g || (f == g && i < j);
}

// Ring topology (003's RingPSO): particle i's neighbourhood is i-radius .. i+radius around a ring of n.
SWARM_HOST_DEVICE SWARM_INLINE int ring_neighbour(int i, int offset, int n) {
    int j = (i + offset) % n;
    return j < 0 ? j + n : j;
}

} // namespace swarm::pso
