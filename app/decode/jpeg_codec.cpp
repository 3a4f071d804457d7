#include <csetjmp>
#include <cstdio>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <jpeglib.h>
#include <jerror.h>

#include "decode/jpeg_codec.h"
#include "decode/still_image.h"

namespace app {
namespace {

// libjpeg reports errors through a callback that must not return: it jumps back to the function that called setjmp.
struct ErrorJump {
    jpeg_error_mgr mgr;
    std::jmp_buf back;
};

void jump_back(j_common_ptr info) { std::longjmp(reinterpret_cast<ErrorJump*>(info->err)->back, 1); }
void stay_quiet(j_common_ptr) {}

// Decodes what `attach` points the decompressor at; empty when it is not a JPEG.
template <class Attach>
cv::Mat decompress(const Attach& attach) {
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
    attach(info);
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

// A libjpeg destination that writes into a std::vector the caller owns. libjpeg's own memory destination frees its
// first buffer when it grows one and hands the caller the grown one only at the end, so after a failure part way the
// caller's pointer is stale and the live buffer leaks; a vector outside the function that calls setjmp is freed by
// its destructor whatever happens.
struct VectorDestination {
    jpeg_destination_mgr pub; // first: libjpeg sees this struct through a pointer to it
    std::vector<unsigned char>* out;
};

constexpr std::size_t k_first_chunk = 1 << 16;

void grow_to(j_compress_ptr info, std::size_t size) {
    auto* dest = reinterpret_cast<VectorDestination*>(info->dest);
    const std::size_t written = dest->out->size() - dest->pub.free_in_buffer;
    bool grown = true;
    try {
        dest->out->resize(size);
    } catch (const std::bad_alloc&) {
        grown = false;
    }
    if (!grown) { // no exception may cross libjpeg's C frames, nor a jump leave a handler: the jump comes after it
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 10);
    }
    dest->pub.next_output_byte = dest->out->data() + written;
    dest->pub.free_in_buffer = size - written;
}

void start_vector(j_compress_ptr info) {
    auto* dest = reinterpret_cast<VectorDestination*>(info->dest);
    dest->out->clear();
    dest->pub.free_in_buffer = 0;
    grow_to(info, k_first_chunk);
}

boolean grow_vector(j_compress_ptr info) {
    auto* dest = reinterpret_cast<VectorDestination*>(info->dest);
    dest->pub.free_in_buffer = 0; // libjpeg asks only when the buffer is full
    grow_to(info, 2 * dest->out->size());
    return TRUE;
}

void finish_vector(j_compress_ptr info) {
    auto* dest = reinterpret_cast<VectorDestination*>(info->dest);
    dest->out->resize(dest->out->size() - dest->pub.free_in_buffer);
}

// Compresses bgr into `out`; false when libjpeg fails. `out` is the caller's: this function's own locals are
// indeterminate after the jump.
bool encode_into(const cv::Mat& bgr, int quality, JpegChroma chroma, std::vector<unsigned char>& out) {
    jpeg_compress_struct info{};
    ErrorJump err{};
    VectorDestination dest{};
    dest.pub.init_destination = start_vector;
    dest.pub.empty_output_buffer = grow_vector;
    dest.pub.term_destination = finish_vector;
    dest.out = &out;
    info.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = jump_back;
    err.mgr.output_message = stay_quiet;
    if (setjmp(err.back)) {
        jpeg_destroy_compress(&info);
        return false;
    }
    jpeg_create_compress(&info);
    info.dest = &dest.pub;
    info.image_width = static_cast<JDIMENSION>(bgr.cols);
    info.image_height = static_cast<JDIMENSION>(bgr.rows);
    info.input_components = 3;
    info.in_color_space = JCS_EXT_BGR;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    if (chroma == JpegChroma::Full) { // the defaults sample luma 2 x 2 against each chroma sample: 4:2:0
        info.comp_info[0].h_samp_factor = 1;
        info.comp_info[0].v_samp_factor = 1;
    }
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = const_cast<JSAMPLE*>(bgr.ptr<JSAMPLE>(static_cast<int>(info.next_scanline)));
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return true;
}

// bgr as JPEG bytes, compressed as OpenCV's imencode asks libjpeg to (its defaults, the quality, BGR input), with
// the chroma subsampled or not.
std::vector<unsigned char> compress(const cv::Mat& bgr, int quality, JpegChroma chroma) {
    std::vector<unsigned char> bytes;
    if (!encode_into(bgr, quality, chroma, bytes)) {
        throw std::runtime_error("cannot save a " + std::to_string(bgr.cols) + "x" + std::to_string(bgr.rows) +
                                 " image as JPEG");
    }
    return bytes;
}

} // namespace

cv::Mat decode_jpeg_file(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        return {};
    }
    return decompress([&](jpeg_decompress_struct& info) { jpeg_stdio_src(&info, file.get()); });
}

cv::Mat resave_jpeg(const cv::Mat& bgr, int quality, JpegChroma chroma) {
    CV_Assert(bgr.type() == CV_8UC3);
    const cv::Mat packed = bgr.isContinuous() ? bgr : bgr.clone();
    const std::vector<unsigned char> bytes = compress(packed, quality, chroma);
    return decompress([&](jpeg_decompress_struct& info) { jpeg_mem_src(&info, bytes.data(), bytes.size()); });
}

} // namespace app
