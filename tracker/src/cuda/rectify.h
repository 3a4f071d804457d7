#pragma once
// The GPU half of sign-class recognition (tracker/sign_classes.h): every detection's face of a frame rectified in
// one launch from the frame held on the device, with the maths the CPU uses (common/rectify_math.h). Plain C++
// interface (streams as void*), implemented in rectify.cu.
#include <memory>
#include <vector>

#include <opencv2/core.hpp>

#include "common/rectify_math.h"

namespace tracker {

class DeviceRectifier {
public:
    DeviceRectifier();
    ~DeviceRectifier();
    DeviceRectifier(const DeviceRectifier&) = delete;
    DeviceRectifier& operator=(const DeviceRectifier&) = delete;

    // Faces (CV_8U, side x side) of `maps` from a BGR8 device image (`pitch` bytes a row), queued on `stream` (a
    // cudaStream_t: the frame's, behind its upload); waits for them and returns the GPU milliseconds of the copies
    // and the launch.
    double rectify(const unsigned char* bgr, std::size_t pitch, int width, int height,
                   const std::vector<math::FaceMap>& maps, int side, std::vector<cv::Mat>& faces, void* stream);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace tracker
