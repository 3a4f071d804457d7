#pragma once
// RAII CUDA streams and events, and an event-pair timer for device time. Streams are non-blocking: work on
// them never waits for, nor holds up, the legacy default stream.
#include <cuda_runtime.h>

#include <utility>

#include "swarm/cuda/check.h"

namespace swarm::gpu {

class Event;

class Stream {
public:
    Stream() { SWARM_CUDA_CHECK_THROW(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
    ~Stream() {
        if (m_stream) {
            SWARM_CUDA_CHECK_LOG(cudaStreamDestroy(m_stream));
        }
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    Stream(Stream&& o) noexcept : m_stream(std::exchange(o.m_stream, nullptr)) {}
    Stream& operator=(Stream&&) = delete;

    cudaStream_t get() const { return m_stream; }
    void synchronize() const { SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(m_stream)); }
    // Later work on this stream waits for `event` (recorded on another stream) without the host waiting.
    inline void wait(const Event& event) const;

private:
    cudaStream_t m_stream = nullptr;
};

class Event {
public:
    explicit Event(unsigned flags = cudaEventDefault) { SWARM_CUDA_CHECK_THROW(cudaEventCreateWithFlags(&m_event, flags)); }
    ~Event() {
        if (m_event) {
            SWARM_CUDA_CHECK_LOG(cudaEventDestroy(m_event));
        }
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    Event(Event&& o) noexcept : m_event(std::exchange(o.m_event, nullptr)) {}
    Event& operator=(Event&&) = delete;

    void record(cudaStream_t stream) { SWARM_CUDA_CHECK_THROW(cudaEventRecord(m_event, stream)); }
    void synchronize() const { SWARM_CUDA_CHECK_THROW(cudaEventSynchronize(m_event)); }
    cudaEvent_t get() const { return m_event; }
    // Device milliseconds from `start` to this event; waits for this event.
    float ms_since(const Event& start) const {
        synchronize();
        float ms = 0.0f;
        SWARM_CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, start.get(), m_event));
        return ms;
    }

private:
    cudaEvent_t m_event = nullptr;
};

inline void Stream::wait(const Event& event) const {
    SWARM_CUDA_CHECK_THROW(cudaStreamWaitEvent(m_stream, event.get(), 0));
}

// Device time between start() and stop() on one stream.
class EventTimer {
public:
    void start(cudaStream_t stream) { m_begin.record(stream); }
    void stop(cudaStream_t stream) { m_end.record(stream); }
    float elapsed_ms() const { return m_end.ms_since(m_begin); }

private:
    Event m_begin, m_end;
};

} // namespace swarm::gpu
