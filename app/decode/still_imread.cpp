#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "decode/still_image.h"

namespace app {

cv::Mat decode_still(const std::string& path) { return cv::imread(path, cv::IMREAD_COLOR); }

cv::Mat resave_jpeg(const cv::Mat& bgr, int quality) {
    std::vector<unsigned char> bytes;
    if (!cv::imencode(".jpg", bgr, bytes, {cv::IMWRITE_JPEG_QUALITY, quality})) {
        throw std::runtime_error("cannot save a " + std::to_string(bgr.cols) + "x" + std::to_string(bgr.rows) +
                                 " image as JPEG");
    }
    return cv::imdecode(bytes, cv::IMREAD_COLOR);
}

const char* still_formats() { return "the image formats OpenCV reads"; }

} // namespace app
