// copy_to_staging: the upload's non-temporal copy writes exactly the frame's rows back to back.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "staging_copy.h"

namespace tracker {
namespace {

std::vector<unsigned char> packed_rows(const cv::Mat& m) {
    std::vector<unsigned char> out;
    for (int y = 0; y < m.rows; ++y) {
        out.insert(out.end(), m.ptr<unsigned char>(y), m.ptr<unsigned char>(y) + m.cols * m.elemSize());
    }
    return out;
}

cv::Mat counting_frame(int w, int h) {
    cv::Mat m(h, w, CV_8UC3);
    std::iota(m.data, m.data + m.total() * m.elemSize(), static_cast<unsigned char>(7));
    return m;
}

TEST(StagingCopy, ContinuousFrameIsCopiedByteForByte) {
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1280, 720}, {333, 211}, {1, 1}, {5, 3}}) {
        const cv::Mat frame = counting_frame(w, h);
        std::vector<unsigned char> dst(frame.total() * 3 + 64, 0xEE);
        copy_to_staging(frame, dst.data());
        const auto want = packed_rows(frame);
        EXPECT_TRUE(std::equal(want.begin(), want.end(), dst.begin())) << w << "x" << h;
        EXPECT_EQ(dst[want.size()], 0xEE) << "wrote past the frame, " << w << "x" << h;
    }
}

TEST(StagingCopy, RegionOfInterestAndUnalignedDestination) {
    const cv::Mat big = counting_frame(401, 97);
    const cv::Mat roi = big(cv::Rect(3, 5, 377, 61)); // not continuous, odd row length (1,131 bytes)
    ASSERT_FALSE(roi.isContinuous());
    for (std::size_t offset : {0u, 1u, 7u, 15u}) {
        std::vector<unsigned char> dst(roi.total() * 3 + 64, 0xEE);
        copy_to_staging(roi, dst.data() + offset);
        const auto want = packed_rows(roi);
        EXPECT_TRUE(std::equal(want.begin(), want.end(), dst.begin() + static_cast<std::ptrdiff_t>(offset)))
            << "offset " << offset;
        EXPECT_EQ(dst[offset + want.size()], 0xEE);
        for (std::size_t i = 0; i < offset; ++i) {
            EXPECT_EQ(dst[i], 0xEE) << "wrote before the destination";
        }
    }
}

} // namespace
} // namespace tracker
