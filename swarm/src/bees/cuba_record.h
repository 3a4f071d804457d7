#pragma once
// The per-cycle overall best of gpu-bees, reduced on the device: each block folds its colonies' bests
// into one value per cycle and the blocks fold theirs into a few buckets with an integer atomicMin, so
// the host reads cycles x k_record_buckets values per launch instead of cycles x colonies. Floats are
// compared through an order-preserving unsigned key (IEEE sign-magnitude mapped to two's-complement
// order), which atomicMin supports for 32- and 64-bit words. Plain C++ so host tests check the mapping.
#include <cstdint>
#include <cstring>

#include "swarm/host_device.h"

namespace swarm::bees {

// Buckets per cycle (block b folds into b % buckets): spreads the same-address atomics of thousands of
// blocks over several L2 lines; the host takes the minimum of the buckets.
constexpr int k_record_buckets = 32;

template <typename Real>
struct OrderedKey;

template <>
struct OrderedKey<float> {
    using Word = unsigned int;
    static constexpr Word k_sign = 0x80000000u;
};

template <>
struct OrderedKey<double> {
    using Word = unsigned long long;
    static constexpr Word k_sign = 0x8000000000000000ull;
};

template <typename Real>
using KeyWord = typename OrderedKey<Real>::Word;

// Unsigned key with key(a) < key(b) exactly when a < b (and -0 just below +0). NaN of either sign maps
// above +inf, so a NaN value never wins the minimum. The all-ones word (the memset fill) is above every
// real value's key: "nothing recorded yet".
template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE KeyWord<Real> ordered_key(Real v) {
    using W = KeyWord<Real>;
    constexpr W sign = OrderedKey<Real>::k_sign;
    if (v != v) {
        return ~W(0) - 1; // NaN: worst, but distinguishable from "empty"
    }
    W u;
    memcpy(&u, &v, sizeof(u));
    return (u & sign) ? ~u : (u | sign);
}

template <typename Real>
SWARM_HOST_DEVICE SWARM_INLINE Real from_ordered_key(KeyWord<Real> k) {
    using W = KeyWord<Real>;
    constexpr W sign = OrderedKey<Real>::k_sign;
    const W u = (k & sign) ? (k & ~sign) : ~k;
    Real v;
    memcpy(&v, &u, sizeof(v));
    return v;
}

} // namespace swarm::bees
