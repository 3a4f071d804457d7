#include "tracker/camera.h"

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "filestorage_screen.h"

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

namespace tracker {

namespace {
constexpr int kMaxImageSide = 65536;

// OpenCV's messages end in a newline (and some span lines); errors here are one line (found by fuzzing).
std::string one_line(std::string m) {
    for (char& c : m) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    while (!m.empty() && m.back() == ' ') m.pop_back();
    return m;
}

// OpenCV 4.6's FileStorage hangs or crashes on some malformed YAML and XML (found by fuzzing), so a file it would
// read as either (by its first bytes, as OpenCV decides) is screened first; NUL bytes are refused in every format.
void screen_for_opencv(const std::string& path) {
    if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
        throw std::runtime_error(path + ": compressed camera files are not read; decompress it first");
    }
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::string first_line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.find('\0') != std::string::npos) {
            throw std::runtime_error(path + ":" + std::to_string(n) + ": binary data (a NUL byte) in a text file");
        }
        if (n == 1) first_line = line.rfind("\xEF\xBB\xBF", 0) == 0 ? line.substr(3) : line;
    }
    const bool yaml = first_line.rfind("%YAML", 0) == 0;
    const bool xml = first_line.rfind("<?xml", 0) == 0;
    if (!yaml && !xml) return;
    std::ifstream again(path, std::ios::binary);
    const auto finding = yaml ? screen_filestorage_yaml(again) : screen_filestorage_xml(again);
    if (finding) {
        throw std::runtime_error(path + ":" + std::to_string(finding->line) + ": malformed " + (yaml ? "YAML" : "XML") +
                                 " (" + finding->why + "); write the file as OpenCV's FileStorage does");
    }
}

} // namespace

Camera Camera::load(const std::string& path) {
    auto fail = [&](const std::string& field, const std::string& why) {
        throw std::runtime_error(path + ": field '" + field + "': " + why);
    };
    if (std::ifstream probe(path, std::ios::binary | std::ios::ate); probe && probe.tellg() == 0) {
        throw std::runtime_error(path + ": the camera file is empty; expected OpenCV YAML/XML with camera_matrix");
    }
    screen_for_opencv(path);
    cv::FileStorage fs;
    try {
        if (!fs.open(path, cv::FileStorage::READ)) {
            throw std::runtime_error(path + ": cannot open the camera file; check the path");
        }
    } catch (const cv::Exception& e) {
        throw std::runtime_error(path + ": not a readable OpenCV YAML/XML file (" + one_line(e.msg) + ")");
    } catch (const std::logic_error& e) { // e.g. std::length_error from OpenCV's string handling (fuzzing)
        throw std::runtime_error(path + ": not a readable OpenCV YAML/XML file (" + one_line(e.what()) + ")");
    }
    // Every FileNode access can throw cv::Exception (a top level that is not a mapping asserts in
    // operator[], found by fuzzing): all of it becomes the one-line error.
    try {
        cv::Mat k;
        const cv::FileNode node = fs["camera_matrix"];
        if (node.empty()) {
            fail("camera_matrix", "missing (a 3x3 !!opencv-matrix)");
        }
        // Check the declared size before OpenCV allocates it: "rows: 3e9" would ask for gigabytes.
        if (node.isMap() && (!node["rows"].isInt() || !node["cols"].isInt() || static_cast<int>(node["rows"]) != 3 ||
                             static_cast<int>(node["cols"]) != 3)) {
            fail("camera_matrix", "must be 3x3 (rows: 3, cols: 3)");
        }
        try {
            node >> k;
        } catch (const cv::Exception&) {
            fail("camera_matrix", "must be a 3x3 !!opencv-matrix");
        }
        if (k.rows != 3 || k.cols != 3) {
            fail("camera_matrix", "must be 3x3");
        }
        k.convertTo(k, CV_64F);
        Camera c;
        c.fx = k.at<double>(0, 0);
        c.fy = k.at<double>(1, 1);
        c.cx = k.at<double>(0, 2);
        c.cy = k.at<double>(1, 2);
        if (!(c.fx > 0) || !(c.fy > 0) || !std::isfinite(c.fx) || !std::isfinite(c.fy)) {
            fail("camera_matrix", "focal lengths fx, fy must be positive");
        }
        // A frame side beyond 65,536 px is no camera's; the bound also keeps scaled sizes inside int.
        const cv::FileNode w = fs["image_width"], h = fs["image_height"];
        if (w.empty() || !w.isInt() || static_cast<int>(w) <= 0 || static_cast<int>(w) > kMaxImageSide) {
            fail("image_width", "missing or not an integer from 1 to 65536");
        }
        if (h.empty() || !h.isInt() || static_cast<int>(h) <= 0 || static_cast<int>(h) > kMaxImageSide) {
            fail("image_height", "missing or not an integer from 1 to 65536");
        }
        c.width = static_cast<int>(w);
        c.height = static_cast<int>(h);
        if (!(c.cx >= 0 && c.cx <= c.width && c.cy >= 0 && c.cy <= c.height)) {
            fail("camera_matrix", "principal point lies outside the image");
        }
        return c;
    } catch (const cv::Exception& e) {
        throw std::runtime_error(path + ": not a camera file OpenCV can read (" + one_line(e.msg) + ")");
    } catch (const std::logic_error& e) {
        throw std::runtime_error(path + ": not a camera file OpenCV can read (" + one_line(e.what()) + ")");
    }
}

Camera Camera::scaled_to(int w, int h) const {
    if (w == width && h == height) {
        return *this;
    }
    if (w <= 0 || h <= 0 || width <= 0 || height <= 0 ||
        std::abs(static_cast<double>(w) / h - static_cast<double>(width) / height) > 0.01 * width / height) {
        throw std::invalid_argument("camera: calibrated for " + std::to_string(width) + "x" + std::to_string(height) +
                                    " but frames are " + std::to_string(w) + "x" + std::to_string(h) +
                                    "; use a camera file for this frame size");
    }
    const double s = static_cast<double>(w) / width;
    Camera c = *this;
    c.fx *= s;
    c.fy *= s;
    c.cx = (cx + 0.5) * s - 0.5;
    c.cy = (cy + 0.5) * s - 0.5;
    c.width = w;
    c.height = h;
    return c;
}

} // namespace tracker
