#pragma once
// CUDA error checks: throwing (file:line, call, CUDA message) and logging (for destructors).
#include <cuda_runtime.h>

#include <string>

#include <spdlog/spdlog.h>

#include "swarm/errors.h"

#define TRACKER_CUDA_CHECK(call)                                                                                 \
    do {                                                                                                         \
        const cudaError_t tracker_err_ = (call);                                                                 \
        if (tracker_err_ != cudaSuccess) {                                                                       \
            const std::string tracker_msg_ = std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #call \
                                             " failed: " + cudaGetErrorString(tracker_err_);                     \
            if (tracker_err_ == cudaErrorMemoryAllocation) {                                                     \
                throw swarm::OutOfMemoryError(tracker_msg_);                                                     \
            }                                                                                                    \
            throw swarm::CudaError(tracker_msg_);                                                                \
        }                                                                                                        \
    } while (0)

#define TRACKER_CUDA_LOG(call)                                                                                    \
    do {                                                                                                          \
        const cudaError_t tracker_err_ = (call);                                                                  \
        if (tracker_err_ != cudaSuccess) {                                                                        \
            spdlog::error("{}:{}: {} failed: {}", __FILE__, __LINE__, #call, cudaGetErrorString(tracker_err_)); \
        }                                                                                                         \
    } while (0)

namespace tracker::cuda {

// Move-only device allocation; the only place tracker code calls cudaMalloc / cudaMallocPitch.
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        swap(o);
        return *this;
    }

    // Linear: `n` elements; grows only.
    void reserve(std::size_t n) {
        if (n <= m_capacity && m_pitch == 0) {
            return;
        }
        release();
        TRACKER_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&m_data), n * sizeof(T)));
        m_capacity = n;
    }
    // Pitched 2-D: `rows` x `cols` elements; reallocates when the shape changes.
    void reserve_2d(int rows, int cols) {
        if (m_pitch != 0 && rows == m_rows && cols == m_cols) {
            return;
        }
        release();
        TRACKER_CUDA_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&m_data), &m_pitch, cols * sizeof(T), rows));
        m_rows = rows;
        m_cols = cols;
    }
    T* data() const { return m_data; }
    std::size_t pitch() const { return m_pitch; }

private:
    void release() {
        if (m_data != nullptr) {
            TRACKER_CUDA_LOG(cudaFree(m_data));
        }
        m_data = nullptr;
        m_capacity = 0;
        m_pitch = 0;
        m_rows = m_cols = 0;
    }
    void swap(DeviceBuffer& o) noexcept {
        std::swap(m_data, o.m_data);
        std::swap(m_capacity, o.m_capacity);
        std::swap(m_pitch, o.m_pitch);
        std::swap(m_rows, o.m_rows);
        std::swap(m_cols, o.m_cols);
    }
    T* m_data = nullptr;
    std::size_t m_capacity = 0, m_pitch = 0;
    int m_rows = 0, m_cols = 0;
};

// Page-locked host memory for uploads: the copy engine reads it directly (no pageable staging), so an
// upload of a 1280x720 frame takes a fraction of the pageable copy's device time. Grows only.
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    ~PinnedBuffer() { release(); }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    unsigned char* reserve(std::size_t bytes) {
        if (bytes > m_capacity) {
            release();
            TRACKER_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&m_data), bytes, cudaHostAllocDefault));
            m_capacity = bytes;
        }
        return m_data;
    }

private:
    void release() {
        if (m_data != nullptr) {
            TRACKER_CUDA_LOG(cudaFreeHost(m_data));
        }
        m_data = nullptr;
        m_capacity = 0;
    }
    unsigned char* m_data = nullptr;
    std::size_t m_capacity = 0;
};

} // namespace tracker::cuda
