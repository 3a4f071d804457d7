#include "tracker/camera.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace tracker {

Camera Camera::from_fov(int width, int height, double horizontal_fov_deg) {
    if (width <= 0 || height <= 0) {
        throw std::invalid_argument("camera: image size must be positive (got " + std::to_string(width) + "x" +
                                    std::to_string(height) + ")");
    }
    if (!(horizontal_fov_deg > 1.0 && horizontal_fov_deg < 179.0)) {
        throw std::invalid_argument("camera: horizontal field of view must be in (1, 179) degrees");
    }
    Camera c;
    c.width = width;
    c.height = height;
    c.fx = 0.5 * width / std::tan(0.5 * horizontal_fov_deg * CV_PI / 180.0);
    c.fy = c.fx;
    c.cx = 0.5 * (width - 1);
    c.cy = 0.5 * (height - 1);
    return c;
}

} // namespace tracker
