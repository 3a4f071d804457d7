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

// bgr saved as a JPEG of `quality` (1-100, 4:2:0 chroma as video and most cameras store it) and decoded again: what
// a frame looks like after one more lossy save (a dash-cam's video, a re-exported photo). The two builds give the
// same pixels, as decode_still does. Throws on an image libjpeg cannot hold.
cv::Mat resave_jpeg(const cv::Mat& bgr, int quality);

// What decode_still reads, for the error message of a folder where nothing decodes.
const char* still_formats();

} // namespace app
