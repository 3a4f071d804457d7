#include "core/recorder.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "tracker/atomic_write.h"

namespace app {
namespace fs = std::filesystem;

void Recorder::start(const std::string& path, cv::Size size, double fps) {
    stop();
    const fs::path p(path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0) {
        throw std::runtime_error("record " + path + ": folder " + dir.string() + " is missing or not writable");
    }
    m_temp = tracker::temp_path_for(path);
    const bool avi = p.extension() == ".avi";
    const int fourcc = avi ? cv::VideoWriter::fourcc('M', 'J', 'P', 'G') : cv::VideoWriter::fourcc('m', 'p', '4', 'v');
    if (!m_writer.open(m_temp, fourcc, fps > 0 ? fps : 30.0, size)) {
        throw std::runtime_error("record " + path + ": OpenCV cannot write this format; use .mp4 or .avi");
    }
    m_path = path;
    m_size = size;
    m_frames = 0;
}

void Recorder::write(const cv::Mat& bgr) {
    if (!m_writer.isOpened()) return;
    if (bgr.size() == m_size) {
        m_writer.write(bgr);
    } else {
        cv::Mat resized;
        cv::resize(bgr, resized, m_size);
        m_writer.write(resized);
    }
    ++m_frames;
}

void Recorder::stop() {
    if (!m_writer.isOpened()) return;
    m_writer.release();
    std::error_code ec;
    fs::rename(m_temp, m_path, ec);
    if (ec) {
        std::fprintf(stderr, "swarmtrack: error: record %s: rename failed (%s)\n", m_path.c_str(), ec.message().c_str());
        fs::remove(m_temp, ec);
    }
}

} // namespace app
