// The multi-swarm tracker: per frame, tracking swarms restart around each track's predicted pose (one engine
// run, per-swarm bounds), found signs are masked, then detection swarms per category search the frustum
// (a second run). All swarms of a run are scored by one batched evaluator call per generation.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <numeric>

#include <opencv2/imgproc.hpp>
#include <spdlog/spdlog.h>

#include "candidate_jobs.h"
#if defined(TRACKER_HAVE_CUDA)
#include "cuda/host_copy.h"
#endif
#include "candidates.h"
#include "class_labeller.h"
#include "detection_tiles.h"
#include "search_runner.h"
#include "sign_evaluator.h"
#include "track_admission.h"
#include "track_state.h"
#include "track_update.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"
#include "tracker/region_ranker.h"
#include "tracker/verifier.h"

namespace tracker {
namespace {

using Clock = std::chrono::steady_clock;
// The probe search that ranks candidate jobs: enough particles to find a sign inside a region's small box.
constexpr int k_probe_particles = 16;
double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}
// The verifier reads a crop at 32 x 32 pixels (tracker/verifier.h); under 12 pixels across it reads mostly the
// resampling's blur, and on the dev frames its yes there was clutter's as often as a sign's. Where its word
// decides alone (a job's reserved swarm, a find under detect_threshold), the box must be this wide at the scale the
// region search sees the frame (region_search_scale): the 816 px dev frames as they are, a larger frame shrunk to
// 832 px. A larger frame's pixels do not hold more of a small sign's detail in proportion (upscaled, a soft lens,
// video compression), and its regions come from the shrunk frame: counted in its own pixels, the blobs the swarms
// fit at their far depth limit passed as readable (docs/benchmarks.md, "Frames larger than the dev set's").
constexpr float k_verifier_min_px = 12.f;
// A track the verifier has read as its category on this many consecutive frames is a sign, whatever it reads later:
// an occluder passing in front of a sign (the crowded scene's) makes its box read as background for a dozen frames,
// while the clutter that one look let in reads as a sign only now and then.
constexpr int k_vouching_readings = 5;
// The candidate swarms a frame gives the model variants (SignModel::variant), as a share of candidate_swarms: beside
// those of the base models, not out of them (1 in 16: 2 on the CPU, 4 on a GPU by default; on the dev set's frames
// an eighth found the same signs, held out too, at twice the cost).
constexpr int k_variant_share = 16;

class SignTracker : public Tracker {
public:
    SignTracker(const TrackerSettings& s, const Camera& camera) : m_camera(camera) {
        s.validate();
        configure(s);
    }

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
        forget_regions();
        m_frame = 0;
        m_next_id = 1;
        if (m_labeller) {
            m_labeller->reset();
        }
    }
    const TrackerSettings& settings() const override { return m_settings; }
    // Validates once, then either rebuilds (what loads files or picks the engine changed) or retunes in place.
    void update_settings(const TrackerSettings& s) override {
        s.validate();
        const SignSettings& was = m_settings.signs;
        const bool rebuild = s.signs.models_dir != was.models_dir || s.signs.categories != was.categories ||
                             s.signs.verifier != was.verifier || s.signs.candidate_ranker != was.candidate_ranker ||
                             s.signs.classes != was.classes || s.engine.backend != m_settings.engine.backend ||
                             s.engine.strategy != m_settings.engine.strategy;
        if (rebuild) {
            configure(s);
        } else {
            m_settings = s;
            m_search->set_settings(s);
            apply_weights();
            forget_regions(); // found under the former settings
        }
    }
    std::string backend_name() const override { return m_search->backend_name(); }

private:
    // Loads what the settings name and builds the search; `s` is validated (constructor, update_settings).
    void configure(const TrackerSettings& s) {
        m_settings = s;
        const SignSettings& signs = s.signs;
        m_models = load_sign_models(signs.models_dir, signs.categories);
        m_verifier = signs.verifier == "none"
                         ? nullptr
                         : SignVerifier::load(signs.verifier.empty() ? default_verifier_path() : signs.verifier);
        const std::string& ranker = signs.candidate_ranker;
        m_ranker = ranker == "none" ? nullptr : RegionRanker::load(ranker.empty() ? default_ranker_path() : ranker);
        m_labeller =
            signs.classes == "none" ? nullptr : std::make_unique<ClassLabeller>(SignClassifier::load(signs.classes));
        m_search = std::make_unique<SearchRunner>(m_models, m_camera, s);
        apply_weights();
        m_tracks.clear();
        forget_regions();
    }

    void apply_weights() {
        m_search->evaluator().set_weights(fitness_weights(m_settings));
    }

    void fit_camera(int w, int h) {
        if (w != m_camera.width || h != m_camera.height) {
            m_camera = m_camera.scaled_to(w, h);
            m_search = std::make_unique<SearchRunner>(m_models, m_camera, m_settings);
            apply_weights();
            forget_regions(); // in another frame size's pixels
        }
    }

    void forget_regions() {
        m_regions.clear();
        m_regions_frame = -1;
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
        const double f = s.tracking.respread_fraction;
        const double uv = (3.0 + f * size_px) / m_camera.fx;
        const double fa = s.tracking.angle_respread_fraction;
        const double half[6] = {uv + std::abs(t.velocity[0]), uv + std::abs(t.velocity[1]),
                                0.4 * f * p[2] + std::abs(t.velocity[2]), fa * s.frustum.yaw_range + 1.0,
                                fa * s.frustum.pitch_range + 1.0, fa * s.frustum.roll_range + 1.0};
        std::vector<double> flo, fhi;
        frustum_bounds(search_frustum(), m_camera, PoseSpace{}, flo, fhi);
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
        const double scale = m_settings.tracking.track_focus_scale;
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

    // SearchSettings::detection_generations, auto resolved: nine tenths of `generations` on a GPU (the real frames'
    // finds are the same to two signs at 80 and 90 of 100 generations, and the frame's GPU time keeps a margin under
    // 3 ms on an H100), half on the CPU backend.
    int detection_generations() const {
        const auto& s = m_settings.search;
        if (s.detection_generations > 0) {
            return s.detection_generations;
        }
        return std::max(1, m_search->on_gpu() ? s.generations * 9 / 10 : s.generations / 2);
    }

    // The settings' frustum, reaching the smallest sign model at Frustum::min_sign_px in this camera.
    Frustum search_frustum() const { return reaching_small_signs(m_settings.frustum, m_camera, m_models); }

    PoseSpace track_space() const {
        PoseSpace sp;
        const Frustum& f = m_settings.frustum;
        sp.active = {true, true, true, f.yaw_range > 0, f.pitch_range > 0, f.roll_range > 0};
        return sp;
    }
    PoseSpace detect_space() const {
        PoseSpace sp = track_space();
        if (!m_settings.search.detect_rotation) {
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

    // One engine run's swarms: the space they search, their jobs and what each found.
    struct SearchPass {
        PoseSpace space;
        std::vector<SwarmJob> jobs;
        std::vector<SwarmOutcome> outcomes;
    };
    void finish_frame(FrameResult& r, Clock::time_point t0);
    SearchPass track_signs(std::uint64_t seed, StageTiming& timing);
    SearchPass detect_signs(std::uint64_t seed, FrameResult& r);
    std::vector<Track> fresh_tracks(const SearchPass& pass) const;
    void report(FrameResult& r);
    void add_swarm_views(const SearchPass& pass, int first_swarm, FrameResult& r) const;
    // The verifier's answers for detections (admit_detections' VerifyFinds): all yes without a verifier or a host
    // frame.
    std::vector<bool> verify_finds(const std::vector<const Track*>& finds, StageTiming& timing) const {
        if (!m_verifier || m_host_frame == nullptr) {
            return std::vector<bool>(finds.size(), true);
        }
        std::vector<cv::Rect2f> boxes;
        std::vector<Category> categories;
        for (const Track* t : finds) {
            boxes.push_back(t->box);
            categories.push_back(t->category);
        }
        return verifier_confirms(boxes, categories, timing);
    }
    // The verifier's word on each track matched this frame whose box it can read: its consecutive refusals, the frames
    // it reads no sign there at all (TrackingSettings::verifier_refusals; prune_tracks ends the track), and its
    // consecutive readings as the track's category, which vouch for it (Track::vouched). A sign it reads as another
    // category is neither: in a crowd of signs a box also holds its neighbours'.
    void recheck_tracks(StageTiming& timing) {
        if (!m_verifier || m_host_frame == nullptr || m_settings.tracking.verifier_refusals <= 0) {
            return;
        }
        std::vector<Track*> read;
        std::vector<cv::Rect2f> boxes;
        for (Track& t : m_tracks) {
            if (t.missed == 0 && verifier_reads(t.box)) {
                read.push_back(&t);
                boxes.push_back(t.box);
            }
        }
        if (boxes.empty()) {
            return;
        }
        const std::vector<int> classes = verifier_classes(boxes, timing);
        for (std::size_t k = 0; k < read.size(); ++k) {
            Track& t = *read[k];
            const bool own = classes[k] == verifier_class(static_cast<int>(t.category));
            t.refusals = classes[k] == k_verifier_background ? t.refusals + 1 : 0;
            t.readings = own ? t.readings + 1 : 0;
            t.vouched = t.vouched || t.readings >= k_vouching_readings;
        }
    }
    // Per probe place, whether the verifier takes its box for its model's category (best_jobs' `confirmed`); empty
    // without a verifier, a host frame or verified_swarms.
    std::vector<bool> confirmed_jobs(const std::vector<ProbePlace>& places, StageTiming& timing) const {
        if (!m_verifier || m_host_frame == nullptr || m_settings.search.verified_swarms <= 0) {
            return {};
        }
        return places_confirmed(places, timing);
    }
    // Per place, whether the verifier takes its box for its model's category, in one batch; no for a box too small
    // for it to read. Needs a verifier and a host frame.
    std::vector<bool> places_confirmed(const std::vector<ProbePlace>& places, StageTiming& timing) const {
        std::vector<std::size_t> readable;
        std::vector<cv::Rect2f> boxes;
        std::vector<Category> categories;
        for (std::size_t i = 0; i < places.size(); ++i) {
            if (verifier_reads(places[i].box)) {
                readable.push_back(i);
                boxes.push_back(places[i].box);
                categories.push_back(m_models[static_cast<std::size_t>(places[i].model)].category);
            }
        }
        const std::vector<bool> yes = verifier_confirms(boxes, categories, timing);
        std::vector<bool> confirmed(places.size(), false);
        for (std::size_t k = 0; k < readable.size(); ++k) {
            confirmed[readable[k]] = yes[k];
        }
        return confirmed;
    }
    // Whether the verifier's word on this box counts (k_verifier_min_px).
    bool verifier_reads(const cv::Rect2f& box) const {
        return box.width * region_search_scale(m_camera.width) >= k_verifier_min_px;
    }
    // The box of a model's outline at a pose, in pixels.
    cv::Rect2f outline_box(const Pose& pose, int model) const {
        return bounding_box(project_points(m_camera, pose, m_models[static_cast<std::size_t>(model)].outline));
    }
    // The triangles: models whose verified finds count from a lower bar (verified_threshold_scale under 1), as the
    // verifier tells a faded triangle from clutter more surely than a faded disc.
    bool is_triangle(int model) const {
        return m_models[static_cast<std::size_t>(model)].verified_threshold_scale < 1.f;
    }
    std::vector<bool> confirm_at_regions(const PoseSpace& ds, const std::vector<SwarmJob>& jobs,
                                         const std::vector<ProbePlace>& places, std::vector<bool>& confirmed,
                                         StageTiming& timing) const;
    // Whether the verifier reads each box of the host frame as a sign of its category, in one batch (its time counts
    // to the candidate pass). Needs a verifier and a host frame.
    std::vector<bool> verifier_confirms(const std::vector<cv::Rect2f>& boxes, const std::vector<Category>& categories,
                                        StageTiming& timing) const {
        const std::vector<int> classes = verifier_classes(boxes, timing);
        std::vector<bool> yes;
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            yes.push_back(classes[i] == verifier_class(static_cast<int>(categories[i])));
        }
        return yes;
    }
    // The verifier's class of each box of the host frame, in one batch (its time counts to the candidate pass).
    std::vector<int> verifier_classes(const std::vector<cv::Rect2f>& boxes, StageTiming& timing) const {
        const auto t0 = Clock::now();
        std::vector<int> classes = m_verifier->classify(*m_host_frame, boxes);
        timing.candidates_ms += ms_between(t0, Clock::now());
        return classes;
    }
    // The fitness a find of each model needs: detect_threshold; on a frame without history (a still, or a video's
    // first frame after a reset) verified_threshold times the model's scale where the verifier will check it
    // (verify_finds passes everything without a host frame). A video gives a faded sign more looks as it nears, and
    // its later frames keep detect_threshold: on the synthetic scenes the verifier's word alone let rendered clutter
    // through (docs/benchmarks.md, "Real footage"). Never under the model's find_floor.
    std::vector<double> find_thresholds() const {
        const auto& f = m_settings.fitness;
        std::vector<double> thresholds;
        for (const SignModel& m : m_models) {
            const double bar = verified_first_look() && f.detect_threshold <= 1.0
                                   ? std::min(f.detect_threshold, f.verified_threshold * m.verified_threshold_scale)
                                   : f.detect_threshold;
            thresholds.push_back(std::max(bar, static_cast<double>(m.find_floor)));
        }
        return thresholds;
    }
    // A frame without history (a still, or a video's first frame after a reset) whose finds the verifier checks: there
    // its word and one look decide, where a video's later frames have confirmation over frames.
    bool verified_first_look() const { return m_verifier && m_host_frame != nullptr && m_frame == 0; }
    // The fitness a find narrower than the verifier reads well needs (FitnessSettings::small_find_threshold).
    double small_find_threshold() const {
        const auto& f = m_settings.fitness;
        return m_verifier && m_host_frame != nullptr ? std::max(f.detect_threshold, f.small_find_threshold)
                                                     : f.detect_threshold;
    }
    std::vector<std::size_t> best_base_jobs(const PoseSpace& ds, std::vector<SwarmJob>& jobs,
                                            const std::vector<SwarmOutcome>& probe,
                                            const std::vector<ProbePlace>& places, int keep, StageTiming& timing) const;
    std::vector<SwarmJob> candidate_detection_jobs(const PoseSpace& ds, const std::vector<double>& lo,
                                                   const std::vector<double>& hi, const std::vector<cv::Rect2f>& masks,
                                                   const std::vector<int>& mask_models, std::uint64_t seed,
                                                   FrameResult& r);
    const std::vector<Candidate>& candidate_regions(FrameResult& r);

    // A track's projected outline and box at its pose.
    void place(Track& t) const {
        t.outline = project_points(m_camera, to_pose(t.pose), m_models[static_cast<std::size_t>(t.model)].outline);
        t.box = bounding_box(t.outline);
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
    std::unique_ptr<ClassLabeller> m_labeller; // sign classes; null when the classes setting is "none"
    std::vector<Candidate> m_regions; // the last region search's (candidate_regions)
    long long m_regions_frame = -1;   // the frame it ran on; -1: none since the last reset
    cv::Mat m_device_copy; // host copy of a device frame (reused)
};

// Candidate regions -> (region, model) jobs -> a short probe search of every job -> the best jobs, which the
// caller searches in full with the tiles' swarms; a triangle's job that the verifier alone let in, or that it
// confirmed at its region and not at its probe, only about the place it confirmed (SearchSettings::
// verified_search_share, verified_regions).
std::vector<SwarmJob> SignTracker::candidate_detection_jobs(const PoseSpace& ds, const std::vector<double>& lo,
                                                            const std::vector<double>& hi,
                                                            const std::vector<cv::Rect2f>& masks,
                                                            const std::vector<int>& mask_models, std::uint64_t seed,
                                                            FrameResult& r) {
    const auto& s = m_settings;
    if (m_host_frame == nullptr || s.search.candidate_regions <= 0) {
        return {};
    }
    StageTiming& timing = r.timing;
    const auto t0 = Clock::now();
    const Frustum f = search_frustum();
    auto jobs = candidate_jobs(candidate_regions(r), m_models, m_camera, lo, hi, f.z_min, f.z_max);
    // The base models' jobs first, the variants' after: a variant's jobs neither take the base models' slots nor move
    // their swarms' indices (and so their random streams), so they add finds without changing the others'.
    const auto variants_from = std::stable_partition(jobs.begin(), jobs.end(), [&](const SwarmJob& j) {
        return m_models[static_cast<std::size_t>(j.target.model)].variant.empty();
    });
    const std::size_t bases = static_cast<std::size_t>(variants_from - jobs.begin());
    timing.candidates_ms += ms_between(t0, Clock::now());
    const int keep = s.search.candidate_swarms > 0 ? s.search.candidate_swarms : (m_search->on_gpu() ? 64 : 40);
    const int keep_variants = keep / k_variant_share;
    if (static_cast<int>(bases) <= keep && static_cast<int>(jobs.size() - bases) <= keep_variants) {
        return jobs;
    }
    std::vector<SwarmOutcome> probe =
        m_search->run(ds, jobs, masks, mask_models, seed, timing,
                      SearchSize{k_probe_particles, s.search.candidate_probe_generations});
    std::vector<ProbePlace> places;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const int model = jobs[i].target.model;
        const Pose pose = ds.from_vector(probe[i].best.data());
        places.push_back({outline_box(pose, model), model});
    }
    // The variants' probes and places moved out; the base models' stay in place.
    const auto from = static_cast<std::ptrdiff_t>(bases);
    const std::vector<SwarmOutcome> variant_probe(std::make_move_iterator(probe.begin() + from),
                                                  std::make_move_iterator(probe.end()));
    const std::vector<ProbePlace> variant_places(places.begin() + from, places.end());
    probe.resize(bases);
    places.resize(bases);
    std::vector<SwarmJob> kept;
    for (std::size_t i : best_base_jobs(ds, jobs, probe, places, keep, timing)) {
        kept.push_back(jobs[i]);
    }
    for (std::size_t i : best_jobs(variant_probe, variant_places, keep_variants)) {
        kept.push_back(jobs[bases + i]);
    }
    return kept;
}

// Of the first probe.size() jobs (the base models', one probe and place each), those best_jobs keeps, the verifier's
// reserve among them; the jobs the verifier led or confirmed at their region are narrowed about their place
// (SearchSettings::verified_swarms).
std::vector<std::size_t> SignTracker::best_base_jobs(const PoseSpace& ds, std::vector<SwarmJob>& jobs,
                                                     const std::vector<SwarmOutcome>& probe,
                                                     const std::vector<ProbePlace>& places, int keep,
                                                     StageTiming& timing) const {
    const std::size_t bases = probe.size();
    if (static_cast<int>(bases) <= keep) {
        std::vector<std::size_t> all(bases);
        std::iota(all.begin(), all.end(), std::size_t{0});
        return all;
    }
    const std::vector<std::size_t> by_fitness = best_jobs(probe, places, keep);
    std::vector<bool> confirmed = confirmed_jobs(places, timing);
    const std::vector<bool> at_region = confirm_at_regions(ds, jobs, places, confirmed, timing);
    const std::vector<std::size_t> chosen =
        best_jobs(probe, places, keep, confirmed, m_settings.search.verified_swarms);
    for (std::size_t i : chosen) {
        const bool verifier_led = std::find(by_fitness.begin(), by_fitness.end(), i) == by_fitness.end();
        if (at_region[i]) {
            narrow_job(jobs[i], job_centre(jobs[i]), m_settings.search.verified_search_share);
        } else if (verifier_led && is_triangle(places[i].model)) {
            narrow_job(jobs[i], probe[i].best, m_settings.search.verified_search_share);
        }
    }
    return chosen;
}

// The triangles' jobs whose probe box the verifier turned down, asked again at their region (the model's box at
// the job's centre pose): a faded triangle's probe slides inside its rim or onto the disc below, where the
// verifier reads no triangle, while the region still frames it. A job confirmed there becomes `confirmed` and is
// marked (the result, one per place: the first places.size() jobs); all false without `confirmed` or with
// SearchSettings::verified_regions off.
std::vector<bool> SignTracker::confirm_at_regions(const PoseSpace& ds, const std::vector<SwarmJob>& jobs,
                                                  const std::vector<ProbePlace>& places, std::vector<bool>& confirmed,
                                                  StageTiming& timing) const {
    std::vector<bool> at_region(places.size(), false);
    if (confirmed.empty() || !m_settings.search.verified_regions) {
        return at_region;
    }
    std::vector<std::size_t> asked;
    std::vector<ProbePlace> regions;
    for (std::size_t i = 0; i < places.size(); ++i) {
        const int model = places[i].model;
        if (!confirmed[i] && is_triangle(model)) {
            asked.push_back(i);
            regions.push_back({outline_box(ds.from_vector(job_centre(jobs[i]).data()), model), model});
        }
    }
    const std::vector<bool> yes = places_confirmed(regions, timing);
    for (std::size_t k = 0; k < asked.size(); ++k) {
        confirmed[asked[k]] = yes[k]; // asked only where the probe was turned down
        at_region[asked[k]] = yes[k];
    }
    return at_region;
}

// This frame's candidate regions: searched on the first frame after a reset and then on every candidate_interval-th
// frame (auto: SearchSettings says why 2 on a GPU, 1 on the CPU); the frames between take the last search's.
const std::vector<Candidate>& SignTracker::candidate_regions(FrameResult& r) {
    const int set = m_settings.search.candidate_interval;
    const int interval = set > 0 ? set : (m_search->on_gpu() ? 2 : 1);
    if (m_regions_frame >= 0 && m_frame - m_regions_frame < interval) {
        return m_regions;
    }
    CandidateOptions opt;
    opt.max_candidates = m_settings.search.candidate_regions;
    opt.faces = m_settings.search.face_regions;
    opt.above = m_settings.search.stacked_regions;
    opt.ranker = m_ranker.get();
    m_regions = find_candidates(*m_host_frame, opt);
    m_regions_frame = m_frame;
    r.regions_searched = true;
    return m_regions;
}

// One frame: the tracks follow their signs, new signs are detected, confirmed tracks are reported.
void SignTracker::finish_frame(FrameResult& r, Clock::time_point t0) {
    const std::uint64_t seed = m_settings.search.seed * 1000003ULL + static_cast<std::uint64_t>(m_frame) * 2ULL;
    const SearchPass tracking = track_signs(seed, r.timing);
    const SearchPass detection = detect_signs(seed, r);
    report(r);
    if (m_settings.keep_particles) {
        add_swarm_views(tracking, 0, r);
        add_swarm_views(detection, static_cast<int>(tracking.jobs.size()), r);
    }
    r.swarms_run = static_cast<int>(tracking.jobs.size() + detection.jobs.size());
    r.frame = m_frame++;
    r.timing.total_ms = ms_between(t0, Clock::now());
}

// Tracking swarms around each track's predicted pose; then tracks end or merge (track_update.h).
SignTracker::SearchPass SignTracker::track_signs(std::uint64_t seed, StageTiming& timing) {
    const auto& s = m_settings;
    SearchPass pass{track_space(), {}, {}};
    for (const auto& t : m_tracks) {
        SwarmJob j;
        track_bounds(t, pass.space, j.lower, j.upper);
        if (s.tracking.track_focus_share > 0.0) { // the search uses a start box only then
            focus_box(t, pass.space, j);
        }
        j.target = {t.model, false};
        pass.jobs.push_back(std::move(j));
    }
    pass.outcomes = m_search->run(pass.space, pass.jobs, {}, {}, seed, timing);
    for (std::size_t i = 0; i < m_tracks.size(); ++i) {
        Track& t = m_tracks[i];
        const SwarmOutcome& o = pass.outcomes[i];
        if (o.fitness >= s.fitness.track_threshold) {
            apply_measurement(t, to_vec(pass.space.from_vector(o.best.data())), o.fitness, sign_width_px(t, 1.0), s);
        } else {
            coast(t, o.fitness);
        }
        place(t);
    }
    recheck_tracks(timing);
    const cv::Rect2f image(0.f, 0.f, static_cast<float>(m_camera.width), static_cast<float>(m_camera.height));
    prune_tracks(m_tracks, s, image);
    return pass;
}

// Detection swarms over the frustum's tiles and on the candidate regions, blind to what the tracks cover; what
// they find goes to admit_detections (track_admission.h).
SignTracker::SearchPass SignTracker::detect_signs(std::uint64_t seed, FrameResult& r) {
    StageTiming& timing = r.timing;
    const auto& s = m_settings;
    SearchPass pass{detect_space(), {}, {}};
    // The tiles' swarms spread over the frustum in metres; a candidate region, whose size gives its depth, is
    // searched out to the smallest sign's pixels (Frustum::min_sign_px). Only the far depth differs.
    std::vector<double> lo, hi, reach_lo, reach_hi;
    frustum_bounds(m_settings.frustum, m_camera, pass.space, lo, hi);
    frustum_bounds(search_frustum(), m_camera, pass.space, reach_lo, reach_hi);
    const bool with_candidates = m_host_frame != nullptr && s.search.candidate_regions > 0;
    // A variant (SignModel::variant) is searched only where a region shows its paint: the tiles are a blind search
    // for each category, which its base model serves.
    std::vector<int> base_models;
    for (std::size_t m = 0; m < m_models.size(); ++m) {
        if (m_models[m].variant.empty()) base_models.push_back(static_cast<int>(m));
    }
    pass.jobs = tile_jobs(base_models, s.search.detection_swarms_per_category,
                          detection_tiles(s, m_search->on_gpu(), with_candidates), lo, hi);
    std::vector<cv::Rect2f> masks;
    std::vector<int> mask_models;
    track_masks(m_tracks, masks, mask_models);
    for (auto& j : candidate_detection_jobs(pass.space, reach_lo, reach_hi, masks, mask_models,
                                            seed ^ 0x9e3779b97f4a7c15ULL, r)) {
        pass.jobs.push_back(std::move(j));
    }
    pass.outcomes =
        m_search->run(pass.space, pass.jobs, masks, mask_models, seed + 1, timing, SearchSize{0, detection_generations()});
    std::vector<Track> fresh = fresh_tracks(pass);
    admit_detections(
        std::move(fresh), m_tracks, s.tracking.duplicate_iou,
        [&](const std::vector<const Track*>& finds) { return verify_finds(finds, timing); },
        [&](Track& t) { place(t); });
    return pass;
}

// The detection swarms' finds above their model's find threshold (find_thresholds), as unconfirmed tracks.
std::vector<Track> SignTracker::fresh_tracks(const SearchPass& pass) const {
    const auto& s = m_settings;
    const std::vector<double> thresholds = find_thresholds();
    const double small_bar = small_find_threshold();
    std::vector<Track> fresh;
    for (std::size_t i = 0; i < pass.jobs.size(); ++i) {
        if (pass.outcomes[i].fitness < thresholds[static_cast<std::size_t>(pass.jobs[i].target.model)]) {
            continue;
        }
        Track t;
        t.model = pass.jobs[i].target.model;
        t.category = m_models[static_cast<std::size_t>(t.model)].category;
        t.pose = to_vec(pass.space.from_vector(pass.outcomes[i].best.data()));
        t.fitness = pass.outcomes[i].fitness;
        t.peak_fitness = t.fitness;
        t.hits = 1;
        // Angles start at the detection's (0 unless detection searches them) with the weight of one frame of
        // a sign angle_prior_px wide: a far sign's faint angle evidence moves them little, a near one's a lot.
        t.angle_weight = s.tracking.angle_prior_px * s.tracking.angle_prior_px;
        if (s.search.detect_rotation) {
            const double size_px = sign_width_px(t, t.pose[2]);
            t.measured_weight = size_px * size_px;
            t.angle_weight += t.measured_weight;
            t.measured_angles = {t.pose[3], t.pose[4], t.pose[5]};
        }
        place(t);
        if (!verifier_reads(t.box) && t.fitness < small_bar) {
            continue; // the verifier cannot vouch for so small a crop: the fit must carry the find alone
        }
        fresh.push_back(t);
    }
    return fresh;
}

// Tracks confirmed after confirm_frames matches get an id; the detections are those reported this frame
// (track_update.h: matched, and not refused by the verifier on this frame unless it vouched for them or they fit
// surely).
void SignTracker::report(FrameResult& r) {
    for (auto& t : m_tracks) {
        if (t.id < 0 && t.hits >= m_settings.tracking.confirm_frames) {
            t.id = m_next_id++;
        }
        if (reported(t, m_settings)) {
            r.detections.push_back(make_detection(t));
        }
    }
    if (m_labeller) {
        m_labeller->label(r.detections, m_host_frame, *m_search, m_camera, m_models, m_frame,
                          m_settings.tracking.max_missed, r.timing);
    }
}

// Every swarm's last generation, projected to pixels, for the overlay.
void SignTracker::add_swarm_views(const SearchPass& pass, int first_swarm, FrameResult& r) const {
    const int d = pass.space.dims();
    for (std::size_t i = 0; i < pass.outcomes.size(); ++i) {
        const SwarmOutcome& o = pass.outcomes[i];
        SwarmView v;
        v.swarm = first_swarm + static_cast<int>(i);
        v.category = m_models[static_cast<std::size_t>(pass.jobs[i].target.model)].category;
        v.track_id = -1;
        v.best = pass.space.from_vector(o.best.data());
        v.best_fitness = o.fitness;
        for (std::size_t k = 0; k + static_cast<std::size_t>(d) <= o.particles.size(); k += static_cast<std::size_t>(d)) {
            const Pose p = pass.space.from_vector(o.particles.data() + k);
            v.particles.emplace_back(static_cast<float>(m_camera.fx * p.x / p.z + m_camera.cx),
                                     static_cast<float>(m_camera.fy * p.y / p.z + m_camera.cy));
        }
        r.swarms.push_back(std::move(v));
    }
}

} // namespace

std::unique_ptr<Tracker> create_tracker(const TrackerSettings& settings, const Camera& camera) {
    if (camera.width <= 0 || camera.height <= 0 || !(camera.fx > 0) || !(camera.fy > 0)) {
        throw std::invalid_argument("camera: intrinsics are not set; use Camera::from_fov or Camera::load");
    }
    return std::make_unique<SignTracker>(settings, camera);
}

} // namespace tracker
