#pragma once
// The sign verifier: a learned check of a detection's image crop. The pose search finds where a sign model fits;
// the verifier, trained on real and rendered sign crops and on sign-coloured regions that are not signs
// (tools/train_verifier), says whether the crop shows a sign of that category at all. Real frames are full of
// red and blue things that a model's colours fit (lamps, cars, boards, sky through leaves), and real signs of
// one colour differ only in their pictograms, which the models do not draw.
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace cv::ml {
class SVM;
}

namespace tracker {

// The verifier's classes: background, the five modelled categories in tracker::Category order, and signs of
// categories the tracker has no model for (no-entry, priority, ...).
constexpr int k_verifier_background = 0;
constexpr int k_verifier_other_sign = 6;
constexpr int k_verifier_classes = 7;
inline int verifier_class(int category_index) { return 1 + category_index; }
// The category index of a modelled category's verifier class (verifier_class's inverse).
inline int category_of_verifier_class(int cls) { return cls - 1; }

class SignVerifier {
public:
    // Throws std::runtime_error naming the file when it cannot be read.
    static std::unique_ptr<SignVerifier> load(const std::string& path);
    explicit SignVerifier(cv::Ptr<cv::ml::SVM> svm);
    ~SignVerifier();

    // The class of the crop around `box` (pixels) of a BGR frame.
    int classify(const cv::Mat& bgr, const cv::Rect2f& box) const;
    // The classes of many boxes of one frame, in their order: the same answers, computed in parallel.
    std::vector<int> classify(const cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes) const;

    // The feature row of that crop (1 x feature_length(), CV_32F): the shape (a histogram of gradients of the
    // crop at 32 x 32) and the paint (red and blue maps at 8 x 8), so it sees a ring, a triangle or an arrow and
    // their colours at any sign size.
    static cv::Mat features(const cv::Mat& bgr, const cv::Rect2f& box);
    // The same rows for many boxes (boxes.size() x feature_length()), computed in parallel over one pass of the
    // paint maps over the boxes' crops: the candidate ranker's thousands of regions a frame, or a frame's detections.
    static cv::Mat features(const cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes);
    static int feature_length();

private:
    cv::Ptr<cv::ml::SVM> m_svm;
};

// The verifier shipped in the assets (assets_dir()/verifier/signs.yml.gz).
std::string default_verifier_path();

} // namespace tracker
