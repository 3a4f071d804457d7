// The multi-swarm tracker: per frame, tracking swarms restart around each track's predicted pose (one engine
// run, per-swarm bounds), found signs are masked, then detection swarms per category search the frustum
// (a second run). All swarms of a run are scored by one batched evaluator call per generation.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <opencv2/imgproc.hpp>
#include <spdlog/spdlog.h>

#include "candidate_jobs.h"
#if defined(TRACKER_HAVE_CUDA)
#include "cuda/host_copy.h"
#endif
#include "candidates.h"
#include "search_runner.h"
#include "sign_evaluator.h"
#include "track_state.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"
#include "tracker/region_ranker.h"
#include "tracker/verifier.h"

namespace tracker {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double k_takeover_margin = 0.05;
// The probe search that ranks candidate jobs: enough particles to find a sign inside a region's small box.
constexpr int k_probe_particles = 16;
// The alpha-beta filter's velocity gain for a position gain alpha (the critically damped choice).
double depth_beta(double alpha) { return alpha * alpha / (2.0 - alpha); }
double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

class SignTracker : public Tracker {
public:
    SignTracker(const TrackerSettings& s, const Camera& camera) : m_camera(camera) { configure(s); }

    FrameResult process(const cv::Mat& bgr) override {
        const auto t0 = Clock::now();
        FrameResult r;
        fit_camera(bgr.cols, bgr.rows);
        m_search->prepare(bgr, r.timing);
        m_host_frame = &bgr;
        finish_frame(r, t0);
        m_host_frame = nullptr;
        return r;
    }

    // A frame already on the device: its host copy (one device-to-host copy, in the readback stage) serves the
    // candidate regions and the verifier, so it is detected as the same frame from the host would be.
    FrameResult process(const cv::cuda::GpuMat& bgr) override {
        const auto t0 = Clock::now();
        FrameResult r;
        fit_camera(bgr.cols, bgr.rows);
        m_search->prepare(bgr, r.timing);
#if defined(TRACKER_HAVE_CUDA)
        const auto c0 = Clock::now();
        copy_to_host(bgr, m_device_copy, m_search->device_stream());
        r.timing.readback_ms += ms_between(c0, Clock::now());
        m_host_frame = &m_device_copy;
#endif
        finish_frame(r, t0);
        m_host_frame = nullptr;
        return r;
    }

    void reset() override {
        m_tracks.clear();
        m_frame = 0;
        m_next_id = 1;
    }
    const TrackerSettings& settings() const override { return m_settings; }
    void update_settings(const TrackerSettings& s) override {
        s.validate();
        const bool rebuild = s.models_dir != m_settings.models_dir || s.categories != m_settings.categories ||
                             s.verifier != m_settings.verifier || s.candidate_ranker != m_settings.candidate_ranker ||
                             s.backend != m_settings.backend || s.strategy != m_settings.strategy;
        if (rebuild) {
            configure(s);
        } else {
            m_settings = s;
            m_search->set_settings(s);
            apply_weights();
        }
    }
    std::string backend_name() const override { return m_search->backend_name(); }

private:
    void configure(const TrackerSettings& s) {
        s.validate();
        m_settings = s;
        m_models = load_sign_models(s.models_dir, s.categories);
        m_verifier = s.verifier == "none" ? nullptr
                                          : SignVerifier::load(s.verifier.empty() ? default_verifier_path() : s.verifier);
        m_ranker = s.candidate_ranker == "none"
                       ? nullptr
                       : RegionRanker::load(s.candidate_ranker.empty() ? default_ranker_path() : s.candidate_ranker);
        m_search = std::make_unique<SearchRunner>(m_models, m_camera, s);
        apply_weights();
        m_tracks.clear();
    }

    void apply_weights() {
        m_search->evaluator().set_weights(fitness_weights(m_settings));
    }

    void fit_camera(int w, int h) {
        if (w != m_camera.width || h != m_camera.height) {
            m_camera = m_camera.scaled_to(w, h);
            m_search = std::make_unique<SearchRunner>(m_models, m_camera, m_settings);
            apply_weights();
        }
    }

    Frustum frustum() const {
        const auto& s = m_settings;
        return {s.z_min, s.z_max, s.x_min, s.x_max, s.y_min, s.y_max, s.yaw_range, s.pitch_range, s.roll_range};
    }

    // Width in pixels of track t's sign at depth z (its model's diameter through the pinhole).
    double sign_width_px(const Track& t, double z) const {
        return m_camera.fx * 2.0 * m_models[static_cast<std::size_t>(t.model)].radius / z;
    }

    // Box around the predicted pose that a tracking swarm searches.
    void track_bounds(const Track& t, const PoseSpace& space, std::vector<double>& lo, std::vector<double>& hi) const {
        const auto& s = m_settings;
        const PoseVec p = t.predicted();
        const double size_px = sign_width_px(t, p[2]);
        const double f = s.respread_fraction;
        const double uv = (3.0 + f * size_px) / m_camera.fx;
        const double fa = s.angle_respread_fraction;
        const double half[6] = {uv + std::abs(t.velocity[0]), uv + std::abs(t.velocity[1]),
                                0.4 * f * p[2] + std::abs(t.velocity[2]), fa * s.yaw_range + 1.0,
                                fa * s.pitch_range + 1.0, fa * s.roll_range + 1.0};
        std::vector<double> flo, fhi;
        frustum_bounds(frustum(), m_camera, PoseSpace{}, flo, fhi);
        lo.clear();
        hi.clear();
        for (int k = 0; k < 6; ++k) {
            if (!space.active[static_cast<std::size_t>(k)]) {
                continue;
            }
            const auto kk = static_cast<std::size_t>(k);
            double a = std::max(p[kk] - half[k], flo[kk]), b = std::min(p[kk] + half[k], fhi[kk]);
            if (b - a < 1e-6) { // prediction left the frustum: keep a sliver at its edge
                a = std::min(a, fhi[kk] - 1e-3);
                b = a + 1e-3;
            }
            lo.push_back(a);
            hi.push_back(b);
        }
    }

    // Start box of a tracking swarm's focused particles: track_focus_scale of the track box, centred on the
    // predicted pose (clamped into the box).
    void focus_box(const Track& t, const PoseSpace& space, SwarmJob& j) const {
        const PoseVec p = t.predicted();
        const double scale = m_settings.track_focus_scale;
        std::size_t i = 0;
        for (int k = 0; k < 6; ++k) {
            if (!space.active[static_cast<std::size_t>(k)]) {
                continue;
            }
            const double lo = j.lower[i], hi = j.upper[i];
            const double half = 0.5 * scale * (hi - lo);
            const double c = std::clamp(p[static_cast<std::size_t>(k)], lo, hi);
            j.start_lower.push_back(std::max(lo, c - half));
            j.start_upper.push_back(std::min(hi, c + half));
            ++i;
        }
    }

    PoseSpace track_space() const {
        PoseSpace sp;
        sp.active = {true, true, true, m_settings.yaw_range > 0, m_settings.pitch_range > 0, m_settings.roll_range > 0};
        return sp;
    }
    PoseSpace detect_space() const {
        PoseSpace sp = track_space();
        if (!m_settings.detect_rotation) {
            sp.active[3] = sp.active[4] = sp.active[5] = false;
        }
        return sp;
    }

    Detection make_detection(const Track& t) const {
        Detection d;
        d.frame = m_frame;
        d.track_id = t.id;
        d.category = t.category;
        d.pose = to_pose(t.pose);
        d.fitness = t.fitness;
        d.outline = t.outline; // place() projected it at this pose
        d.box = t.box;
        d.measured_angles = t.measured_angles;
        d.angle_evidence = t.measured_weight;
        return d;
    }

    void finish_frame(FrameResult& r, Clock::time_point t0);
    // Whether the verifier sees a sign of the track's category in its box (true without a verifier or a host frame).
    bool verified(const Track& t, StageTiming& timing) const {
        if (!m_verifier || m_host_frame == nullptr) {
            return true;
        }
        const auto t0 = Clock::now();
        const bool ok = m_verifier->classify(*m_host_frame, t.box) == verifier_class(static_cast<int>(t.category));
        timing.candidates_ms += ms_between(t0, Clock::now());
        return ok;
    }
    std::vector<SwarmJob> candidate_detection_jobs(const PoseSpace& ds, const std::vector<double>& lo,
                                                   const std::vector<double>& hi, const std::vector<cv::Rect2f>& masks,
                                                   const std::vector<int>& mask_models, std::uint64_t seed,
                                                   StageTiming& timing) const;

    // A track's projected outline and box at its pose.
    void place(Track& t) const {
        t.outline = project_points(m_camera, to_pose(t.pose), m_models[static_cast<std::size_t>(t.model)].outline);
        t.box = bounding_box(t.outline);
    }

    // Duplicates: outlines overlapping by more than duplicate_iou, or one mostly inside the other (a small red
    // sign fitted into the corner of a large red rim). Outlines, not boxes: a sign standing behind another
    // (a danger triangle beside the give-way triangle in front of it) shares much of its box with it but
    // little of its outline, and is a sign of its own.
    bool same_sign(const Track& a, const Track& b) const {
        if ((a.box & b.box).area() <= 0.f) {
            return false;
        }
        std::vector<cv::Point2f> common;
        const double inter = std::max(0.f, cv::intersectConvexConvex(a.outline, b.outline, common, true));
        const double area_a = cv::contourArea(a.outline), area_b = cv::contourArea(b.outline);
        const double smaller = std::min(area_a, area_b);
        return inter > m_settings.duplicate_iou * (area_a + area_b - inter) || (smaller > 0.0 && inter > 0.6 * smaller);
    }

    TrackerSettings m_settings;
    Camera m_camera;
    std::vector<SignModel> m_models;
    std::unique_ptr<SearchRunner> m_search;
    std::vector<Track> m_tracks;
    long long m_frame = 0;
    int m_next_id = 1;
    const cv::Mat* m_host_frame = nullptr; // the frame being processed, when it came from the host
    std::unique_ptr<SignVerifier> m_verifier;
    std::unique_ptr<RegionRanker> m_ranker;
    cv::Mat m_device_copy; // host copy of a device frame (reused)
};

// Candidate regions -> (region, model) jobs -> a short probe search of every job -> the best jobs, which the
// caller searches in full with the tiles' swarms.
std::vector<SwarmJob> SignTracker::candidate_detection_jobs(const PoseSpace& ds, const std::vector<double>& lo,
                                                            const std::vector<double>& hi,
                                                            const std::vector<cv::Rect2f>& masks,
                                                            const std::vector<int>& mask_models, std::uint64_t seed,
                                                            StageTiming& timing) const {
    const auto& s = m_settings;
    if (m_host_frame == nullptr || s.candidate_regions <= 0) {
        return {};
    }
    const auto t0 = Clock::now();
    CandidateOptions opt;
    opt.max_candidates = s.candidate_regions;
    opt.ranker = m_ranker.get();
    const auto regions = find_candidates(*m_host_frame, opt);
    auto jobs = candidate_jobs(regions, m_models, m_camera, lo, hi, s.z_min, s.z_max);
    timing.candidates_ms += ms_between(t0, Clock::now());
    const int keep = s.candidate_swarms > 0 ? s.candidate_swarms : (m_search->on_gpu() ? 96 : 20);
    if (static_cast<int>(jobs.size()) <= keep) {
        return jobs;
    }
    const auto probe = m_search->run(ds, jobs, masks, mask_models, seed, timing,
                                     SearchSize{k_probe_particles, s.candidate_probe_generations});
    std::vector<SwarmJob> kept;
    for (std::size_t i : best_jobs(probe, keep)) {
        kept.push_back(std::move(jobs[i]));
    }
    return kept;
}

void SignTracker::finish_frame(FrameResult& r, Clock::time_point t0) {
    const auto& s = m_settings;
    const std::uint64_t seed = s.seed * 1000003ULL + static_cast<std::uint64_t>(m_frame) * 2ULL;
    const cv::Rect2f image(0.f, 0.f, static_cast<float>(m_camera.width), static_cast<float>(m_camera.height));

    // 1. Tracking swarms around each track's predicted pose.
    const PoseSpace ts = track_space();
    std::vector<SwarmJob> jobs;
    for (const auto& t : m_tracks) {
        SwarmJob j;
        track_bounds(t, ts, j.lower, j.upper);
        if (m_settings.track_focus_share > 0.0) { // the search uses a start box only then
            focus_box(t, ts, j);
        }
        j.target = {t.model, false};
        jobs.push_back(std::move(j));
    }
    const auto tracked = m_search->run(ts, jobs, {}, {}, seed, r.timing);
    for (std::size_t i = 0; i < m_tracks.size(); ++i) {
        Track& t = m_tracks[i];
        const PoseVec before = t.pose;
        if (tracked[i].fitness >= s.track_threshold) {
            const Pose p = ts.from_vector(tracked[i].best.data());
            const PoseVec predicted = t.predicted();
            t.pose = to_vec(p);
            for (std::size_t k = 0; k < 2; ++k) {
                const double step = t.pose[k] - before[k];
                t.velocity[k] = t.hits <= 1 ? step : 0.5 * t.velocity[k] + 0.5 * step;
            }
            // Depth: a sign's size gives it only to a few per cent, but the vehicle's motion is smooth, so an
            // alpha-beta filter on (z, dz) follows the measurements with less noise than any one of them.
            // Its first measurements are combined as a least-squares line fit (the filter's gains start at 1
            // and fall to the steady-state gain), so a noisy first depth does not become a wrong velocity.
            // The detection's own depth (coarser, no angles) is not one of them.
            const int n = t.hits; // tracking measurements, this one included
            if (n <= 1) {
                t.velocity[2] = 0;
            } else {
                const double nn = static_cast<double>(n);
                const double alpha = std::max(s.depth_filter_gain, 2.0 * (2.0 * nn - 1.0) / (nn * (nn + 1.0)));
                const double beta = std::max(depth_beta(s.depth_filter_gain), 6.0 / (nn * (nn + 1.0)));
                const double r = t.pose[2] - predicted[2];
                t.pose[2] = predicted[2] + alpha * r;
                t.velocity[2] += beta * r;
            }
            // Driving straight, a sign's orientation in the camera frame stays put, and small frontal signs
            // show it only faintly: average the angle estimates over the track, each frame weighted by the
            // sign's area in pixels (a near sign's angles are far better determined than a far one's), with
            // older frames fading so a slowly turning view is still followed.
            const double size_px = sign_width_px(t, std::max(t.pose[2], 1e-3));
            const double wgt = size_px * size_px;
            t.angle_weight = s.angle_memory * t.angle_weight + wgt;
            const double a = wgt / t.angle_weight;
            t.measured_weight = wgt;
            for (std::size_t k = 3; k < 6; ++k) {
                t.measured_angles[k - 3] = t.pose[k];
                t.pose[k] = (1 - a) * before[k] + a * t.pose[k];
                t.velocity[k] = 0;
            }
            t.fitness = tracked[i].fitness;
            t.peak_fitness = std::max(t.peak_fitness, t.fitness);
            ++t.hits;
            t.missed = 0;
        } else {
            t.pose = t.predicted();
            t.fitness = tracked[i].fitness;
            t.measured_weight = 0;
            ++t.missed;
        }
        place(t);
    }
    // Tracks end after K misses, when they pass the near plane, or leave the image.
    m_tracks.erase(std::remove_if(m_tracks.begin(), m_tracks.end(),
                                  [&](const Track& t) {
                                      return t.missed > s.max_missed || t.pose[2] < s.z_min ||
                                             (t.box & image).area() < 0.25f * t.box.area();
                                  }),
                   m_tracks.end());
    // Duplicate tracks: keep confirmed, long-lived, fit ones.
    std::stable_sort(m_tracks.begin(), m_tracks.end(), [](const Track& a, const Track& b) {
        if ((a.id >= 0) != (b.id >= 0)) {
            return a.id >= 0;
        }
        return a.hits != b.hits ? a.hits > b.hits : a.fitness > b.fitness;
    });
    std::vector<Track> kept;
    for (const auto& t : m_tracks) {
        const bool dup = std::any_of(kept.begin(), kept.end(), [&](const Track& k) { return same_sign(k, t); });
        if (!dup) {
            kept.push_back(t);
        }
    }
    m_tracks = std::move(kept);

    // 2. Detection swarms over the frustum, blind to what the tracks cover (except weak tracks, see Track::weak).
    const PoseSpace ds = detect_space();
    std::vector<SwarmJob> det_jobs;
    std::vector<double> lo, hi;
    frustum_bounds(frustum(), m_camera, ds, lo, hi);
    // The image is split into columns x rows tiles (centres of the sign, with a small overlap); each tile has
    // its own swarms per category, so signs of one category in different parts of the image do not compete
    // for one swarm and every part of the frustum is searched densely. 0 = auto: a GPU affords 6 x 3 tiles
    // (better recall on the shipped scenes for under a millisecond more; docs/benchmarks.md, "Design evidence").
    // The CPU backend, where every swarm costs wall time, keeps 4 x 2, or 2 x 1 when
    // candidate swarms search too (a host frame and candidate_regions > 0): on real frames the candidates find the
    // signs, and the two tiles still catch the far, dim signs of the night scene whose paint is too faint for a
    // region (docs/benchmarks.md).
    const bool gpu = m_search->on_gpu();
    const bool with_candidates = m_host_frame != nullptr && s.candidate_regions > 0;
    const int cols = s.detection_columns != 0 ? s.detection_columns : (gpu ? 6 : (with_candidates ? 2 : 4));
    const int rows = s.detection_rows != 0 ? s.detection_rows : (gpu ? 3 : (with_candidates ? 1 : 2));
    const double du = (hi[0] - lo[0]) / cols, dv = (hi[1] - lo[1]) / rows;
    for (std::size_t m = 0; m < m_models.size(); ++m) {
        for (int k = 0; k < s.detection_swarms_per_category; ++k) {
            for (int ty = 0; ty < rows; ++ty) {
                for (int tx = 0; tx < cols; ++tx) {
                    SwarmJob j{lo, hi, {static_cast<int>(m), true}, {}, {}};
                    j.lower[0] = std::max(lo[0], lo[0] + (tx - 0.05) * du);
                    j.upper[0] = std::min(hi[0], lo[0] + (tx + 1.05) * du);
                    j.lower[1] = std::max(lo[1], lo[1] + (ty - 0.05) * dv);
                    j.upper[1] = std::min(hi[1], lo[1] + (ty + 1.05) * dv);
                    det_jobs.push_back(std::move(j));
                }
            }
        }
    }
    std::vector<cv::Rect2f> masks;
    std::vector<int> mask_models;
    for (const auto& t : m_tracks) {
        if (t.weak()) {
            continue;
        }
        mask_models.push_back(t.model);
        const float gx = 0.1f * t.box.width, gy = 0.1f * t.box.height;
        masks.emplace_back(t.box.x - gx, t.box.y - gy, t.box.width + 2 * gx, t.box.height + 2 * gy);
    }
    for (auto& j : candidate_detection_jobs(ds, lo, hi, masks, mask_models, seed ^ 0x9e3779b97f4a7c15ULL, r.timing)) {
        det_jobs.push_back(std::move(j));
    }
    const auto found = m_search->run(ds, det_jobs, masks, mask_models, seed + 1, r.timing);
    std::vector<Track> fresh;
    for (std::size_t i = 0; i < det_jobs.size(); ++i) {
        if (found[i].fitness < s.detect_threshold) {
            continue;
        }
        Track t;
        t.model = det_jobs[i].target.model;
        t.category = m_models[static_cast<std::size_t>(t.model)].category;
        t.pose = to_vec(ds.from_vector(found[i].best.data()));
        t.fitness = found[i].fitness;
        t.peak_fitness = t.fitness;
        t.hits = 1;
        // Angles start at the detection's (0 unless detection searches them) with the weight of one frame of
        // a sign angle_prior_px wide: a far sign's faint angle evidence moves them little, a near one's a lot.
        t.angle_weight = s.angle_prior_px * s.angle_prior_px;
        if (s.detect_rotation) {
            const double size_px = sign_width_px(t, t.pose[2]);
            t.measured_weight = size_px * size_px;
            t.angle_weight += t.measured_weight;
            t.measured_angles = {t.pose[3], t.pose[4], t.pose[5]};
        }
        place(t);
        fresh.push_back(t);
    }
    std::sort(fresh.begin(), fresh.end(), [](const Track& a, const Track& b) { return a.fitness > b.fitness; });
    for (const auto& t : fresh) {
        auto overlap =
            std::find_if(m_tracks.begin(), m_tracks.end(), [&](const Track& k) { return same_sign(k, t); });
        // The verifier looks only at detections that would change the tracks: a duplicate of a sign already
        // taken costs no look.
        if (overlap == m_tracks.end()) {
            if (verified(t, r.timing)) {
                m_tracks.push_back(t);
            }
        } else if (overlap->model != t.model && t.fitness > overlap->fitness + k_takeover_margin && verified(t, r.timing)) {
            // Another model explains this sign clearly better: the track changes category, keeps its id.
            Track& k = *overlap;
            k.model = t.model;
            k.category = t.category;
            k.pose = t.pose;
            k.velocity = {};
            k.fitness = t.fitness;
            k.peak_fitness = t.fitness; // the new model's fit starts its own history
            k.outline = t.outline;
            k.box = t.box;
        } else if (overlap->model == t.model && overlap->weak() && t.fitness > overlap->fitness + k_takeover_margin &&
                   verified(t, r.timing)) {
            // A weak track's own model finds its sign clearly better elsewhere (a different depth or position):
            // the track moves there and restarts its motion; its id and its angle estimate stay.
            Track& k = *overlap;
            for (std::size_t d = 0; d < 3; ++d) {
                k.pose[d] = t.pose[d];
            }
            k.velocity = {};
            k.fitness = t.fitness;
            k.missed = 0; // measured this frame after all
            place(k);
        }
    }

    // 3. Confirmation and output.
    for (auto& t : m_tracks) {
        if (t.id < 0 && t.hits >= s.confirm_frames) {
            t.id = m_next_id++;
        }
        if (t.id >= 0 && t.missed == 0) {
            r.detections.push_back(make_detection(t));
        }
    }
    if (s.keep_particles) {
        auto add_views = [&](const std::vector<SwarmOutcome>& outs, const std::vector<SwarmJob>& js,
                             const PoseSpace& sp, int first_swarm, const std::vector<Track>* owners) {
            const int d = sp.dims();
            for (std::size_t i = 0; i < outs.size(); ++i) {
                SwarmView v;
                v.swarm = first_swarm + static_cast<int>(i);
                v.category = m_models[static_cast<std::size_t>(js[i].target.model)].category;
                v.track_id = owners && i < owners->size() ? (*owners)[i].id : -1;
                v.best = sp.from_vector(outs[i].best.data());
                v.best_fitness = outs[i].fitness;
                for (std::size_t k = 0; k + static_cast<std::size_t>(d) <= outs[i].particles.size(); k += static_cast<std::size_t>(d)) {
                    const Pose p = sp.from_vector(outs[i].particles.data() + k);
                    v.particles.emplace_back(static_cast<float>(m_camera.fx * p.x / p.z + m_camera.cx),
                                             static_cast<float>(m_camera.fy * p.y / p.z + m_camera.cy));
                }
                r.swarms.push_back(std::move(v));
            }
        };
        add_views(tracked, jobs, ts, 0, nullptr);
        add_views(found, det_jobs, ds, static_cast<int>(jobs.size()), nullptr);
    }
    r.swarms_run = static_cast<int>(jobs.size() + det_jobs.size());
    r.frame = m_frame++;
    r.timing.total_ms = ms_between(t0, Clock::now());
}

} // namespace

std::unique_ptr<Tracker> create_tracker(const TrackerSettings& settings, const Camera& camera) {
    if (camera.width <= 0 || camera.height <= 0 || !(camera.fx > 0) || !(camera.fy > 0)) {
        throw std::invalid_argument("camera: intrinsics are not set; use Camera::from_fov or Camera::load");
    }
    return std::make_unique<SignTracker>(settings, camera);
}

} // namespace tracker
