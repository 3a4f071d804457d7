#pragma once
// The tracker's hook for sign classes (tracker/sign_classes.h): each frame's detections are rectified together
// (one GPU launch when the frame is on the device, else on the host with the same maths), classified within their
// category, and labelled with their track's vote over its frames.
#include <memory>
#include <vector>

#include "tracker/camera.h"
#include "tracker/model.h"
#include "tracker/sign_classes.h"
#include "tracker/types.h"

namespace tracker {

class SearchRunner;
class DeviceRectifier;

class ClassLabeller {
public:
    explicit ClassLabeller(std::unique_ptr<SignClassifier> classifier);
    ~ClassLabeller();

    // Sets class_id, class_name and class_confidence of every detection of the frame. `host` is the frame on the
    // host (null when it is only on the device); `search` holds the device frame on a GPU backend.
    void label(std::vector<Detection>& detections, const cv::Mat* host, SearchRunner& search, const Camera& camera,
               const std::vector<SignModel>& models, long long frame, int max_missed, StageTiming& timing);
    void reset() { m_votes.clear(); }
    const SignClassifier& classifier() const { return *m_classifier; }

private:
    std::unique_ptr<SignClassifier> m_classifier;
    ClassVotes m_votes;
    struct RectifierDeleter {
        void operator()(DeviceRectifier* r) const;
    };
    std::unique_ptr<DeviceRectifier, RectifierDeleter> m_gpu; // made on the first GPU frame
};

} // namespace tracker
