#include <csetjmp>
#include <cstdio>
#include <memory>

#include <jpeglib.h>

#include "decode/still_image.h"

namespace app {
namespace {

// libjpeg reports errors through a callback that must not return: it jumps back to decode_still.
struct ErrorJump {
    jpeg_error_mgr mgr;
    std::jmp_buf back;
};

void jump_back(j_common_ptr info) { std::longjmp(reinterpret_cast<ErrorJump*>(info->err)->back, 1); }
void stay_quiet(j_common_ptr) {}

} // namespace

cv::Mat decode_still(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        return {};
    }
    jpeg_decompress_struct info{};
    ErrorJump err{};
    info.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = jump_back;
    err.mgr.output_message = stay_quiet;
    cv::Mat out; // declared before setjmp: the jump must not skip its construction
    if (setjmp(err.back)) {
        jpeg_destroy_decompress(&info);
        return {};
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file.get());
    jpeg_read_header(&info, TRUE);
    // As OpenCV's imread asks it: libjpeg-turbo converts straight to BGR with its default (slow, exact) IDCT.
    info.out_color_space = JCS_EXT_BGR;
    jpeg_start_decompress(&info);
    out.create(static_cast<int>(info.output_height), static_cast<int>(info.output_width), CV_8UC3);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = out.ptr<JSAMPLE>(static_cast<int>(info.output_scanline));
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return out;
}

const char* still_formats() { return "JPEG (swarmtrack-bench decodes JPEG only)"; }

} // namespace app
