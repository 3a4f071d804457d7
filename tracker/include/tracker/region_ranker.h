#pragma once
// The candidate ranker: a linear score of how much a candidate region looks like a sign, on the verifier's
// features (tracker/verifier.h). A cluttered real frame (autumn leaves, brake lights, brick) has hundreds to
// thousands of regions of sign paint; ranked by paint strength alone, a sign's ring (mostly white inside its box)
// falls behind solid blobs of red, and a cap on the regions searched drops it. The ranker is cheap enough
// (a gradient histogram and a dot product) to score every region, so the cap keeps the sign-like ones.
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace cv::ml {
class SVM;
}

namespace tracker {

class RegionRanker {
public:
    // Throws std::runtime_error naming the file when it cannot be read or is not a ranker of this version.
    static std::unique_ptr<RegionRanker> load(const std::string& path);
    // A trained linear two-class SVM (class 0 background, class 1 sign) over SignVerifier::features.
    explicit RegionRanker(const cv::ml::SVM& svm);
    RegionRanker(cv::Mat weights, float bias);
    // Writes the weights and bias (a few kilobytes of OpenCV YAML; a .gz name compresses it).
    void save(const std::string& path) const;

    // Higher is more sign-like; 0 is the trained boundary between background and sign.
    float score(const cv::Mat& bgr, const cv::Rect2f& box) const;
    // The scores of many boxes of one frame, in their order (SignVerifier's batch features).
    std::vector<float> scores(const cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes) const;
    float score_features(const cv::Mat& features) const;

private:
    cv::Mat m_weights; // 1 x feature_length, CV_32F: the sign side's normal
    float m_bias = 0;
};

// The ranker shipped in the assets (assets_dir()/verifier/regions.yml.gz).
std::string default_ranker_path();

} // namespace tracker
