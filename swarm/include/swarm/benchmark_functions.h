#pragma once
// Benchmark formulas, written once for host and device (SWARM_HOST_DEVICE). `Real` is float or double.
#include <cmath>

#include "swarm/functions.h"
#include "swarm/host_device.h"

namespace swarm::fn {

// std:: overloads keep float math in float on the host; nvcc maps them to the device intrinsics.
using std::cos;
using std::exp;
using std::fabs;
using std::sin;
using std::sqrt;

template <typename Real>
struct Const {
    static constexpr Real pi = Real(3.14159265358979323846);
    static constexpr Real e = Real(2.71828182845904523536);
};

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real sphere(const Real* x, int d) {
    Real s = 0;
    for (int i = 0; i < d; ++i) {
        s += x[i] * x[i];
    }
    return s;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real rastrigin(const Real* x, int d) {
    Real s = Real(10) * Real(d);
    for (int i = 0; i < d; ++i) {
        s += x[i] * x[i] - Real(10) * cos(Real(2) * Const<Real>::pi * x[i]);
    }
    return s;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real rosenbrock(const Real* x, int d) {
    Real s = 0;
    for (int i = 0; i + 1 < d; ++i) {
        const Real a = x[i + 1] - x[i] * x[i];
        const Real b = x[i] - Real(1);
        s += Real(100) * a * a + b * b;
    }
    return s;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real griewank(const Real* x, int d) {
    Real s = 0, p = 1;
    for (int i = 0; i < d; ++i) {
        s += x[i] * x[i];
        p *= cos(x[i] / sqrt(Real(i + 1)));
    }
    return s / Real(4000) - p + Real(1);
}

// CUBA's shifted Griewank as its Table 4-2 prints it: z = x - 100 and cos(z_i / sqrt(i + 1)) with
// 1-based i, so the minimum moves to x = 100.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real griewank_shifted(const Real* x, int d) {
    Real s = 0, p = 1;
    for (int i = 0; i < d; ++i) {
        const Real z = x[i] - Real(100);
        s += z * z;
        p *= cos(z / sqrt(Real(i + 2)));
    }
    return s / Real(4000) - p + Real(1);
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real ackley(const Real* x, int d) {
    Real sq = 0, cs = 0;
    for (int i = 0; i < d; ++i) {
        sq += x[i] * x[i];
        cs += cos(Real(2) * Const<Real>::pi * x[i]);
    }
    return -Real(20) * exp(-Real(0.2) * sqrt(sq / Real(d))) - exp(cs / Real(d)) + Real(20) + Const<Real>::e;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real easom(const Real* x, int /*d*/) {
    const Real a = x[0] - Const<Real>::pi, b = x[1] - Const<Real>::pi;
    return -cos(x[0]) * cos(x[1]) * exp(-(a * a + b * b));
}

// FastPSO: f(x) = -(-1)^d (prod cos^2 x_i) exp(-sum (x_i - pi)^2)
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real easom_nd(const Real* x, int d) {
    Real p = 1, s = 0;
    for (int i = 0; i < d; ++i) {
        const Real c = cos(x[i]);
        const Real z = x[i] - Const<Real>::pi;
        p *= c * c;
        s += z * z;
    }
    const Real sign = (d % 2 == 0) ? Real(-1) : Real(1);
    return sign * p * exp(-s);
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real schwefel(const Real* x, int d) {
    Real s = 0;
    for (int i = 0; i < d; ++i) {
        s += x[i] * sin(sqrt(fabs(x[i])));
    }
    return Real(418.9828872724338) * Real(d) - s;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real schaffer_f6(const Real* x, int /*d*/) {
    const Real r2 = x[0] * x[0] + x[1] * x[1];
    const Real s = sin(sqrt(r2));
    const Real q = Real(1) + Real(0.001) * r2;
    return Real(0.5) + (s * s - Real(0.5)) / (q * q);
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real goldstein_price(const Real* x, int /*d*/) {
    const Real a = x[0], b = x[1];
    const Real t1 = a + b + Real(1);
    const Real t2 = Real(19) - Real(14) * a + Real(3) * a * a - Real(14) * b + Real(6) * a * b + Real(3) * b * b;
    const Real t3 = Real(2) * a - Real(3) * b;
    const Real t4 = Real(18) - Real(32) * a + Real(12) * a * a + Real(48) * b - Real(36) * a * b + Real(27) * b * b;
    return (Real(1) + t1 * t1 * t2) * (Real(30) + t3 * t3 * t4);
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real martin_gaddy(const Real* x, int /*d*/) {
    const Real a = x[0] - x[1];
    const Real b = (x[0] + x[1] - Real(10)) / Real(3);
    return a * a + b * b;
}

// cuPSO Eq. 3: sum x^3 - 0.8 x^2 - 1000 x + 8000 on [-100, 100].
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real cubic(const Real* x, int d) {
    Real s = 0;
    for (int i = 0; i < d; ++i) {
        const Real v = x[i];
        s += v * v * v - Real(0.8) * v * v - Real(1000) * v + Real(8000);
    }
    return s;
}

// CPSO Eq. 4: distance from the origin, sqrt(x^2 + y^2) (any dimension).
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real euclidean(const Real* x, int d) {
    return sqrt(sphere(x, d));
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real evaluate(Function f, const Real* x, int d) {
    switch (f) {
    case Function::Sphere: return sphere(x, d);
    case Function::Rastrigin: return rastrigin(x, d);
    case Function::Rosenbrock: return rosenbrock(x, d);
    case Function::Griewank: return griewank(x, d);
    case Function::GriewankShifted: return griewank_shifted(x, d);
    case Function::Ackley: return ackley(x, d);
    case Function::Easom: return easom(x, d);
    case Function::EasomND: return easom_nd(x, d);
    case Function::Schwefel: return schwefel(x, d);
    case Function::SchafferF6: return schaffer_f6(x, d);
    case Function::GoldsteinPrice: return goldstein_price(x, d);
    case Function::MartinGaddy: return martin_gaddy(x, d);
    case Function::Cubic: return cubic(x, d);
    case Function::Euclidean: return euclidean(x, d);
    }
    return Real(0);
}

// The same, when the function is a compile-time constant (kernels instantiate one per function).
template <Function F, typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real evaluate(const Real* x, int d) {
    return evaluate<Real>(F, x, d);
}

} // namespace swarm::fn
