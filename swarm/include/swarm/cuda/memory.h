#pragma once
// Device and page-locked host memory: the only place in the project that allocates either. Four owners:
//   GPUMemory<T>       the engine's per-run buffers, from one process-wide caching pool (CUB's
//                      CachingDeviceAllocator), so repeated runs reuse their memory instead of asking the driver
//                      again (FastPSO's memory caching, 001 §3.4);
//   DeviceBuffer<T>    long-lived linear buffers straight from the driver, grow-only (a frame's model points,
//                      targets); releasing one waits for the device, so no stream can still be reading it;
//   PitchedBuffer2D<T> 2-D images with rows aligned for texture fetches (cudaMallocPitch);
//   PinnedHost<T>      page-locked host memory, so copies really are asynchronous.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "swarm/cuda/check.h"

namespace swarm::gpu {

// Raw pool access; prefer GPUMemory<T>.
void* pool_allocate(std::size_t bytes, cudaStream_t stream);
void pool_free(void* ptr) noexcept;
std::size_t pool_cached_bytes();
// How many requests the pool could not serve from its cache and passed to cudaMalloc (tests use it to check
// that a repeated run allocates nothing).
std::size_t pool_driver_allocations();
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

// Move-only linear device allocation straight from the driver; grows only.
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : m_data(std::exchange(o.m_data, nullptr)), m_capacity(std::exchange(o.m_capacity, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            m_data = std::exchange(o.m_data, nullptr);
            m_capacity = std::exchange(o.m_capacity, 0);
        }
        return *this;
    }

    // At least n elements; the contents are not preserved when it grows.
    T* reserve(std::size_t n) {
        if (n > m_capacity) {
            release();
            SWARM_CUDA_CHECK_THROW(cudaMalloc(reinterpret_cast<void**>(&m_data), n * sizeof(T)));
            m_capacity = n;
        }
        return m_data;
    }
    T* data() const { return m_data; }
    std::size_t capacity() const { return m_capacity; }

private:
    void release() noexcept {
        if (m_data != nullptr) {
            SWARM_CUDA_CHECK_LOG(cudaFree(m_data));
        }
        m_data = nullptr;
        m_capacity = 0;
    }
    T* m_data = nullptr;
    std::size_t m_capacity = 0;
};

// Move-only pitched 2-D device allocation of rows x cols elements; reallocates when the shape changes.
template <typename T>
class PitchedBuffer2D {
public:
    PitchedBuffer2D() = default;
    PitchedBuffer2D(int rows, int cols) { reserve(rows, cols); }
    ~PitchedBuffer2D() { release(); }
    PitchedBuffer2D(const PitchedBuffer2D&) = delete;
    PitchedBuffer2D& operator=(const PitchedBuffer2D&) = delete;
    PitchedBuffer2D(PitchedBuffer2D&& o) noexcept { swap(o); }
    PitchedBuffer2D& operator=(PitchedBuffer2D&& o) noexcept {
        swap(o);
        return *this;
    }

    void reserve(int rows, int cols) {
        if (m_data != nullptr && rows == m_rows && cols == m_cols) {
            return;
        }
        release();
        SWARM_CUDA_CHECK_THROW(cudaMallocPitch(reinterpret_cast<void**>(&m_data), &m_pitch,
                                               static_cast<std::size_t>(cols) * sizeof(T),
                                               static_cast<std::size_t>(rows)));
        m_rows = rows;
        m_cols = cols;
    }
    T* data() const { return m_data; }
    std::size_t pitch() const { return m_pitch; } // bytes from one row to the next
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }

private:
    void release() noexcept {
        if (m_data != nullptr) {
            SWARM_CUDA_CHECK_LOG(cudaFree(m_data));
        }
        m_data = nullptr;
        m_pitch = 0;
        m_rows = m_cols = 0;
    }
    void swap(PitchedBuffer2D& o) noexcept {
        std::swap(m_data, o.m_data);
        std::swap(m_pitch, o.m_pitch);
        std::swap(m_rows, o.m_rows);
        std::swap(m_cols, o.m_cols);
    }
    T* m_data = nullptr;
    std::size_t m_pitch = 0;
    int m_rows = 0, m_cols = 0;
};

// Page-locked host memory for copies on a run's critical path: the copy engine reads and writes it directly
// (a pageable copy goes through a driver staging buffer and blocks the host thread), so cudaMemcpyAsync
// really is asynchronous and small copies cost microseconds. Grows only.
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
