#pragma once
// The only place device memory is allocated. Buffers come from one process-wide caching pool (CUB's
// CachingDeviceAllocator), so repeated runs reuse their memory instead of calling cudaMalloc again
// (FastPSO's memory caching, 001 §3.4).
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "gpu/cuda_check.h"

namespace swarm::gpu {

// Raw pool access; prefer GPUMemory<T>.
void* pool_allocate(std::size_t bytes, cudaStream_t stream);
void pool_free(void* ptr) noexcept;
std::size_t pool_cached_bytes();
void pool_release_cached(); // returns cached blocks to the driver

template <typename T>
class GPUMemory {
public:
    GPUMemory() = default;
    explicit GPUMemory(std::size_t n, cudaStream_t stream = nullptr) { resize(n, stream); }
    ~GPUMemory() { release(); }

    // Copies must be spelled out (copy_from), never implicit: a stray copy of a large buffer is a
    // performance accident.
    GPUMemory(const GPUMemory&) = delete;
    GPUMemory& operator=(const GPUMemory&) = delete;
    GPUMemory(GPUMemory&& o) noexcept : m_data(std::exchange(o.m_data, nullptr)), m_size(std::exchange(o.m_size, 0)) {}
    GPUMemory& operator=(GPUMemory&& o) noexcept {
        if (this != &o) {
            release();
            m_data = std::exchange(o.m_data, nullptr);
            m_size = std::exchange(o.m_size, 0);
        }
        return *this;
    }

    // Grows or shrinks; contents are not preserved.
    void resize(std::size_t n, cudaStream_t stream = nullptr) {
        if (n == m_size) {
            return;
        }
        release();
        if (n > 0) {
            m_data = static_cast<T*>(pool_allocate(n * sizeof(T), stream));
            m_size = n;
        }
    }

    void copy_from_host(const T* src, std::size_t n, cudaStream_t stream = nullptr) {
        resize(n, stream);
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(m_data, src, n * sizeof(T), cudaMemcpyHostToDevice, stream));
    }
    void copy_from_host(const std::vector<T>& src, cudaStream_t stream = nullptr) {
        copy_from_host(src.data(), src.size(), stream);
    }
    void copy_to_host(T* dst, std::size_t n, cudaStream_t stream = nullptr) const {
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(dst, m_data, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    }
    // Synchronous convenience for results and tests.
    std::vector<T> to_host(cudaStream_t stream = nullptr) const {
        std::vector<T> out(m_size);
        copy_to_host(out.data(), m_size, stream);
        SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
        return out;
    }
    void memset(int value, cudaStream_t stream = nullptr) {
        SWARM_CUDA_CHECK_THROW(cudaMemsetAsync(m_data, value, m_size * sizeof(T), stream));
    }

    T* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::size_t bytes() const { return m_size * sizeof(T); }

private:
    void release() noexcept {
        if (m_data) {
            pool_free(m_data);
        }
        m_data = nullptr;
        m_size = 0;
    }

    T* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace swarm::gpu
