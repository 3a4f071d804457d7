#pragma once
// Pinhole camera intrinsics.
#include <string>

#include <opencv2/core.hpp>

namespace tracker {

struct Camera {
    double fx = 0, fy = 0, cx = 0, cy = 0;
    int width = 0, height = 0;

    // Square pixels, principal point at the image centre, horizontal field of view in degrees.
    static Camera from_fov(int width, int height, double horizontal_fov_deg);
    // OpenCV calibration YAML/XML (cv::FileStorage): camera_matrix (3x3) plus image_width, image_height.
    // Throws std::runtime_error "FILE: field 'F': reason".
    static Camera load(const std::string& path);
    // Same intrinsics for a frame of another size (scaled; the aspect ratio must match within 1 %).
    Camera scaled_to(int width, int height) const;
    cv::Matx33d matrix() const { return {fx, 0, cx, 0, fy, cy, 0, 0, 1}; }
};

} // namespace tracker
