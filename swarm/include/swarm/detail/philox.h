#pragma once
// Counter-based random numbers keyed by (seed, stream, iteration, particle, dimension), so the CPU
// reference and every GPU kernel draw exactly the same numbers whatever their thread layout.
//
// The generator is cuRAND's Philox4x32-10 (curand_Philox4x32_10, which cuRAND makes host-callable).
// Builds without the CUDA toolkit use an equivalent implementation of the published algorithm; a unit
// test checks the two agree bit for bit whenever both are present.
#include <cstdint>

#include "swarm/host_device.h"

#if defined(SWARM_HAVE_CURAND)
#include <cuda_runtime.h>
#if !defined(QUALIFIERS)
#define QUALIFIERS static __forceinline__ __host__ __device__
#endif
#include <curand_philox4x32_x.h>
#endif

namespace swarm::rng {

// What a draw is for; part of the counter, so streams never overlap.
enum class Stream : std::uint32_t {
    InitPosition = 0,
    InitVelocity = 1,
    R1 = 2,       // cognitive coefficient's random factor
    R2 = 3,       // social coefficient's random factor
    Boundary = 4, // Boundary::Random re-draws
    Bees = 5,     // Bees Algorithm (scouts and recruits)
};

struct Words {
    std::uint32_t v[4];
};

// Philox4x32-10 as specified by Salmon et al. (SC'11): 10 rounds, Weyl key schedule.
SWARM_HOST_DEVICE SWARM_INLINE Words philox4x32_10_portable(Words c, std::uint32_t k0, std::uint32_t k1) {
    constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
    constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
        const std::uint64_t p0 = static_cast<std::uint64_t>(m0) * c.v[0];
        const std::uint64_t p1 = static_cast<std::uint64_t>(m1) * c.v[2];
        const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
        const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
        c = Words{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
        k0 += w0;
        k1 += w1;
    }
    return c;
}

SWARM_HOST_DEVICE SWARM_INLINE Words philox4x32_10(Words c, std::uint64_t seed) {
    const auto k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
#if defined(SWARM_HAVE_CURAND)
    const uint4 r = curand_Philox4x32_10(make_uint4(c.v[0], c.v[1], c.v[2], c.v[3]), make_uint2(k0, k1));
    return Words{{r.x, r.y, r.z, r.w}};
#else
    return philox4x32_10_portable(c, k0, k1);
#endif
}

// The counter for four consecutive dimensions [4*dim_block, 4*dim_block + 3] of one particle.
SWARM_HOST_DEVICE SWARM_INLINE Words counter(Stream stream, std::uint32_t iteration, std::uint32_t particle,
                                             std::uint32_t dim_block) {
    return Words{{dim_block, particle, iteration, static_cast<std::uint32_t>(stream)}};
}

// cuRAND's integer-to-uniform mapping (curand_uniform): (0, 1], never 0.
SWARM_HOST_DEVICE SWARM_INLINE float to_uniform_float(std::uint32_t x) {
    return static_cast<float>(x) * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
}
SWARM_HOST_DEVICE SWARM_INLINE double to_uniform_double(std::uint32_t x) {
    return static_cast<double>(x) * 2.3283064365386963e-10 + 1.1641532182693481e-10;
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real to_uniform(std::uint32_t x) {
    if constexpr (sizeof(Real) == sizeof(float)) {
        return to_uniform_float(x);
    } else {
        return to_uniform_double(x);
    }
}

// Word i of a block without a run-time-indexed array (which would spill to local memory on the GPU).
SWARM_HOST_DEVICE SWARM_INLINE std::uint32_t pick(const Words& w, std::uint32_t i) {
    return i == 0 ? w.v[0] : i == 1 ? w.v[1] : i == 2 ? w.v[2] : w.v[3];
}

// One uniform for (stream, iteration, particle, dim). `particle` is the global index swarm * N + p.
// Kernels that need all four dims of a block call philox4x32_10 once and use every word.
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real uniform(std::uint64_t seed, Stream stream, std::uint32_t iteration,
                                            std::uint32_t particle, std::uint32_t dim) {
    const Words w = philox4x32_10(counter(stream, iteration, particle, dim >> 2), seed);
    return to_uniform<Real>(pick(w, dim & 3u));
}

} // namespace swarm::rng
