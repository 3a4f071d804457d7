// A video file through OpenCV's FFmpeg backend. A truncated or damaged file yields every frame that
// still decodes; the frames the container declares but that never decoded are reported as skipped.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <opencv2/videoio.hpp>

#include "sources/frame_source.h"

namespace app {
namespace {

constexpr int k_max_bad_in_a_row = 16; // past this many undecodable frames in a row the file has ended

class VideoSource : public FrameSource {
public:
    explicit VideoSource(const std::string& path) : m_path(path) {
        if (!m_capture.open(path, cv::CAP_FFMPEG) || !m_capture.isOpened()) {
            throw std::runtime_error("input " + path +
                                     ": not a video FFmpeg can decode (another kind of file, or damaged/truncated before "
                                     "its index); inputs: a video, an image folder, camera:N, synthetic[:scene]");
        }
        m_declared = static_cast<long long>(m_capture.get(cv::CAP_PROP_FRAME_COUNT));
        m_fps = m_capture.get(cv::CAP_PROP_FPS);
        cv::Mat first;
        if (!m_capture.read(first) || first.empty()) {
            throw std::runtime_error("input " + path + ": opens as a video but no frame decodes (damaged or empty)");
        }
        m_size = first.size();
        m_pending = first;
    }

    bool read(Frame& frame) override {
        const auto t0 = std::chrono::steady_clock::now();
        if (!m_pending.empty()) {
            frame.bgr = m_pending;
            m_pending.release();
        } else if (!decode_next(frame.bgr)) {
            return false;
        }
        frame.index = m_next++;
        frame.capture_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return true;
    }
    std::string description() const override {
        return "video " + m_path + " (" + std::to_string(m_size.width) + "x" + std::to_string(m_size.height) + ", " +
               std::to_string(static_cast<int>(std::lround(m_fps))) + " fps, " +
               (m_declared > 0 ? std::to_string(m_declared) : std::string("?")) + " frames)";
    }
    cv::Size size() const override { return m_size; }
    double fps() const override { return m_fps; }
    long long frame_count() const override { return m_declared > 0 ? m_declared : -1; }
    bool seekable() const override { return true; }
    bool seek(long long index) override {
        if (index < 0 || (m_declared > 0 && index >= m_declared)) return false;
        m_pending.release();
        if (!m_capture.set(cv::CAP_PROP_POS_FRAMES, static_cast<double>(index))) return false;
        m_next = index;
        m_ended = false;
        return true;
    }
    long long skipped() const override { return m_skipped; }

private:
    bool decode_next(cv::Mat& out) {
        if (m_ended) return false;
        for (int bad = 0; bad < k_max_bad_in_a_row; ++bad) {
            if (m_capture.read(out) && !out.empty()) return true;
            if (m_declared > 0 && m_next + bad + 1 >= m_declared) break; // nothing left to try
            ++m_skipped; // a damaged frame in the middle: count it and try the next one
        }
        m_ended = true;
        // Frames the container promised but that never came are skipped too (a truncated file).
        if (m_declared > 0) m_skipped = std::max(m_skipped, m_declared - m_next);
        return false;
    }

    std::string m_path;
    cv::VideoCapture m_capture;
    cv::Mat m_pending;
    cv::Size m_size;
    double m_fps = 0;
    long long m_declared = -1;
    long long m_next = 0;
    long long m_skipped = 0;
    bool m_ended = false;
};

} // namespace

std::unique_ptr<FrameSource> open_video(const std::string& path) { return std::make_unique<VideoSource>(path); }

} // namespace app
