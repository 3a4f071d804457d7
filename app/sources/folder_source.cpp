// A folder of images, read in sorted file-name order. Files that are not images are ignored; an
// image that fails to decode is skipped and counted.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "sources/frame_source.h"

namespace app {
namespace {
namespace fs = std::filesystem;


class FolderSource : public FrameSource {
public:
    FolderSource(const std::string& dir, bool native_size) : m_dir(dir), m_native_size(native_size) {
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file() && is_image_name(entry.path().string())) m_files.push_back(entry.path().string());
        }
        std::sort(m_files.begin(), m_files.end());
        if (m_files.empty()) {
            throw std::runtime_error("input " + dir + ": folder has no images (.png, .jpg, .bmp, .ppm, .tif, .webp)");
        }
        cv::Mat first;
        for (const auto& f : m_files) {
            first = cv::imread(f, cv::IMREAD_COLOR);
            if (!first.empty()) break;
        }
        if (first.empty()) throw std::runtime_error("input " + dir + ": none of its images decodes");
        m_size = first.size();
    }

    bool read(Frame& frame) override {
        const auto t0 = std::chrono::steady_clock::now();
        while (m_next < static_cast<long long>(m_files.size())) {
            const long long i = m_next++;
            cv::Mat img = cv::imread(m_files[i], cv::IMREAD_COLOR);
            if (img.empty()) {
                ++m_skipped;
                continue;
            }
            // Every frame has the first image's size so the tracker and the video writer see one geometry
            // (unless each image is a still of its own, whose labels are in its own pixels).
            if (!m_native_size && img.size() != m_size) cv::resize(img, img, m_size);
            frame.bgr = img;
            frame.index = i;
            frame.name = fs::path(m_files[static_cast<std::size_t>(i)]).filename().string();
            frame.capture_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            return true;
        }
        return false;
    }
    std::string description() const override {
        return "folder " + m_dir + " (" + std::to_string(m_files.size()) + " images, " + std::to_string(m_size.width) +
               "x" + std::to_string(m_size.height) + ")";
    }
    cv::Size size() const override { return m_size; }
    double fps() const override { return 0; }
    long long frame_count() const override { return static_cast<long long>(m_files.size()); }
    bool seekable() const override { return true; }
    bool seek(long long index) override {
        if (index < 0 || index >= frame_count()) return false;
        m_next = index;
        return true;
    }
    long long skipped() const override { return m_skipped; }

private:
    std::string m_dir;
    bool m_native_size = false;
    std::vector<std::string> m_files;
    cv::Size m_size;
    long long m_next = 0;
    long long m_skipped = 0;
};

} // namespace

std::unique_ptr<FrameSource> open_image_folder(const std::string& path, bool native_size) {
    return std::make_unique<FolderSource>(path, native_size);
}

} // namespace app
