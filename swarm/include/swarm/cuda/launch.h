#pragma once
// Host queries about the device and a kernel's launch shape, asked once and cached: each costs microseconds
// of host time that would otherwise fall between a run's start event and its launch, every run (the tracker
// runs one search per video frame; gpu-elementwise asks before every run). Every such query lives here.
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <tuple>

#include "swarm/cuda/check.h"

namespace swarm::gpu {

// An attribute of the current device, asked once (the process uses one device).
template <cudaDeviceAttr Attr>
int device_attribute() {
    static const int v = [] {
        int dev = 0, value = 0;
        SWARM_CUDA_CHECK_THROW(cudaGetDevice(&dev));
        SWARM_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&value, Attr, dev));
        return value;
    }();
    return v;
}

// Streaming multiprocessors of the current device.
inline int sm_count() { return device_attribute<cudaDevAttrMultiProcessorCount>(); }

// Shared memory one block may opt in to (cudaFuncAttributeMaxDynamicSharedMemorySize's ceiling).
inline std::size_t max_shared_optin_bytes() {
    return static_cast<std::size_t>(device_attribute<cudaDevAttrMaxSharedMemoryPerBlockOptin>());
}

// `query()` for this device, kernel, block size and `variant` (a cluster size, a shared-memory size: whatever
// else the answer depends on), computed the first time and cached.
template <typename Kernel, typename Query>
int cached_launch_query(Kernel kernel, int threads, long long variant, Query query) {
    static std::mutex mu;
    static std::map<std::tuple<int, const void*, int, long long>, int> cache;
    int dev = 0;
    SWARM_CUDA_CHECK_THROW(cudaGetDevice(&dev));
    const auto key = std::make_tuple(dev, reinterpret_cast<const void*>(kernel), threads, variant);
    const std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it == cache.end()) {
        it = cache.emplace(key, query()).first;
    }
    return it->second;
}

} // namespace swarm::gpu
