#include "decode/jpeg_codec.h"
#include "decode/still_image.h"

namespace app {

cv::Mat decode_still(const std::string& path) { return decode_jpeg_file(path); }

const char* still_formats() { return "JPEG (swarmtrack-bench decodes JPEG only)"; }

} // namespace app
