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

// How a re-save stores colour: Subsampled, 4:2:0 as most cameras and OpenCV's imwrite store it, which halves a
// once-decoded frame's chroma a second time (a clip re-exported through RGB); Full, 4:4:4, the chroma kept at the
// resolution it has, as a transcoder that keeps the chroma planes does.
enum class JpegChroma { Subsampled, Full };

// bgr saved as a JPEG of `quality` (1-100) and decoded again: what a frame looks like after one more lossy save. The
// two builds give the same pixels, as decode_still does (both through libjpeg; a build without libjpeg's headers
// falls back to OpenCV's imencode, which writes Subsampled only and throws for Full). Throws on an image JPEG
// cannot hold.
cv::Mat resave_jpeg(const cv::Mat& bgr, int quality, JpegChroma chroma = JpegChroma::Subsampled);

// What decode_still reads, for the error message of a folder where nothing decodes.
const char* still_formats();

} // namespace app
