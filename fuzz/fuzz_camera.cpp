// Camera calibration YAML (settings camera_file): tracker::Camera::load through cv::FileStorage, then
// scaled_to, as the app does for a frame of another size.
#include <cmath>

#include "fuzz_common.h"
#include "tracker/camera.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::TempFile in(data, size, ".yaml");
    fuzz::expect_clean([&] {
        const tracker::Camera c = tracker::Camera::load(in.path());
        if (!(c.fx > 0 && c.fy > 0 && c.width > 0 && c.height > 0) || !std::isfinite(c.cx) || !std::isfinite(c.cy)) {
            std::fprintf(stderr, "fuzz finding: camera loaded with fx %g fy %g size %dx%d\n", c.fx, c.fy, c.width, c.height);
            std::abort();
        }
        (void)c.scaled_to(c.width * 2, c.height * 2);
    });
    return 0;
}
