#include "tracker/verifier.h"

#include <filesystem>
#include <stdexcept>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>

#include "candidates.h"
#include "gradient_histogram.h"
#include "tracker/assets.h"

namespace tracker {
namespace {

constexpr int k_paint_side = 8; // paint map side
// The labelled box of a sign is its outer edge; a little of the surroundings shows its contrast.
constexpr float k_context = 0.1f;

// The crop the features of `box` read: the box and its context, inside the frame.
cv::Rect feature_crop(const cv::Size& frame, const cv::Rect2f& box) {
    const float mx = k_context * box.width, my = k_context * box.height;
    const cv::Rect r(cv::Point(cvFloor(box.x - mx), cvFloor(box.y - my)),
                     cv::Point(cvCeil(box.x + box.width + mx), cvCeil(box.y + box.height + my)));
    return r & cv::Rect(cv::Point(), frame);
}

// One feature row (1 x feature_length) from the crop r of the frame and the crop's paint maps (paint_maps without
// balance or exposure: per pixel, so the frame's maps cropped are the crop's maps).
void crop_features(const cv::Mat& bgr, const cv::Rect& r, const cv::Mat& red, const cv::Mat& blue, float* f) {
    std::fill(f, f + SignVerifier::feature_length(), 0.f);
    if (r.width < 2 || r.height < 2) {
        return;
    }
    cv::Mat crop, grey;
    cv::resize(bgr(r), crop, cv::Size(k_histogram_window, k_histogram_window), 0, 0, cv::INTER_AREA);
    cv::cvtColor(crop, grey, cv::COLOR_BGR2GRAY);
    gradient_histogram(grey, f);
    int k = k_histogram_length;
    for (const cv::Mat* map : {&red, &blue}) {
        cv::Mat small;
        cv::resize(*map, small, cv::Size(k_paint_side, k_paint_side), 0, 0, cv::INTER_AREA);
        for (int y = 0; y < k_paint_side; ++y) {
            for (int x = 0; x < k_paint_side; ++x) {
                f[k++] = small.at<std::uint8_t>(y, x) / 255.f;
            }
        }
    }
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

int SignVerifier::feature_length() { return k_histogram_length + 2 * k_paint_side * k_paint_side; }

cv::Mat SignVerifier::features(const cv::Mat& bgr, const cv::Rect2f& box) {
    return features(bgr, std::vector<cv::Rect2f>{box});
}

cv::Mat SignVerifier::features(const cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes) {
    cv::Mat out(static_cast<int>(boxes.size()), feature_length(), CV_32F);
    std::vector<cv::Rect> crops;
    cv::Rect painted; // the crops' union: a frame's many regions cover most of it, one detection only its crop
    for (const auto& box : boxes) {
        crops.push_back(feature_crop(bgr.size(), box));
        if (crops.back().width >= 2 && crops.back().height >= 2) {
            painted |= crops.back();
        }
    }
    cv::Mat red, blue;
    if (!painted.empty()) {
        paint_maps(bgr(painted), red, blue);
    }
    cv::parallel_for_(cv::Range(0, out.rows), [&](const cv::Range& range) {
        for (int i = range.start; i < range.end; ++i) {
            const cv::Rect& r = crops[static_cast<std::size_t>(i)];
            const bool sized = r.width >= 2 && r.height >= 2;
            const cv::Rect in_maps = r - painted.tl();
            crop_features(bgr, r, sized ? red(in_maps) : cv::Mat(), sized ? blue(in_maps) : cv::Mat(),
                          out.ptr<float>(i));
        }
    });
    return out;
}

int SignVerifier::classify(const cv::Mat& bgr, const cv::Rect2f& box) const {
    return static_cast<int>(m_svm->predict(features(bgr, box)));
}

std::vector<int> SignVerifier::classify(const cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes) const {
    std::vector<int> classes;
    if (boxes.empty()) {
        return classes;
    }
    cv::Mat predicted; // one row per box; OpenCV's SVM predicts a matrix's rows in parallel
    m_svm->predict(features(bgr, boxes), predicted);
    for (int i = 0; i < predicted.rows; ++i) {
        classes.push_back(static_cast<int>(predicted.at<float>(i)));
    }
    return classes;
}

} // namespace tracker
