#pragma once
// Device memory in use, for soak tests and reports (plain C++; works in every build).
#include <cstddef>

namespace swarm {

struct DeviceMemoryInfo {
    bool available = false;                  // false without a CUDA build or a device
    std::size_t free_bytes = 0;              // cudaMemGetInfo on the current device (all processes)
    std::size_t total_bytes = 0;
    std::size_t pool_cached_bytes = 0;       // the engine's caching pool: freed blocks kept for reuse
    std::size_t pool_driver_allocations = 0; // cudaMalloc calls the pool has made so far
};

// Never throws; a CUDA error reads as not available.
DeviceMemoryInfo device_memory_info();

} // namespace swarm
