#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "sources/frame_source.h"

namespace app {
namespace fs = std::filesystem;

std::unique_ptr<FrameSource> open_source(const std::string& spec, const SourceOptions& options) {
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

} // namespace app
