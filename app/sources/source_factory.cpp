#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "sources/frame_source.h"

namespace app {
namespace fs = std::filesystem;

namespace {

// The smallest frame the tracker can search (the synthetic size limits of synth/process/track). A smaller
// one is refused here, naming the input, rather than failing later in the tracker or the video writer.
constexpr int k_min_width = 64, k_min_height = 48;

std::unique_ptr<FrameSource> checked_size(const std::string& spec, std::unique_ptr<FrameSource> source) {
    const cv::Size size = source->size();
    if (size.width < k_min_width || size.height < k_min_height) {
        throw std::runtime_error("input " + spec + ": frames are " + std::to_string(size.width) + "x" +
                                 std::to_string(size.height) + ", smaller than the tracker's minimum of " +
                                 std::to_string(k_min_width) + "x" + std::to_string(k_min_height) +
                                 "; use a larger video or images");
    }
    return source;
}

std::unique_ptr<FrameSource> open_unchecked(const std::string& spec, const SourceOptions& options) {
    if (spec.empty()) {
        throw std::runtime_error("input: empty; give a video file, an image folder, camera:N or synthetic[:scene]");
    }
    if (spec.rfind("camera:", 0) == 0) {
        const std::string n = spec.substr(7);
        if (n.empty() || n.size() > 4 || !std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isdigit(c); })) {
            throw std::runtime_error("input " + spec + ": camera index must be a number, e.g. camera:0");
        }
        return open_camera(std::stoi(n));
    }
    if (spec == "synthetic" || spec.rfind("synthetic:", 0) == 0) {
        return open_synthetic(spec.size() > 10 ? spec.substr(10) : "easy", options);
    }
    std::error_code ec;
    const fs::file_status st = fs::status(spec, ec);
    if (!fs::exists(st)) {
        throw std::runtime_error("input " + spec +
                                 ": no such file or folder (inputs: a video file, an image folder, camera:N, "
                                 "synthetic[:scene])");
    }
    if (::access(spec.c_str(), R_OK) != 0) {
        throw std::runtime_error("input " + spec + ": not readable (permission denied); fix its permissions");
    }
    if (fs::is_directory(st)) {
        return open_image_folder(spec, options.native_size);
    }
    return open_video(spec);
}

} // namespace

std::unique_ptr<FrameSource> open_source(const std::string& spec, const SourceOptions& options) {
    return checked_size(spec, open_unchecked(spec, options));
}

} // namespace app
