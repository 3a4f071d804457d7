// Non-temporal copy into the upload's staging buffer (see staging_copy.h for why).
#include "staging_copy.h"

#include <cstdint>
#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tracker {
namespace {

void stream_bytes(unsigned char* dst, const unsigned char* src, std::size_t n) {
#if defined(__SSE2__)
    // Plain copy up to the first 16-byte boundary of dst, streamed 16-byte stores, plain copy of the tail.
    const std::size_t head = std::min<std::size_t>(n, (16 - reinterpret_cast<std::uintptr_t>(dst) % 16) % 16);
    std::memcpy(dst, src, head);
    std::size_t i = head;
    for (; i + 64 <= n; i += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
        const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    for (; i + 16 <= n; i += 16) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
    }
    std::memcpy(dst + i, src + i, n - i);
#else
    std::memcpy(dst, src, n);
#endif
}

} // namespace

void copy_to_staging(const cv::Mat& src, unsigned char* dst) {
    const std::size_t row = static_cast<std::size_t>(src.cols) * src.elemSize();
    if (src.isContinuous()) {
        stream_bytes(dst, src.data, row * static_cast<std::size_t>(src.rows));
    } else {
        for (int y = 0; y < src.rows; ++y) {
            stream_bytes(dst + row * static_cast<std::size_t>(y), src.ptr<unsigned char>(y), row);
        }
    }
#if defined(__SSE2__)
    _mm_sfence(); // the streamed stores are globally visible before the copy engine is told to read them
#endif
}

} // namespace tracker
