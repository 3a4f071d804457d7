// track_scene: run a tracker over a synthetic scene and score it (scenes/scene_eval.h).
#include "scenes/scene_eval.h"

#include <chrono>

#include "tracker/smoothing.h"

namespace tracker {
namespace {

struct SceneRun {
    TruthFile truth;
    PredictionFile pred;
    double wall_ms = 0;
};

SceneRun run_scene(Tracker& tracker, SceneGenerator& scene, long long frames) {
    SceneRun run;
    auto& truth = run.truth;
    auto& pred = run.pred;
    double total_ms = 0;
    for (long long f = 0; f < frames; ++f) {
        const SceneFrame sf = scene.next();
        const int w = sf.bgr.cols, h = sf.bgr.rows;
        truth.frames[f] = FrameRecord{f, w, h, 0, {}, false, {}};
        truth.truth.insert(truth.truth.end(), sf.truth.begin(), sf.truth.end());
        const auto t0 = std::chrono::steady_clock::now();
        const FrameResult r = tracker.process(sf.bgr);
        total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        pred.frames[f] = FrameRecord{f, w, h, static_cast<int>(r.detections.size()), r.timing, true, {}};
        pred.detections.insert(pred.detections.end(), r.detections.begin(), r.detections.end());
    }
    run.wall_ms = frames > 0 ? total_ms / static_cast<double>(frames) : 0.0;
    return run;
}

} // namespace

EvalReport track_scene(Tracker& tracker, SceneGenerator& scene, long long frames, double* wall_ms) {
    const SceneRun run = run_scene(tracker, scene, frames);
    if (wall_ms != nullptr) {
        *wall_ms = run.wall_ms;
    }
    return evaluate(run.truth, run.pred);
}

SceneReports track_scene_both(Tracker& tracker, SceneGenerator& scene, long long frames, const TrackerSettings& settings) {
    SceneRun run = run_scene(tracker, scene, frames);
    SceneReports r;
    r.wall_ms = run.wall_ms;
    r.online = evaluate(run.truth, run.pred);
    smooth_track_angles(run.pred.detections, settings);
    r.offline = evaluate(run.truth, run.pred);
    return r;
}

} // namespace tracker
