#include "class_labeller.h"

#include <algorithm>
#include <chrono>

#include "face_maps.h"
#include "search_runner.h"
#if defined(TRACKER_HAVE_CUDA)
#include "cuda/device_frame.h"
#include "cuda/rectify.h"
#else
namespace tracker {
class DeviceRectifier {}; // never created without CUDA
} // namespace tracker
#endif

namespace tracker {

void ClassLabeller::RectifierDeleter::operator()(DeviceRectifier* r) const { delete r; }

ClassLabeller::ClassLabeller(std::unique_ptr<SignClassifier> classifier) : m_classifier(std::move(classifier)) {}
ClassLabeller::~ClassLabeller() = default;

void ClassLabeller::label(std::vector<Detection>& detections, const cv::Mat* host, SearchRunner& search,
                          const Camera& camera, const std::vector<SignModel>& models, long long frame, int max_missed,
                          StageTiming& timing) {
    const auto t0 = std::chrono::steady_clock::now();
    // A track ends after max_missed frames unmatched; its tally can go one frame later.
    m_votes.forget_older_than(frame, max_missed + 1);
    std::vector<math::FaceMap> maps;
    std::vector<std::size_t> which; // detection of each map
    for (std::size_t i = 0; i < detections.size(); ++i) {
        if (const SignModel* m = base_model(models, detections[i].category)) {
            maps.push_back(face_map_for(camera, *m, detections[i].pose));
            which.push_back(i);
        }
    }
    std::vector<cv::Mat> faces;
    bool done = false;
#if defined(TRACKER_HAVE_CUDA)
    if (DeviceFrame* device = search.device_frame(); device != nullptr && device->image().data != nullptr && !maps.empty()) {
        if (!m_gpu) m_gpu.reset(new DeviceRectifier());
        const DeviceFrame::Image im = device->image();
        timing.classify_gpu_ms = m_gpu->rectify(im.data, im.pitch, im.width, im.height, maps, k_face_side, faces,
                                                device->stream());
        done = true;
    }
#else
    (void)search;
#endif
    if (!done && host != nullptr) {
        rectify_faces_cpu(*host, maps, faces);
        done = true;
    }
    for (std::size_t k = 0; k < maps.size() && done; ++k) {
        Detection& d = detections[which[k]];
        const ClassScores here = m_classifier->classify(d.category, faces[k]);
        const ClassScores track = d.track_id >= 0
                                      ? m_votes.add(d.track_id, frame, std::max(1.f, d.box.width), here,
                                                    m_classifier->min_confidence())
                                      : here;
        d.class_id = track.class_id;
        d.class_name = m_classifier->name(track.class_id);
        d.class_confidence = track.confidence;
    }
    timing.classify_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace tracker
