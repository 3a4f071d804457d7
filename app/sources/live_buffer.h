#pragma once
// A one-slot mailbox between a capture thread and the consumer: the producer always overwrites with
// the newest frame, the consumer waits for one it has not seen, and overwritten frames are counted.
#include <condition_variable>
#include <mutex>

#include "sources/frame_source.h"

namespace app {

class LatestFrame {
public:
    void put(Frame frame) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_fresh) ++m_dropped;
            m_frame = std::move(frame);
            m_fresh = true;
        }
        m_ready.notify_one();
    }
    // Waits for an unseen frame; false once closed and drained.
    bool take(Frame& out) {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait(lock, [&] { return m_fresh || m_closed; });
        if (!m_fresh) return false;
        out = std::move(m_frame);
        m_fresh = false;
        return true;
    }
    void close() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_closed = true;
        }
        m_ready.notify_all();
    }
    long long dropped() const {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_dropped;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_ready;
    Frame m_frame;
    bool m_fresh = false;
    bool m_closed = false;
    long long m_dropped = 0;
};

} // namespace app
