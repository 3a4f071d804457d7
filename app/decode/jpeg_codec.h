#pragma once
// JPEG through libjpeg alone (decode/jpeg_codec.cpp): swarmtrack-bench's still decoder, and the re-save of the
// robustness options in both binaries (decode/still_image.h), which OpenCV's imencode cannot write with full chroma.
#include <string>

#include <opencv2/core.hpp>

namespace app {

// The JPEG file at `path` as 8-bit BGR, decoded as OpenCV's imread decodes it; empty when it is not a JPEG.
cv::Mat decode_jpeg_file(const std::string& path);

} // namespace app
