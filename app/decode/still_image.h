#pragma once
// One still image file decoded to 8-bit BGR. The full app decodes with OpenCV's imgcodecs; swarmtrack-bench,
// which runs on GPU machines with only OpenCV core and imgproc, decodes JPEG with libjpeg alone (imgcodecs
// would bring GDAL, GDCM and OpenEXR along). Both go through the same libjpeg, so a JPEG frame gives the same
// pixels, and the tracker's figures on the two binaries compare.
#include <string>

#include <opencv2/core.hpp>

namespace app {

// An empty Mat when the file does not decode (or, in swarmtrack-bench, is not a JPEG).
cv::Mat decode_still(const std::string& path);

// What decode_still reads, for the error message of a folder where nothing decodes.
const char* still_formats();

} // namespace app
