#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "decode/still_image.h"

namespace app {

// The full app's re-save where libjpeg's headers were missing at build time: OpenCV 4.6 writes 4:2:0 only.
cv::Mat resave_jpeg(const cv::Mat& bgr, int quality, JpegChroma chroma) {
    if (chroma == JpegChroma::Full) {
        throw std::runtime_error("this build saves JPEG with 4:2:0 chroma only: rebuild with libjpeg's headers "
                                 "(libjpeg-dev) for 4:4:4, or leave --resave-chroma at 420");
    }
    std::vector<unsigned char> bytes;
    if (!cv::imencode(".jpg", bgr, bytes, {cv::IMWRITE_JPEG_QUALITY, quality})) {
        throw std::runtime_error("cannot save a " + std::to_string(bgr.cols) + "x" + std::to_string(bgr.rows) +
                                 " image as JPEG");
    }
    return cv::imdecode(bytes, cv::IMREAD_COLOR);
}

} // namespace app
