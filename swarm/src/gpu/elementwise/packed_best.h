#pragma once
// A (fitness, row) pair as one 64-bit key whose unsigned order is pso::better's, written for host and device
// so that the CPU tests check the order the kernel relies on. gpu-elementwise's one-launch kernel merges its
// blocks' fp32 results with one atomicMin on such a key, so phase B reads the swarm best in one load instead
// of reducing gridDim.x block results after every grid barrier (elementwise_persistent.cuh).
//
// High half: the fitness's bits made monotonic (sign bit set for positives and +0, all bits flipped for
// negatives), -0 as +0 (equal fitness: the lower row wins, as in pso::better) and every NaN above everything
// (pso::better: a NaN is never better). Low half: the row, as unsigned.
#include <cstdint>
#include <cstring>

#include "swarm/host_device.h"

namespace swarm::gpu::ew {

struct UnpackedBest {
    float f;
    int row;
};

SWARM_HOST_DEVICE SWARM_INLINE std::uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}

SWARM_HOST_DEVICE SWARM_INLINE float bits_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
#endif
}

// The largest key: what every result beats (the merge's start, reset before each use).
constexpr std::uint64_t k_no_packed_best = ~std::uint64_t{0};

SWARM_HOST_DEVICE SWARM_INLINE std::uint64_t pack_best(float f, int row) {
    std::uint32_t u = float_bits(f == 0.0f ? 0.0f : f);
    u = (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
    if (f != f) u = 0xffffffffu;
    return (static_cast<std::uint64_t>(u) << 32) | static_cast<std::uint32_t>(row);
}

// The pair pack_best packed (-0 comes back as +0, a NaN as the NaN with every fraction bit set).
SWARM_HOST_DEVICE SWARM_INLINE UnpackedBest unpack_best(std::uint64_t key) {
    const auto u = static_cast<std::uint32_t>(key >> 32);
    return {bits_float((u & 0x80000000u) != 0u ? (u & 0x7fffffffu) : ~u),
            static_cast<int>(static_cast<std::uint32_t>(key))};
}

} // namespace swarm::gpu::ew
