#include "tracker/region_ranker.h"

#include <filesystem>
#include <stdexcept>

#include <opencv2/ml.hpp>

#include "tracker/assets.h"
#include "tracker/verifier.h"

namespace tracker {

std::string default_ranker_path() { return assets_dir() + "/verifier/regions.yml.gz"; }

namespace {
constexpr const char* k_format = "swarmtrack-ranker/1";
}

std::unique_ptr<RegionRanker> RegionRanker::load(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw std::runtime_error(path + ": candidate ranker not found; reinstall, point candidate_ranker at a file "
                                        "from tools/train_verifier, or set it to \"none\"");
    }
    cv::Mat weights;
    float bias = 0;
    std::string format;
    try {
        cv::FileStorage fs(path, cv::FileStorage::READ);
        fs["format"] >> format;
        fs["weights"] >> weights;
        fs["bias"] >> bias;
    } catch (const cv::Exception&) {
        format.clear();
    }
    if (format != k_format || weights.type() != CV_32F || weights.rows != 1 ||
        weights.cols != SignVerifier::feature_length()) {
        throw std::runtime_error(path + ": not a candidate ranker of this version; retrain it with "
                                        "tools/train_verifier or set candidate_ranker to \"none\"");
    }
    return std::make_unique<RegionRanker>(weights, bias);
}

RegionRanker::RegionRanker(cv::Mat weights, float bias) : m_weights(std::move(weights)), m_bias(bias) {}

void RegionRanker::save(const std::string& path) const {
    cv::FileStorage fs(path, cv::FileStorage::WRITE);
    fs << "format" << k_format << "weights" << m_weights << "bias" << m_bias;
}

RegionRanker::RegionRanker(const cv::ml::SVM& svm) {
    // A linear SVM keeps one compressed support vector w; its decision is w.x - rho, positive for the first
    // class (background), so the sign side's score is rho - w.x.
    cv::Mat alpha, index;
    const double rho = svm.getDecisionFunction(0, alpha, index);
    svm.getSupportVectors().convertTo(m_weights, CV_32F);
    m_weights *= -alpha.at<double>(0);
    m_bias = static_cast<float>(rho);
}

float RegionRanker::score_features(const cv::Mat& features) const {
    return static_cast<float>(m_weights.dot(features)) + m_bias;
}

float RegionRanker::score(const cv::Mat& bgr, const cv::Rect2f& box) const {
    return score_features(SignVerifier::features(bgr, box));
}

std::vector<float> RegionRanker::scores(const cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes) const {
    std::vector<float> out(boxes.size());
    if (boxes.empty()) {
        return out;
    }
    const cv::Mat products = SignVerifier::features(bgr, boxes) * m_weights.t();
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = products.at<float>(static_cast<int>(i)) + m_bias;
    }
    return out;
}

} // namespace tracker
