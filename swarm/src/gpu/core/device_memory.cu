// device_memory_info(): cudaMemGetInfo plus the caching pool's counters (soak benchmark).
#include <cuda_runtime.h>

#include "registry.h"
#include "swarm/cuda/memory.h"
#include "swarm/device_memory.h"

namespace swarm {

DeviceMemoryInfo device_memory_info() {
    DeviceMemoryInfo info;
    if (detail::cuda_device_count() == 0) {
        return info;
    }
    if (cudaMemGetInfo(&info.free_bytes, &info.total_bytes) != cudaSuccess) {
        cudaGetLastError(); // not sticky: leave the device usable
        return DeviceMemoryInfo{};
    }
    info.available = true;
    info.pool_cached_bytes = gpu::pool_cached_bytes();
    info.pool_driver_allocations = gpu::pool_driver_allocations();
    return info;
}

} // namespace swarm
