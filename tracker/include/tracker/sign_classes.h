#pragma once
// Which sign: the GTSRB class of a detected sign ("speed limit 60", "no overtaking"), from its face.
//
// The face is the sign-plane rectangle around the model's outline, undone from the detection's pose and resampled
// to k_face_side x k_face_side grey levels (tracker/src/common/rectify_math.h; on the GPU for all detections of a
// frame in one launch). Its inner disc (where the category's pictograms and digits are), contrast-normalised (zero
// mean, unit length), is compared with the
// category's stored faces: an RBF support-vector machine per category, trained by tools/train_classes from the
// labelled dev frames. On unit vectors the RBF kernel exp(-gamma |q - t|^2) is exp(-2 gamma (1 - NCC(q, t))), so
// the machine is a weighted vote of normalised cross-correlations with its templates (the support vectors,
// labelled faces); it measured far better than one mean template per class (docs/benchmarks.md, "Sign classes").
//
// The classes are data: assets/classes/classes.json (id, name, category of the 43 GTSDB/GTSRB classes) and
// assets/classes/classifier.yml.gz (the templates and the machines' coefficients).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/model.h"
#include "tracker/types.h"

namespace tracker {

constexpr int k_face_side = 24; // rectified face, pixels a side

// The disc of the face a category's machine compares, in fractions of the face: centre (cx across, cy down) and
// radius (of the side).
struct FaceMask {
    float cx = 0.5f, cy = 0.5f, radius = 0.35f;
};
// The disc for a sign model: around the sign's centre (its origin), `fraction` of the largest circle about it that
// stays inside the outline. A round sign's is centred, 0.7 of its face's half side; a triangle's sits at its
// centroid, below the face's middle, where the pictogram is.
FaceMask face_mask_for(const SignModel& model, float fraction = 0.7f);

struct SignClass {
    int id = -1;
    std::string name;                  // "speed limit 60"
    std::string category_name;         // as classes.json spells it ("prohibitory", "noentry", ...)
    std::optional<Category> category;  // empty: a kind of sign the tracker has no model for
};

// One face's answer: the class (-1: unknown) and its confidence in [0, 1], with every class of the category's
// evidence, which track voting adds up over a track's frames.
struct ClassEvidence {
    int class_id = -1;
    double votes = 0; // share of the class's pairwise duels it won (the answer is the class with most)
    double share = 0; // mean over its duels of the logistic of the decision value: how clearly (the confidence)
};
struct ClassScores {
    int class_id = -1;
    double confidence = 0;
    std::vector<ClassEvidence> scores;
};

// A category's machine: one-vs-one RBF support-vector decision functions (as OpenCV's ml::SVM trains them) over
// templates kept as the 8-bit faces they were made from.
struct CategoryMachine {
    std::vector<int> classes;  // class ids, ascending (the machine's labels)
    double gamma = 1;
    FaceMask mask;
    cv::Mat faces;             // CV_8U, one template per row: the face's pixels inside the mask (mask_indices order)
    cv::Mat templates;         // CV_32F, the same rows normalised (made on load)
    // Decision function d (classes (i, j), i < j, in OpenCV's order): sum_k alpha[k] K(x, t[index[k]]) - rho;
    // positive votes for i.
    std::vector<int> offsets;  // start of function d's terms; offsets.back() = number of terms
    std::vector<float> alpha;
    std::vector<int> index;
    std::vector<float> rho;
};

class SignClassifier {
public:
    // A folder holding classes.json and classifier.yml.gz (empty: default_classes_dir()). Throws
    // std::runtime_error naming the file and the fix when one is missing or malformed.
    static std::unique_ptr<SignClassifier> load(const std::string& dir);
    // The class list alone (classes.json), for tools that train the machines.
    static std::vector<SignClass> load_class_list(const std::string& path);

    SignClassifier(std::vector<SignClass> classes, std::map<Category, CategoryMachine> machines, double min_confidence);

    // The class of a face (CV_8U, k_face_side square) of a sign of `category`. A category with one class (give-way,
    // stop) is that class; one without a machine is unknown.
    ClassScores classify(Category category, const cv::Mat& face) const;

    const std::vector<SignClass>& classes() const { return m_classes; }
    // Name of a class id ("unknown" for -1 or an id not in the list).
    std::string name(int class_id) const;
    double min_confidence() const { return m_min_confidence; }
    const std::map<Category, CategoryMachine>& machines() const { return m_machines; }

    // Writes the machines (with the class list's file name for reference) to `path` (.yml.gz).
    static void save_machines(const std::string& path, const std::map<Category, CategoryMachine>& machines,
                              double min_confidence);

private:
    std::vector<SignClass> m_classes;
    std::map<Category, CategoryMachine> m_machines;
    double m_min_confidence = 0;
};

// assets_dir()/classes (tracker/assets.h).
std::string default_classes_dir();

// Indices (row * side + col) of the face pixels inside a mask, in the order templates keep them.
std::vector<int> mask_indices(const FaceMask& mask);
// The pixels of a face inside a mask, zero mean and unit length (1 x mask_indices(mask).size(), CV_32F); a flat face
// gives zeros.
cv::Mat face_vector(const cv::Mat& face, const FaceMask& mask);

// Rectified faces (CPU): the model outline's sign-plane bounding rectangle at `pose`, and an image box seen face on
// (a labelled sign). `bgr` is a BGR8 frame.
cv::Mat rectify_face(const cv::Mat& bgr, const Camera& camera, const SignModel& model, const Pose& pose);
cv::Mat rectify_box(const cv::Mat& bgr, const cv::Rect2f& box);

// Trains a category's machine (OpenCV ml::SVM, RBF) on faces (CV_8U, k_face_side square) and their class ids.
CategoryMachine train_category_machine(const std::vector<cv::Mat>& faces, const std::vector<int>& class_ids,
                                       const FaceMask& mask, double gamma, double c);

// Track voting: each track's class scores summed over its frames, each frame weighted by the sign's width in
// pixels (a near sign shows its face better); a detection reports its track's best so far.
class ClassVotes {
public:
    // Adds this frame's evidence for `track_id` and returns the track's class (the most votes, weighted) and its
    // confidence (its weighted mean share; unknown below `min_confidence`).
    ClassScores add(int track_id, long long frame, double weight, const ClassScores& frame_scores,
                    double min_confidence);
    // Forgets tracks not seen since frame - max_age.
    void forget_older_than(long long frame, long long max_age);
    void clear() { m_tracks.clear(); }
    std::size_t size() const { return m_tracks.size(); }

private:
    struct Tally {
        std::map<int, std::pair<double, double>> score; // class -> weighted (votes, share)
        double weight = 0;
        long long last_frame = 0;
    };
    std::map<int, Tally> m_tracks;
};

} // namespace tracker
