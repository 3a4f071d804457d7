#pragma once
// --screenshot: the window's back buffer as a PNG, plus FILE.json describing where things were drawn
// (frame rectangle, timing panel, overlay counts) so the GUI test can check the picture region by region.
#include <string>

#include "gui/panels.h"

namespace app::gui {

struct ShotLayout {
    Rect frame;           // window pixels, origin top-left
    Rect timing;          // the Timing window
    long long particles;  // points drawn
    long long detections;
    long long line_segments;
    long long frames;     // frames processed before the shot
    float pixel_ratio;    // framebuffer pixels per window pixel
};

// Reads the current back buffer (call before swapping). Throws std::runtime_error naming the path.
void save_screenshot(const std::string& path, int framebuffer_width, int framebuffer_height, const ShotLayout& layout);

} // namespace app::gui
