#pragma once
// The multi-swarm sign tracker: detection swarms per category over the search frustum, tracking swarms
// restarted around each track's predicted pose. All swarms of a frame advance together.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/core/cuda.hpp>

#include "swarm/params.h"
#include "swarm/strategy.h"
#include "tracker/camera.h"
#include "tracker/pose.h"
#include "tracker/types.h"

namespace tracker {

// Every tracker and PSO parameter, with defaults, grouped by concern. Each field is named as its key in a
// settings file, where the keys are flat ("particles", not "search.particles").

// The swarms' search: the PSO parameters, and how many swarms search where in a frame.
struct SearchSettings {
    int particles = 64;              // per swarm
    int generations = 100;           // PSO generations per frame
    double w = 0.7298, c1 = 1.49618, c2 = 1.49618;
    swarm::Topology topology = swarm::Topology::Ring; // "ring" | "global" in a settings file
    unsigned long long seed = 1;
    bool detect_rotation = false;    // detection swarms also search the angles (else only x/z, y/z, z)
    int detection_swarms_per_category = 1; // per tile
    // Detection tiles across / down the image: each tile has its own swarms per category. 0 = auto: beside the
    // candidate swarms 3 x 2 on a GPU and 2 x 1 on the CPU backend, where every swarm costs wall time; without
    // them 6 x 3 and 4 x 2 (tracker/src/detection_tiles.cpp says why).
    int detection_columns = 0;
    int detection_rows = 0;
    // Candidate detection (tracker/src/candidates.h): regions of sign paint, at most candidate_regions of them
    // (0: none), each paired with every model of its colour; a short probe search (candidate_probe_generations
    // of a small swarm) scores every pair, and the best candidate_swarms pairs (0 = auto: 64 on a GPU, 40 on
    // the CPU backend) get a full detection swarm in a box around the region; a model variant's pairs get a sixteenth
    // as many again, on top (SignModel::variant). Real signs of 15-30 px are too small for swarms spread over the
    // frustum to land on; the regions are where they can be.
    int candidate_regions = 60;
    int candidate_swarms = 0;
    int candidate_probe_generations = 8;
    // Of the candidate_swarms, up to this many go to jobs whose probe box the verifier (SignSettings::verifier)
    // takes for the job's category, where probe fitness alone left them out. A sign whose paint the light fades
    // (dusk, backlight, haze) probes under the red and blue clutter about it, but its shape still shows, and the
    // verifier reads shape (docs/benchmarks.md, "Real footage"). 0: fitness alone picks the jobs.
    int verified_swarms = 16;
    // A job that takes one of those slots for a triangle (a model whose verified finds count from a lower bar, its
    // verified_threshold_scale under 1) is searched in full within this share of its job box, on every dimension,
    // about its probe's best pose. The verifier vouched for that place, and a faded triangle's fitness pulls the
    // swarm off it, towards the disc below or a smaller triangle inside its rim. 1: the whole job box.
    double verified_search_share = 0.25;
    // Where the verifier turns down a triangle's probe box, it also reads the box of the job's region (the model at
    // the job's centre pose); a job it confirms there counts as confirmed and is searched, within
    // verified_search_share, about that centre. A faded triangle's probe slides inside its rim or onto the disc
    // below, where the verifier reads no triangle, while its region still frames it.
    bool verified_regions = true;
    // The candidate pass also looks for danger signs by their white face alone: bright upright triangles of the
    // brightness, for the dusk, backlit and faded signs whose rim holds too little paint to be a region of it
    // (tracker/src/candidates.h). Off by default: on the dev set it found one danger sign more for four false finds
    // (chevron boards, sky between branches) with the shipped verifier, which never saw such regions, and it costs
    // the host about 8 ms a frame (docs/benchmarks.md, "Real footage").
    bool face_regions = false;
    // The candidate pass also proposes, on each red sign-shaped region, the box of a sign mounted above it (a danger
    // triangle over a speed limit, whose rim is too faint or runs into clutter where the disc's ring is clear;
    // tracker/src/candidates.cpp). Its host time is within the run-to-run spread (docs/benchmarks.md, "Real
    // footage"); off, the pass is the one before it.
    bool stacked_regions = true;
    // The region search is the host's largest cost per frame: in a video it may run on every candidate_interval-th
    // frame only, the frames between searching around the regions it found last (a sign moves a few pixels a
    // frame, within the slack of the pose box a region implies). 0 = auto: every second frame on a GPU, where the
    // region search is most of a frame's wall time, every frame on the CPU backend, where the swarms' search is.
    // A still (the first frame after a reset) is always searched.
    int candidate_interval = 0;
    // Generations of the detection swarms (the tiles' and the candidates'); tracking swarms run `generations`.
    // 0 = auto: nine tenths of `generations` on a GPU, half of it on the CPU backend, whose frame time grows with
    // every swarm-generation: there a swarm on a sign's region settles within 50, and twice the candidate swarms at
    // half the generations find more real signs in less time than 20 swarms at 100 (docs/benchmarks.md, "Real
    // footage").
    int detection_generations = 0;
};

// Which engine runs the search, and how a GPU lays it out.
struct EngineSettings {
    swarm::Backend backend = swarm::Backend::Auto;    // "cpu" | "cuda" | "auto" in a settings file
    swarm::Strategy strategy = swarm::Strategy::Auto; // an engine strategy name in a settings file
    // Warps that score one particle on a GPU (1, 2 or 4; 0 = auto: 2 while the search's particles fit the
    // GPU's resident warps twice over, else 1). The pose fitness is a chain of dependent instructions per
    // thread; more warps per particle shorten it (docs/benchmarks.md, "Tracker per-frame time").
    int gpu_team_warps = 0;
    // Let each swarm of the GPU search be a thread-block cluster that meets on its own barrier (compute
    // capability 9.0+, one-warp teams, a swarm within 16 blocks) instead of the whole grid meeting on the
    // cooperative grid barrier every generation; same trajectory, and no residency limit, which makes
    // searches of many swarms faster (docs/benchmarks.md, "Design evidence"). false: always the grid barrier.
    bool gpu_cluster_barrier = true;
};

// How a pose is scored, and the scores that count as a find.
struct FitnessSettings {
    // Best fitness needed for a detection (above 1: detection off, for benchmarks). With the verifier checking each
    // detection, a lower bar finds real signs whose pictograms and light the models fit only in part.
    double detect_threshold = 0.45;
    // With a verifier, on a frame without history (a still, or a video's first frame after a reset), a find from
    // this fitness up to detect_threshold is a detection when the verifier confirms its category and its box is at
    // least 12 px wide: the faded signs that verified_swarms searches fit their models at 0.25-0.45. A video's
    // later frames keep detect_threshold (a faded sign gets more looks as it nears). At or above
    // detect_threshold: off.
    double verified_threshold = 0.25;
    // With a verifier, a new find under 12 px wide (at the region search's scale on frames wider than 832 px) needs
    // at least this fitness: the verifier reads such a crop (blown up to 32 px) as mostly blur and says yes to round
    // lamps, wheels and gaps in foliage about as often as to a sign, so the fit must carry the find alone. So on a
    // video's later frames too, where with confirm_frames 1 nothing over frames confirms a find. At or under
    // detect_threshold: off.
    double small_find_threshold = 0.6;
    double track_threshold = 0.6;    // best fitness a tracking swarm needs to count as a hit
    // Edge term of the fitness: |gradient . normal| * edge_gain, capped at 1. A gain so high that a blurred
    // edge saturates within a pixel or two makes the fitness flat around the true pose (depth and angles
    // then drift inside the plateau); at 1 the score still peaks on the edge.
    double edge_gain = 1.0;
    // Share of the edge term given to where the sign-colour map crosses one half at the model's edge points
    // (1 on the crossing, 0 where the map is 0 or 1, a pixel or so away); the rest is the gradient alignment.
    // The gradient's peak moves the score only to second order in a sub-pixel shift of the outline, the
    // crossing to first order, so the tenth-of-a-pixel shifts that a sign's tilt makes change the fitness
    // (docs/benchmarks.md, "Design evidence"). At 1 the gradient is not sampled at all.
    double edge_crossing = 1.0;
    // An interior point that sees none of the sign colours (a pole or branch in front of the sign) scores this
    // instead of 0, so a sign partly hidden by a thin occluder is still found; a plain disc of one sign colour
    // still scores 0 there (its interior has the rim's colour). 0: occluders count as wrong colour.
    double occluder_credit = 0.5;
    // How much a yellow pixel counts where a sign's interior is white (0 to 1; FitnessWeights::yellow_interior).
    // Danger, prohibitory and give-way signs have yellow faces in Sweden, Finland, Norway, Iceland and Poland, and
    // temporary signs do elsewhere; the models keep the white face of the Vienna convention's usual design.
    double yellow_interior = 1.0;
    // Paint coverage (common/colour_math.h) measures a pixel's chroma against the largest chroma within 2 pixels of a
    // hue within this many degrees of its own (1 to 180). 180, every hue, suits the usual white-faced signs; about 28
    // lets a red rim beside a yellow face keep its red, for footage with yellow-faced signs (docs/benchmarks.md,
    // "Yellow faces").
    double cover_hue = 180.0;
    // Every required part of a sign must be there: when one scores below its floor, the fitness is scaled by its
    // score / floor (FitnessWeights). group_floor holds the parts other than the rim (the white interior, the
    // arrow, the white border); rim_floor the rim. 0 turns a floor off.
    // The interior's is under 0.5: a backlit sign's white interior is grey, darker than the sky behind it, so it
    // scores the occluder credit (0.5) less a little red bled from the rim, and sank under the threshold. A plain
    // shape of a sign colour scores near 0 in its missing part, far under either floor.
    // The rim's stays at 0.5: a faint rim is what red and blue clutter shows too, and a lower rim floor found
    // more clutter than signs (docs/benchmarks.md, "Real footage"). A sign model may hold its rim to a share of it
    // (SignModel::rim_floor_scale).
    double group_floor = 0.4;
    double rim_floor = 0.5;
    // The blur at a sign's painted edges, as a Gaussian's sigma in pixels (0 to 5; 0 off): the camera's optics and
    // JPEG's half-resolution colour mix a small sign's thin rim and pictogram with their neighbours, so a point a
    // pixel from its paint's edge reads only part of its colour even at the true pose. Each rim, interior and
    // outside point's value is taken against the share of its own paint such a blur leaves it at the pose's scale
    // (FitnessWeights::paint_blur), which is 1 on large signs and lower on small ones.
    double paint_blur = 0.0;
};

// How tracks search around their prediction, filter their pose, and start and end.
struct TrackingSettings {
    // A tracking swarm restarts each frame in a box around the predicted pose; this sets the box's spread:
    // +- (3 px + fraction * sign size) across the image, +- 0.4 * fraction * depth (plus the last frame's
    // motion); the angles' spread is angle_respread_fraction's.
    double respread_fraction = 0.25;
    // The track box's angles: +- (fraction * each angle range + 1 degree) around the track's angle estimate. Narrower
    // than the position's: a small sign's fitness is nearly flat in its angles, so a wide box lets each frame's
    // best land far off and the running estimate wander (docs/benchmarks.md, "Design evidence").
    double angle_respread_fraction = 0.15;
    // Share of a tracking swarm's particles that restart in a tight box around the predicted pose
    // (track_focus_scale x the track box, centred on the prediction); the rest re-spread over the whole
    // track box. 0: the whole swarm starts spread over the box.
    double track_focus_share = 0.0;
    double track_focus_scale = 0.2;
    // Tracks filter their depth with an alpha-beta filter of this gain (1: take each frame's measurement).
    double depth_filter_gain = 0.6;
    // Angle estimates are averaged over a track, weighted by the sign's area in pixels; older frames' weight
    // is multiplied by this each frame (1: plain weighted mean over the whole track).
    double angle_memory = 0.97;
    double angle_prior_px = 60;      // a new track's angles weigh as much as one frame of a sign this wide
    // Detections needed before a track gets an id. Every frame of delay costs each sign a frame of recall; with
    // tiled detection the right category mostly wins in the first frame.
    int confirm_frames = 1;
    int max_missed = 5;              // K: a track ends after this many frames without a match
    // With a verifier, a track ends when the verifier has read no sign in its box on this many consecutive frames it
    // could read (0: never). A sign reads as one frame after frame; clutter that a model's colours fit (sunlit
    // foliage, a lamp) and one look of the verifier let in reads as background on most later frames, and the
    // tracking swarms hold it as long as it fits.
    int verifier_refusals = 3;
    // With those re-readings, a track the verifier has not vouched for (five readings of its category in a row) and
    // whose fit is under 0.7 is not reported on a frame whose box it reads as no sign; it stays tracked until the
    // refusals end it or the verifier reads a sign there again (track_update.h, reported). false: every matched track
    // is reported.
    bool hide_refused = true;
    double duplicate_iou = 0.3;      // detections whose projected outlines overlap more than this are the same sign
};

struct CameraSettings {
    double horizontal_fov_deg = 60;
    std::string camera_file;         // OpenCV YAML intrinsics; empty: from fov and frame size
};

// Which signs are searched for, and the files that describe and recognise them.
struct SignSettings {
    std::vector<Category> categories = {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                        Category::GiveWay, Category::Stop};
    std::string models_dir;          // sign model JSON files; empty: the built-in assets folder
    // The sign verifier (tracker/verifier.h) that every new detection's crop must pass, with the category the
    // pose search gave it: a file trained by tools/train_verifier; empty: the shipped one
    // (assets/verifier/signs.yml.gz); "none": no verification. Frames handed over already on the device are
    // not verified (no host copy to crop).
    std::string verifier;
    // The candidate ranker (tracker/region_ranker.h) that orders the candidate regions before the first
    // candidate_regions of them are searched: a file trained by tools/train_verifier; empty: the shipped one
    // (assets/verifier/regions.yml.gz); "none": regions ranked by their paint strength.
    std::string candidate_ranker;
    // Sign classes (tracker/sign_classes.h): a folder holding classes.json and classifier.yml.gz (made by
    // tools/train_classes); empty: the shipped assets/classes; "none": detections carry no class.
    std::string classes;
};

struct TrackerSettings {
    SearchSettings search;
    EngineSettings engine;
    FitnessSettings fitness;
    TrackingSettings tracking;
    Frustum frustum;                 // the pose search frustum, in the camera frame
    CameraSettings camera;
    SignSettings signs;
    bool keep_particles = false;     // output: fill FrameResult::swarms for the overlay

    // Throws std::invalid_argument naming the key and the allowed values. Settings are validated where they
    // come in: load() (the error names the file), create_tracker() and Tracker::update_settings().
    void validate() const;
    // A JSON file, or the name of a preset shipped in the assets' presets/ folder ("cpu-quick"); unknown keys
    // and bad values are errors, and the result is validated.
    static TrackerSettings load(const std::string& path);
    void save(const std::string& path) const; // refuses settings that load() would refuse
};

// The settings files' names of the engine's topologies: "ring", "global".
std::string_view to_string(swarm::Topology t);
std::optional<swarm::Topology> parse_topology(std::string_view name);

class Tracker {
public:
    virtual ~Tracker() = default;
    // A BGR 8-bit frame on the host.
    virtual FrameResult process(const cv::Mat& bgr) = 0;
    // A BGR 8-bit frame already in device memory (a GpuMat header over a device pointer is enough).
    virtual FrameResult process(const cv::cuda::GpuMat& bgr_device) = 0;
    virtual void reset() = 0;                      // forget tracks, restart frame numbering
    virtual const TrackerSettings& settings() const = 0;
    virtual void update_settings(const TrackerSettings& s) = 0; // live tuning; validates first
    virtual std::string backend_name() const = 0;  // "CPU" or the CUDA device name
};

// Validates the settings; throws std::invalid_argument / swarm::UnavailableError with a one-line reason.
std::unique_ptr<Tracker> create_tracker(const TrackerSettings& settings, const Camera& camera);

} // namespace tracker
