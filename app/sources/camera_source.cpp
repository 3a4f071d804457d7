// camera:N through OpenCV's V4L2 backend. A grab thread keeps only the newest frame, so a slow tracker
// never processes stale video; frames it overwrote are counted as dropped.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include <opencv2/videoio.hpp>

#include "sources/frame_source.h"
#include "sources/live_buffer.h"

namespace app {
namespace {

std::string list_cameras() {
    std::string found;
    for (int i = 0; i < 64; ++i) {
        if (std::filesystem::exists("/dev/video" + std::to_string(i))) {
            found += (found.empty() ? "" : ", ") + std::string("camera:") + std::to_string(i);
        }
    }
    return found.empty() ? "none found" : "found: " + found;
}

class CameraSource : public FrameSource {
public:
    explicit CameraSource(int index) : m_index(index) {
        const std::string dev = "/dev/video" + std::to_string(index);
        if (!std::filesystem::exists(dev)) {
            throw std::runtime_error("input camera:" + std::to_string(index) + ": " + dev + " does not exist (" +
                                     list_cameras() + ")");
        }
        if (!m_capture.open(index, cv::CAP_V4L2) || !m_capture.isOpened()) {
            throw std::runtime_error("input camera:" + std::to_string(index) + ": " + dev +
                                     " could not be opened (busy, or not a capture device)");
        }
        cv::Mat probe;
        if (!m_capture.read(probe) || probe.empty()) {
            throw std::runtime_error("input camera:" + std::to_string(index) + ": opened but delivered no frame");
        }
        m_size = probe.size();
        m_fps = m_capture.get(cv::CAP_PROP_FPS);
        m_thread = std::thread([this] { grab_loop(); });
    }
    ~CameraSource() override {
        m_stop = true;
        m_buffer.close();
        if (m_thread.joinable()) m_thread.join();
    }

    bool read(Frame& frame) override {
        const auto t0 = std::chrono::steady_clock::now();
        if (!m_buffer.take(frame)) return false;
        frame.capture_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return true;
    }
    std::string description() const override {
        return "camera:" + std::to_string(m_index) + " (" + std::to_string(m_size.width) + "x" +
               std::to_string(m_size.height) + ")";
    }
    cv::Size size() const override { return m_size; }
    double fps() const override { return m_fps; }
    bool live() const override { return true; }
    long long dropped() const override { return m_buffer.dropped(); }

private:
    void grab_loop() {
        long long n = 0;
        int failures = 0;
        while (!m_stop) {
            Frame f;
            if (!m_capture.read(f.bgr) || f.bgr.empty()) {
                if (++failures > 50) break; // unplugged: end the source instead of spinning
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
                continue;
            }
            failures = 0;
            f.index = n++;
            m_buffer.put(std::move(f));
        }
        m_buffer.close();
    }

    int m_index;
    cv::VideoCapture m_capture;
    cv::Size m_size;
    double m_fps = 0;
    LatestFrame m_buffer;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

std::unique_ptr<FrameSource> open_camera(int index) { return std::make_unique<CameraSource>(index); }

} // namespace app
