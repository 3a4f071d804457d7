#pragma once
// Kernel-side views of a run: plain structs passed by value, pointing at device buffers. The device
// helpers here (initialise, move, evaluate) are what every PSO kernel calls, so all strategies draw the
// same keyed random numbers and apply the same formulas as the CPU reference.
#include <cstdint>

#include "swarm/benchmark_functions.h"
#include "swarm/detail/philox.h"
#include "swarm/detail/pso_math.h"

namespace swarm::gpu {

template <typename Real>
struct DeviceProblem {
    int swarms = 0, particles = 0, dims = 0;
    const Real* lower = nullptr; // swarms x dims
    const Real* upper = nullptr;
    const Real* vmax = nullptr;  // velocity clamp per swarm x dim (0: none)
    const Real* init_lower = nullptr; // start box, swarms x dims (= lower/upper without one)
    const Real* init_upper = nullptr;
    int init_focus = 0;          // particles per swarm that start in it (Problem::init_focus)
    Function function = Function::Sphere;
    Real sign = 1;               // -1 when maximising: kernels always minimise sign * f
    pso::Coefficients<Real> k{};
    pso::BoundaryMode boundary = pso::BoundaryMode::Clamp;
    Real v_fraction = 0;         // Params::v_max_fraction, for the initial velocity range
    std::uint64_t seed = 0;
    bool ring = false;
    int ring_radius = 1;

    __host__ __device__ std::size_t rows() const { return static_cast<std::size_t>(swarms) * particles; }
};

// Particle-major state: row r = swarm * particles + particle, `dims` values per row.
template <typename Real>
struct StateView {
    Real* x = nullptr;
    Real* v = nullptr;
    Real* p = nullptr;   // personal best positions
    Real* f = nullptr;   // current fitness (minimise form)
    Real* pf = nullptr;  // personal best fitness
};

// Built-in fitness in minimise form.
template <typename Real>
__device__ __forceinline__ Real builtin_fitness(const DeviceProblem<Real>& pb, const Real* x) {
    return pb.sign * fn::evaluate<Real>(pb.function, x, pb.dims);
}

// Initial position and velocity of dimension d of row r (iteration 0 streams).
template <typename Real>
__device__ __forceinline__ void initial_state(const DeviceProblem<Real>& pb, std::size_t r, int d, Real& x, Real& v) {
    const int s = static_cast<int>(r / pb.particles);
    const std::size_t b = static_cast<std::size_t>(s) * pb.dims + d;
    const bool focus = static_cast<int>(r % pb.particles) < pb.init_focus; // starts in the start box
    const Real lo = focus ? pb.init_lower[b] : pb.lower[b], hi = focus ? pb.init_upper[b] : pb.upper[b];
    const auto gi = static_cast<std::uint32_t>(r);
    x = pso::initial_position(lo, hi, rng::uniform<Real>(pb.seed, rng::Stream::InitPosition, 0, gi, d));
    v = pso::initial_velocity(pso::initial_velocity_range(lo, hi, pb.v_fraction),
                              rng::uniform<Real>(pb.seed, rng::Stream::InitVelocity, 0, gi, d));
}

// Eq. 1-2 plus boundary handling for dimension d of row r at iteration t, given the neighbourhood
// best's coordinate `nbest`.
template <typename Real>
__device__ __forceinline__ void move_dimension(const DeviceProblem<Real>& pb, std::size_t r, int d, std::uint32_t t,
                                               Real& x, Real& v, Real pbest, Real nbest) {
    const int s = static_cast<int>(r / pb.particles);
    const std::size_t b = static_cast<std::size_t>(s) * pb.dims + d;
    const auto gi = static_cast<std::uint32_t>(r);
    const Real r1 = rng::uniform<Real>(pb.seed, rng::Stream::R1, t, gi, d);
    const Real r2 = rng::uniform<Real>(pb.seed, rng::Stream::R2, t, gi, d);
    Real nv = pso::clamp_velocity(pso::velocity(v, x, pbest, nbest, pb.k, r1, r2), pb.vmax[b]);
    const Real rb = pb.boundary == pso::BoundaryMode::Random
                        ? rng::uniform<Real>(pb.seed, rng::Stream::Boundary, t, gi, d)
                        : Real(0);
    pso::move(x, nv, pb.lower[b], pb.upper[b], pb.boundary, rb);
    v = nv;
}

} // namespace swarm::gpu
