#include "tracker/verifier.h"

#include <filesystem>
#include <stdexcept>

#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>
#include <opencv2/objdetect.hpp>

#include "candidates.h"
#include "tracker/assets.h"

namespace tracker {
namespace {

constexpr int k_window = 32;    // crop side for the gradient histogram
constexpr int k_paint_side = 8; // paint map side
// The labelled box of a sign is its outer edge; a little of the surroundings shows its contrast.
constexpr float k_context = 0.1f;

const cv::HOGDescriptor& hog() {
    static const cv::HOGDescriptor d(cv::Size(k_window, k_window), cv::Size(16, 16), cv::Size(8, 8), cv::Size(8, 8), 9);
    return d;
}

} // namespace

std::string default_verifier_path() { return assets_dir() + "/verifier/signs.yml.gz"; }

std::unique_ptr<SignVerifier> SignVerifier::load(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw std::runtime_error(path + ": sign verifier not found; reinstall, point the verifier setting at a file "
                                        "from tools/train_verifier, or set it to \"none\"");
    }
    cv::Ptr<cv::ml::SVM> svm;
    try {
        svm = cv::ml::SVM::load(path);
    } catch (const cv::Exception&) {
        svm.release();
    }
    if (svm.empty() || !svm->isTrained() || svm->getVarCount() != feature_length()) {
        throw std::runtime_error(path + ": not a sign verifier of this version; retrain it with tools/train_verifier "
                                        "or set verifier to \"none\"");
    }
    return std::make_unique<SignVerifier>(svm);
}

SignVerifier::SignVerifier(cv::Ptr<cv::ml::SVM> svm) : m_svm(std::move(svm)) {}
SignVerifier::~SignVerifier() = default;

int SignVerifier::feature_length() {
    return static_cast<int>(hog().getDescriptorSize()) + 2 * k_paint_side * k_paint_side;
}

cv::Mat SignVerifier::features(const cv::Mat& bgr, const cv::Rect2f& box) {
    const float mx = k_context * box.width, my = k_context * box.height;
    cv::Rect r(cv::Point(cvFloor(box.x - mx), cvFloor(box.y - my)),
               cv::Point(cvCeil(box.x + box.width + mx), cvCeil(box.y + box.height + my)));
    r &= cv::Rect(0, 0, bgr.cols, bgr.rows);
    cv::Mat out = cv::Mat::zeros(1, feature_length(), CV_32F);
    if (r.width < 2 || r.height < 2) {
        return out;
    }
    cv::Mat crop, grey;
    cv::resize(bgr(r), crop, cv::Size(k_window, k_window), 0, 0, cv::INTER_AREA);
    cv::cvtColor(crop, grey, cv::COLOR_BGR2GRAY);
    std::vector<float> shape;
    hog().compute(grey, shape);
    cv::Mat red, blue, red_small, blue_small;
    paint_maps(bgr(r), red, blue);
    cv::resize(red, red_small, cv::Size(k_paint_side, k_paint_side), 0, 0, cv::INTER_AREA);
    cv::resize(blue, blue_small, cv::Size(k_paint_side, k_paint_side), 0, 0, cv::INTER_AREA);
    auto* f = out.ptr<float>(0);
    int k = 0;
    for (float v : shape) {
        f[k++] = v;
    }
    for (const cv::Mat* m : {&red_small, &blue_small}) {
        for (int y = 0; y < k_paint_side; ++y) {
            for (int x = 0; x < k_paint_side; ++x) {
                f[k++] = m->at<std::uint8_t>(y, x) / 255.f;
            }
        }
    }
    return out;
}

int SignVerifier::classify(const cv::Mat& bgr, const cv::Rect2f& box) const {
    return static_cast<int>(m_svm->predict(features(bgr, box)));
}

} // namespace tracker
