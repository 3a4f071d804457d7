// The verifier's gradient histogram against OpenCV's HOGDescriptor with the same window, blocks, cells and bins:
// the shipped verifier and ranker were trained on the library's numbers, so ours must be the same numbers, on
// textured, flat, edged and noisy crops alike.
#include <gtest/gtest.h>

#include <vector>

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include "gradient_histogram.h"

namespace tracker {
namespace {

std::vector<float> library_histogram(const cv::Mat& grey) {
    const cv::HOGDescriptor d(cv::Size(k_histogram_window, k_histogram_window), cv::Size(16, 16), cv::Size(8, 8),
                              cv::Size(8, 8), 9);
    std::vector<float> h;
    d.compute(grey, h);
    return h;
}

std::vector<cv::Mat> crops() {
    const int side = k_histogram_window;
    std::vector<cv::Mat> out;
    out.emplace_back(side, side, CV_8UC1, cv::Scalar(77)); // flat: every block at the norms' floors
    cv::Mat disc(side, side, CV_8UC1, cv::Scalar(40));
    cv::circle(disc, {15, 16}, 11, cv::Scalar(230), cv::FILLED, cv::LINE_AA);
    out.push_back(disc);
    cv::Mat edge(side, side, CV_8UC1, cv::Scalar(20)); // a hard edge on the border rows and columns
    edge.row(0).setTo(250);
    edge.col(side - 1).setTo(250);
    out.push_back(edge);
    cv::RNG rng(9);
    for (int i = 0; i < 40; ++i) {
        cv::Mat noisy(side, side, CV_8UC1);
        rng.fill(noisy, cv::RNG::UNIFORM, 0, 256);
        if (i % 2 == 0) {
            cv::GaussianBlur(noisy, noisy, cv::Size(5, 5), 0);
        }
        out.push_back(noisy);
    }
    return out;
}

TEST(GradientHistogram, MatchesOpenCvsDescriptor) {
    ASSERT_EQ(library_histogram(crops().front()).size(), static_cast<std::size_t>(k_histogram_length));
    for (const cv::Mat& grey : crops()) {
        const std::vector<float> expected = library_histogram(grey);
        std::vector<float> ours(k_histogram_length);
        gradient_histogram(grey, ours.data());
        double worst = 0;
        for (int k = 0; k < k_histogram_length; ++k) {
            worst = std::max(worst, static_cast<double>(std::abs(ours[k] - expected[k])));
        }
        // Only the order of float sums differs from the library's.
        EXPECT_LT(worst, 1e-5);
    }
}

TEST(GradientHistogram, RejectsACropOfAnotherSize) {
    std::vector<float> out(k_histogram_length);
    EXPECT_THROW(gradient_histogram(cv::Mat(16, 16, CV_8UC1, cv::Scalar(0)), out.data()), cv::Exception);
    EXPECT_THROW(gradient_histogram(cv::Mat(32, 32, CV_8UC3, cv::Scalar(0)), out.data()), cv::Exception);
}

} // namespace
} // namespace tracker
