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

// Thread-block clusters (compute capability 9.0): portable up to 8 blocks, 16 with the non-portable opt-in.
constexpr int k_max_cluster_blocks = 16;

// A launch configuration of `blocks` blocks in clusters of `cluster` (attr is its storage).
inline void cluster_config(cudaLaunchConfig_t& cfg, cudaLaunchAttribute& attr, int blocks, int threads,
                           int cluster, cudaStream_t stream) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned>(cluster);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(static_cast<unsigned>(blocks));
    cfg.blockDim = dim3(static_cast<unsigned>(threads));
    cfg.dynamicSmemBytes = 0;
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
}

// Clusters of `cluster` blocks of `threads` of the cluster form of `kernel` that can be resident at once here:
// 0 without a device of compute capability 9.0 or later, or without the kernel built for it (a build without
// sm_90 has only the grid form's code there).
template <typename Kernel>
int resident_clusters(Kernel kernel, int threads, int cluster, cudaStream_t stream) {
    if (device_attribute<cudaDevAttrComputeCapabilityMajor>() < 9 || cluster < 1 || cluster > k_max_cluster_blocks) {
        return 0;
    }
    // A failed query means no cluster form here, not a failed run: clear the error and use the grid form.
    auto ok = [](cudaError_t e) {
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
        }
        return e == cudaSuccess;
    };
    cudaFuncAttributes fa{};
    if (!ok(cudaFuncGetAttributes(&fa, kernel)) || fa.binaryVersion < 90) {
        return 0;
    }
    if (cluster > 8 && !ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1))) {
        return 0;
    }
    cudaLaunchConfig_t cfg{};
    cudaLaunchAttribute attr{};
    cluster_config(cfg, attr, cluster, threads, cluster, stream);
    int active = 0;
    return ok(cudaOccupancyMaxActiveClusters(&active, kernel, &cfg)) ? active : 0;
}

} // namespace swarm::gpu
