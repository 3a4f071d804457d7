#include <string>

#include <opencv2/imgcodecs.hpp>

#include "decode/still_image.h"

namespace app {

cv::Mat decode_still(const std::string& path) { return cv::imread(path, cv::IMREAD_COLOR); }

const char* still_formats() { return "the image formats OpenCV reads"; }

} // namespace app
