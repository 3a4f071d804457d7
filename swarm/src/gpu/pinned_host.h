#pragma once
// Page-locked host memory for device-to-host copies that sit on a run's critical path: the copy engine
// writes it directly (a pageable copy goes through a driver staging buffer and blocks the host thread),
// so cudaMemcpyAsync really is asynchronous and small copies cost microseconds. Grows only: a repeated
// run reuses it, like the device pool.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "gpu/cuda_check.h"

namespace swarm::gpu {

template <typename T>
class PinnedHost {
public:
    PinnedHost() = default;
    ~PinnedHost() { release(); }
    PinnedHost(const PinnedHost&) = delete;
    PinnedHost& operator=(const PinnedHost&) = delete;
    PinnedHost(PinnedHost&& o) noexcept
        : m_data(std::exchange(o.m_data, nullptr)), m_capacity(std::exchange(o.m_capacity, 0)) {}
    PinnedHost& operator=(PinnedHost&&) = delete;

    // At least n elements; the contents are not preserved when it grows.
    T* reserve(std::size_t n) {
        if (n > m_capacity) {
            release();
            SWARM_CUDA_CHECK_THROW(cudaHostAlloc(reinterpret_cast<void**>(&m_data), n * sizeof(T), cudaHostAllocDefault));
            m_capacity = n;
        }
        return m_data;
    }
    T* data() const { return m_data; }
    std::size_t capacity() const { return m_capacity; }

private:
    void release() noexcept {
        if (m_data != nullptr) {
            SWARM_CUDA_CHECK_LOG(cudaFreeHost(m_data));
        }
        m_data = nullptr;
        m_capacity = 0;
    }
    T* m_data = nullptr;
    std::size_t m_capacity = 0;
};

} // namespace swarm::gpu
