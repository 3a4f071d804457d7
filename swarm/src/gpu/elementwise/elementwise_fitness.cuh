#pragma once
// Fitness of one particle row in gpu-elementwise, where the row's dimensions are spread over the lanes of
// a (sub-)warp. Functions that are sums/products of per-dimension terms are accumulated lane-locally and
// combined with a butterfly shuffle (every lane ends with the same bits); the rest are "gathered": the
// row's leader reads the freshly written row and calls the shared formula of swarm/benchmark_functions.h.
// The per-term formulas below mirror those in benchmark_functions.h exactly.
#include <cuda_runtime.h>

#include "swarm/benchmark_functions.h"

namespace swarm::gpu::ew {

template <typename Real>
struct Terms {
    Real s1 = 0, s2 = 0, prod = 1;
};

constexpr bool separable(Function f) {
    switch (f) {
    case Function::Sphere:
    case Function::Rastrigin:
    case Function::Griewank:
    case Function::GriewankShifted:
    case Function::Ackley:
    case Function::EasomND:
    case Function::Schwefel:
    case Function::Cubic:
    case Function::Euclidean: return true;
    default: return false;
    }
}

// Adds dimension d's term (d is 0-based).
template <Function F, typename Real>
__device__ __forceinline__ void accumulate(Terms<Real>& a, Real x, int d) {
    using C = fn::Const<Real>;
    if constexpr (F == Function::Sphere || F == Function::Euclidean) {
        a.s1 += x * x;
    } else if constexpr (F == Function::Rastrigin) {
        a.s1 += x * x - Real(10) * cos(Real(2) * C::pi * x);
    } else if constexpr (F == Function::Griewank) {
        a.s1 += x * x;
        a.prod *= cos(x / sqrt(Real(d + 1)));
    } else if constexpr (F == Function::GriewankShifted) {
        const Real z = x - Real(100);
        a.s1 += z * z;
        a.prod *= cos(z / sqrt(Real(d + 2)));
    } else if constexpr (F == Function::Ackley) {
        a.s1 += x * x;
        a.s2 += cos(Real(2) * C::pi * x);
    } else if constexpr (F == Function::EasomND) {
        const Real c = cos(x);
        const Real z = x - C::pi;
        a.prod *= c * c;
        a.s1 += z * z;
    } else if constexpr (F == Function::Schwefel) {
        a.s1 += x * sin(sqrt(fabs(x)));
    } else if constexpr (F == Function::Cubic) {
        a.s1 += x * x * x - Real(0.8) * x * x - Real(1000) * x + Real(8000);
    }
}

template <Function F, typename Real>
__device__ __forceinline__ Real finish(const Terms<Real>& a, int dims) {
    using C = fn::Const<Real>;
    if constexpr (F == Function::Sphere || F == Function::Cubic) {
        return a.s1;
    } else if constexpr (F == Function::Euclidean) {
        return sqrt(a.s1);
    } else if constexpr (F == Function::Rastrigin) {
        return Real(10) * Real(dims) + a.s1;
    } else if constexpr (F == Function::Griewank || F == Function::GriewankShifted) {
        return a.s1 / Real(4000) - a.prod + Real(1);
    } else if constexpr (F == Function::Ackley) {
        return -Real(20) * exp(-Real(0.2) * sqrt(a.s1 / Real(dims))) - exp(a.s2 / Real(dims)) + Real(20) + C::e;
    } else if constexpr (F == Function::EasomND) {
        const Real sign = (dims % 2 == 0) ? Real(-1) : Real(1);
        return sign * a.prod * exp(-a.s1);
    } else if constexpr (F == Function::Schwefel) {
        return Real(418.9828872724338) * Real(dims) - a.s1;
    } else {
        return Real(0);
    }
}

// Which sums of Terms a function uses besides s1.
constexpr bool uses_s2(Function f) { return f == Function::Ackley; }
constexpr bool uses_prod(Function f) {
    return f == Function::Griewank || f == Function::GriewankShifted || f == Function::EasomND;
}

// A lane's Terms kept in shared memory between two passes: only the sums the function uses.
template <Function F, typename Real>
__device__ __forceinline__ void store_terms(Terms<Real>* at, const Terms<Real>& a) {
    at->s1 = a.s1;
    if constexpr (uses_s2(F)) at->s2 = a.s2;
    if constexpr (uses_prod(F)) at->prod = a.prod;
}
template <Function F, typename Real>
__device__ __forceinline__ Terms<Real> load_terms(const Terms<Real>* at) {
    Terms<Real> a;
    a.s1 = at->s1;
    if constexpr (uses_s2(F)) a.s2 = at->s2;
    if constexpr (uses_prod(F)) a.prod = at->prod;
    return a;
}

// Butterfly over `width` lanes (a power of two up to 32): every lane of the segment gets the combination.
template <Function F, typename Real>
__device__ __forceinline__ Terms<Real> combine(Terms<Real> a, int width) {
    // Unrolled over the five possible steps, each taken where the segment is wider: a test a step instead of a
    // loop's shift, compare and branch, on a pass that runs once per row.
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        if (off < width) {
            a.s1 += __shfl_xor_sync(0xffffffffu, a.s1, off, width);
            if constexpr (uses_s2(F)) a.s2 += __shfl_xor_sync(0xffffffffu, a.s2, off, width);
            if constexpr (uses_prod(F)) a.prod *= __shfl_xor_sync(0xffffffffu, a.prod, off, width);
        }
    }
    return a;
}

} // namespace swarm::gpu::ew
