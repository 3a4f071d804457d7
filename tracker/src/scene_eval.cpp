// track_scene: run a tracker over a synthetic scene and score it (tracker/scene_eval.h).
#include "tracker/scene_eval.h"

#include <chrono>

namespace tracker {

EvalReport track_scene(Tracker& tracker, SceneGenerator& scene, long long frames, double* wall_ms) {
    TruthFile truth;
    PredictionFile pred;
    double total_ms = 0;
    for (long long f = 0; f < frames; ++f) {
        const SceneFrame sf = scene.next();
        const int w = sf.bgr.cols, h = sf.bgr.rows;
        truth.frames[f] = FrameRecord{f, w, h, 0, {}, false};
        truth.truth.insert(truth.truth.end(), sf.truth.begin(), sf.truth.end());
        const auto t0 = std::chrono::steady_clock::now();
        const FrameResult r = tracker.process(sf.bgr);
        total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        pred.frames[f] = FrameRecord{f, w, h, static_cast<int>(r.detections.size()), r.timing, true};
        pred.detections.insert(pred.detections.end(), r.detections.begin(), r.detections.end());
    }
    if (wall_ms != nullptr) {
        *wall_ms = frames > 0 ? total_ms / static_cast<double>(frames) : 0.0;
    }
    return evaluate(truth, pred);
}

} // namespace tracker
