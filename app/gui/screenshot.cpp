#include "gui/screenshot.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "core/palette.h"
#include "gui/gl.h"
#include "tracker/atomic_write.h"

namespace app::gui {
namespace {

nlohmann::json rect_json(const Rect& r, float k) { return {r.x * k, r.y * k, r.width * k, r.height * k}; }

// Replaces `path` with the file that `write` fills; the rename's failure names the path.
void replace_atomically(const std::string& path, const std::function<void(const std::string& temp)>& write) {
    try {
        tracker::write_atomically(path, write);
    } catch (const std::filesystem::filesystem_error& e) {
        throw std::runtime_error("--screenshot " + path + ": cannot write it (" + e.code().message() + ")");
    }
}

// Encoded here rather than by cv::imwrite, which would take the format from the temporary's extension: the
// shot is a PNG whatever the name.
void write_png(const cv::Mat& image, const std::string& temp, const std::string& path) {
    std::vector<uchar> png;
    const bool encoded = cv::imencode(".png", image, png);
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    const auto size = static_cast<std::streamsize>(png.size());
    if (!encoded || !out.write(reinterpret_cast<const char*>(png.data()), size)) {
        throw std::runtime_error("--screenshot " + path + ": cannot write a PNG there; check the folder exists and is writable");
    }
}

} // namespace

void save_screenshot(const std::string& path, int w, int h, const ShotLayout& layout) {
    cv::Mat rgb(h, w, CV_8UC3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    GL_CHECK(glReadPixels(0, 0, w, h, GL_BGR, GL_UNSIGNED_BYTE, rgb.data));
    cv::flip(rgb, rgb, 0); // GL rows start at the bottom
    nlohmann::json colours = nlohmann::json::array();
    for (const auto& c : k_swarm_colours) colours.push_back({c.r, c.g, c.b});
    // Rectangles in image (framebuffer) pixels, like the PNG.
    const nlohmann::json j = {
        {"width", w},
        {"height", h},
        {"frame_rect", rect_json(layout.frame, layout.pixel_ratio)},
        {"timing_rect", rect_json(layout.timing, layout.pixel_ratio)},
        {"particles", layout.particles},
        {"detections", layout.detections},
        {"line_segments", layout.line_segments},
        {"frames", layout.frames},
        {"swarm_colours", colours},
        {"outline_colour", {k_outline_colour.r, k_outline_colour.g, k_outline_colour.b}},
    };
    // The JSON goes in place first: once the PNG is there, so is its description.
    replace_atomically(path, [&](const std::string& temp_png) {
        write_png(rgb, temp_png, path);
        replace_atomically(path + ".json",
                           [&](const std::string& temp_json) { std::ofstream(temp_json) << j.dump(2) << '\n'; });
    });
}

} // namespace app::gui
