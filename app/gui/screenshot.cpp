#include "gui/screenshot.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "core/palette.h"
#include "gui/gl.h"

namespace app::gui {
namespace {

nlohmann::json rect_json(const Rect& r, float k) { return {r.x * k, r.y * k, r.width * k, r.height * k}; }

void replace_atomically(const std::string& tmp, const std::string& path) {
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error("--screenshot " + path + ": cannot write it (" + ec.message() + ")");
    }
}

} // namespace

void save_screenshot(const std::string& path, int w, int h, const ShotLayout& layout) {
    cv::Mat rgb(h, w, CV_8UC3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    GL_CHECK(glReadPixels(0, 0, w, h, GL_BGR, GL_UNSIGNED_BYTE, rgb.data));
    cv::flip(rgb, rgb, 0); // GL rows start at the bottom
    const std::string suffix = ".tmp-" + std::to_string(::getpid());
    const std::string tmp_png = path + suffix + ".png";
    if (!cv::imwrite(tmp_png, rgb)) {
        throw std::runtime_error("--screenshot " + path + ": cannot write a PNG there; check the folder exists and is writable");
    }
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
    const std::string tmp_json = path + suffix + ".json";
    std::ofstream(tmp_json) << j.dump(2) << '\n';
    replace_atomically(tmp_png, path);
    replace_atomically(tmp_json, path + ".json");
}

} // namespace app::gui
