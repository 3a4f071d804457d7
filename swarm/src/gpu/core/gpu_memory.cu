#include "swarm/cuda/memory.h"

#include <cub/util_allocator.cuh>

#include <atomic>
#include <mutex>

namespace swarm::gpu {
namespace {

// Power-of-two bins from 256 B to 4 GiB, up to 8 GiB kept cached. CUB's defaults stop caching at 2 MB,
// smaller than one swarm state of the seeds' large experiments.
cub::CachingDeviceAllocator& pool() {
    static cub::CachingDeviceAllocator allocator(2, 8, 32, std::size_t(8) << 30, /*skip_cleanup=*/true);
    return allocator;
}

std::atomic<std::size_t> g_driver_allocations{0};

// Bytes the pool holds from the driver (in use plus cached).
std::size_t pool_held_bytes() {
    auto& a = pool();
    std::lock_guard<std::mutex> lock(a.mutex);
    std::size_t total = 0;
    for (const auto& [device, bytes] : a.cached_bytes) {
        total += bytes.free + bytes.live;
    }
    return total;
}

} // namespace

void* pool_allocate(std::size_t bytes, cudaStream_t /*stream*/) {
    // Blocks are associated with the legacy default stream, not the caller's: CUB records an event on the
    // associated stream when a block is freed, and cached buffers outlive the per-run streams.
    void* p = nullptr;
    const std::size_t held = pool_held_bytes();
    SWARM_CUDA_CHECK_THROW(pool().DeviceAllocate(&p, bytes, nullptr));
    if (pool_held_bytes() > held) {
        ++g_driver_allocations; // a cache miss: the pool called cudaMalloc
    }
    return p;
}

void pool_free(void* ptr) noexcept {
    SWARM_CUDA_CHECK_LOG(pool().DeviceFree(ptr));
}

std::size_t pool_cached_bytes() {
    auto& a = pool();
    std::lock_guard<std::mutex> lock(a.mutex);
    std::size_t total = 0;
    for (const auto& [device, bytes] : a.cached_bytes) {
        total += bytes.free;
    }
    return total;
}

std::size_t pool_driver_allocations() {
    return g_driver_allocations.load();
}

void pool_release_cached() {
    SWARM_CUDA_CHECK_LOG(pool().FreeAllCached());
}

} // namespace swarm::gpu
