// `swarmtrack bench --suite tracker`: the tracker's per-frame cost on a synthetic 1280x720 scene.
// The headline row is the speed target's configuration, 8 swarms x 64 particles x 50 generations per frame, on the
// GPU (CUDA-event stage times from the tracker's StageTiming) and on the CPU backend in the same run. To
// hold the swarm count fixed, the detection threshold is set above 1 so no track ever forms: every frame
// then runs exactly `categories x swarms per category` detection swarms over the whole frustum, which is
// also the tracker's heaviest search. Sections show how the time scales with swarms and generations, and
// what tracking a real scene (default settings, tracks included) costs. No video I/O: frames come from the
// scene generator, so this runs in swarmtrack-bench on a GPU machine without OpenCV's videoio.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <opencv2/core/cuda.hpp>

#include "bench/bench_suites.h"
#include "swarm/errors.h"
#if defined(TRACKER_HAVE_CUDA)
#include "swarm/cuda/memory.h"
#endif
#include "scenes/synthetic.h"
#include "swarm/optimizer.h"
#include "tracker/tracker.h"

namespace app {
namespace {

struct Config {
    int swarms = 8; // detection swarms per frame
    int particles = 64;
    int generations = 50;
};

struct Measured {
    tracker::StageTiming mean; // per frame
    double wall_ms = 0;        // median host wall time per frame (process() call)
    double mean_wall_ms = 0;   // its mean: frames that differ in kind (candidate_interval) make the median one kind's
    double swarms_per_frame = 0;
    double detections_per_frame = 0;
    int frames = 0;
};

const std::vector<tracker::Category> k_categories = {tracker::Category::Prohibitory, tracker::Category::Danger,
                                                      tracker::Category::Mandatory, tracker::Category::GiveWay,
                                                      tracker::Category::Stop};

// `swarms` detection swarms: the first k categories, swarms / k swarms each (k the largest divisor <= 5).
tracker::TrackerSettings fixed_swarms(const Config& c, swarm::Backend backend) {
    tracker::TrackerSettings s;
    s.engine.backend = backend;
    s.search.particles = c.particles;
    s.search.generations = c.generations;
    int k = std::min(c.swarms, 5);
    while (c.swarms % k != 0) {
        --k;
    }
    s.signs.categories.assign(k_categories.begin(), k_categories.begin() + k);
    s.search.detection_swarms_per_category = c.swarms / k;
    s.search.detection_columns = 1; // one swarm per category and count: the benchmark fixes the swarm count
    s.search.detection_rows = 1;
    s.fitness.detect_threshold = 1.5; // above any fitness: no tracks, a fixed swarm count
    s.search.candidate_regions = 0;  // nor candidate swarms: the search of exactly `swarms` swarms is what is timed
    s.tracking.confirm_frames = 100;
    return s;
}

// A frame's copy in device memory, for the tracker's device-frame input (a frame that a decoder or camera
// left on the GPU); the copy itself is not part of the measurement.
class DeviceCopy {
public:
    cv::cuda::GpuMat upload(const cv::Mat& bgr) {
#if defined(TRACKER_HAVE_CUDA)
        const int row_bytes = bgr.cols * static_cast<int>(bgr.elemSize());
        m_frame.reserve(bgr.rows, row_bytes);
        SWARM_CUDA_CHECK_THROW(cudaMemcpy2D(m_frame.data(), m_frame.pitch(), bgr.data, bgr.step,
                                            static_cast<std::size_t>(row_bytes), static_cast<std::size_t>(bgr.rows),
                                            cudaMemcpyHostToDevice));
        return cv::cuda::GpuMat(bgr.rows, bgr.cols, bgr.type(), m_frame.data(), m_frame.pitch());
#else
        (void)bgr;
        throw swarm::UnavailableError("device frames need a CUDA build");
#endif
    }

#if defined(TRACKER_HAVE_CUDA)
private:
    swarm::gpu::PitchedBuffer2D<unsigned char> m_frame;
#endif
};

Measured measure(const tracker::TrackerSettings& s, const std::string& scene_name, int width, int height, int frames,
                 int warmup, bool device_frame = false) {
    auto scene = tracker::create_scene(scene_name, width, height, 11);
    auto tr = tracker::create_tracker(s, scene->camera());
    DeviceCopy on_device;
    Measured m;
    std::vector<double> walls;
    for (int f = 0; f < warmup + frames; ++f) {
        const tracker::SceneFrame sf = scene->next();
        cv::cuda::GpuMat dev;
        if (device_frame) {
            dev = on_device.upload(sf.bgr);
        }
        const auto t0 = std::chrono::steady_clock::now();
        const tracker::FrameResult r = device_frame ? tr->process(dev) : tr->process(sf.bgr);
        const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (f < warmup) {
            continue; // first frames allocate buffers and build the optimizer
        }
        walls.push_back(wall);
        m.mean.upload_ms += r.timing.upload_ms;
        m.mean.preprocess_ms += r.timing.preprocess_ms;
        m.mean.search_ms += r.timing.search_ms;
        m.mean.search_wall_ms += r.timing.search_wall_ms;
        m.mean.readback_ms += r.timing.readback_ms;
        m.mean.candidates_ms += r.timing.candidates_ms;
        m.mean.classify_ms += r.timing.classify_ms;
        m.mean.classify_gpu_ms += r.timing.classify_gpu_ms;
        m.swarms_per_frame += static_cast<double>(r.swarms_run);
        m.detections_per_frame += static_cast<double>(r.detections.size());
    }
    m.frames = frames;
    const double n = std::max(frames, 1);
    for (double* v : {&m.mean.upload_ms, &m.mean.preprocess_ms, &m.mean.search_ms, &m.mean.search_wall_ms,
                      &m.mean.readback_ms, &m.mean.candidates_ms, &m.mean.classify_ms, &m.mean.classify_gpu_ms,
                      &m.swarms_per_frame, &m.detections_per_frame}) {
        *v /= n;
    }
    std::sort(walls.begin(), walls.end());
    m.wall_ms = walls.empty() ? 0 : walls[walls.size() / 2];
    for (double w : walls) {
        m.mean_wall_ms += w / static_cast<double>(walls.size());
    }
    return m;
}

std::vector<std::string> row(const std::string& backend, const std::string& what, const Config& c, const Measured& m,
                             bool gpu) {
    const double stages = m.mean.upload_ms + m.mean.preprocess_ms + m.mean.search_ms + m.mean.readback_ms;
    const double evals = m.swarms_per_frame * c.particles * (c.generations + 1);
    return {backend,
            what,
            format_double(m.swarms_per_frame, 3),
            std::to_string(c.particles),
            std::to_string(c.generations),
            std::to_string(m.frames),
            format_double(m.mean.upload_ms),
            format_double(m.mean.preprocess_ms),
            format_double(m.mean.search_ms),
            gpu ? format_double(stages) : "-",
            format_double(m.mean.candidates_ms),
            format_double(m.detections_per_frame, 3),
            gpu ? format_double(m.mean.classify_gpu_ms) : "-",
            format_double(m.mean.classify_ms),
            format_double(m.wall_ms),
            format_double(m.mean_wall_ms),
            format_double(evals / (gpu ? m.mean.search_ms : m.mean.search_wall_ms) / 1e3, 3)};
}

Table make_table() {
    return Table({"backend", "run", "swarms/frame", "particles", "generations", "frames", "upload ms", "preprocess ms",
                  "search ms", "GPU ms/frame", "candidates ms (host)", "detections/frame", "classes GPU ms",
                  "classes ms (host)", "wall ms/frame", "mean wall ms", "M evals/s"});
}

} // namespace

BenchReport run_tracker_suite(const BenchOptions& o) {
    const int width = o.quick ? 640 : 1280, height = o.quick ? 360 : 720;
    const int gpu_frames = o.quick ? 5 : 40, cpu_frames = o.quick ? 2 : 5;
    const auto backend = parse_backend_option(o.engine.backend);
    const bool gpu = backend != swarm::Backend::Cpu && swarm::cuda_device_present();
    if (backend == swarm::Backend::Cuda && !gpu) {
        throw swarm::UnavailableError("--backend cuda: no CUDA device (or no CUDA build); use --backend cpu or auto");
    }
    const bool cpu = backend != swarm::Backend::Cuda;
    const std::string scene = "crowded";
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    const Config head{8, 64, 50};

    BenchReport rep;
    rep.table = make_table();
    auto add = [&](BenchReport& r, swarm::Backend b, const std::string& what, const Config& c, bool on_gpu,
                   int frames, int team_warps = tracker::EngineSettings{}.gpu_team_warps, bool cluster = true,
                   bool device_frame = false) {
        tracker::TrackerSettings settings = fixed_swarms(c, b);
        settings.engine.gpu_team_warps = team_warps;
        settings.engine.gpu_cluster_barrier = cluster;
        const Measured m = measure(settings, scene, width, height, frames, on_gpu ? 3 : 1, device_frame);
        r.table.add(row(on_gpu ? "cuda (" + swarm::cuda_device_name() + ")" : "cpu", what, c, m, on_gpu));
        return m;
    };
    double gpu_ms = 0;
    if (gpu) {
        const Measured m = add(rep, swarm::Backend::Cuda, "detection search", head, true, gpu_frames);
        gpu_ms = m.mean.upload_ms + m.mean.preprocess_ms + m.mean.search_ms + m.mean.readback_ms;
        // The same frames handed over already in device memory (Tracker::process(GpuMat)): no upload stage.
        add(rep, swarm::Backend::Cuda, "detection search, frame on device", head, true, gpu_frames,
            tracker::EngineSettings{}.gpu_team_warps, true, true);
    }
    if (cpu) {
        add(rep, swarm::Backend::Cpu, "detection search", head, false, cpu_frames);
    }
    rep.notes.push_back("Scene '" + scene + "' " + size + ", seed 11; 8 detection swarms x 64 particles x 50 generations "
                        "per frame (detection threshold above 1, so no tracks: a fixed swarm count). GPU ms/frame is the "
                        "sum of the CUDA-event stage times (upload, preprocess, search); wall ms/frame is the host time "
                        "of Tracker::process (median). M evals/s = particle evaluations per second of search. Classes: "
                        "the sign classes of the frame's detections (tracker/sign_classes.h): GPU ms, the face "
                        "rectification launch with its copies (CUDA events, not in GPU ms/frame); host ms, its wall time "
                        "with the classification, which runs on the host.");
    if (gpu) {
        rep.notes.push_back(std::string("Target: <= 0.5 ms GPU time per frame: ") + (gpu_ms <= 0.5 ? "met" : "not met") +
                            " (" + format_double(gpu_ms) + " ms, frame from host memory; the 'frame on device' row is "
                            "the same search on a frame already in device memory).");
    }
    // Scaling sections: GPU when there is one (the CPU would take minutes at full size).
    const bool scale_gpu = gpu;
    const swarm::Backend sb = scale_gpu ? swarm::Backend::Cuda : swarm::Backend::Cpu;
    const int sframes = scale_gpu ? (o.quick ? 3 : 20) : 1;
    BenchReport by_swarms;
    by_swarms.table = make_table();
    for (int s : {1, 2, 4, 8, 16, 32}) {
        if (!scale_gpu && s > 8) {
            break;
        }
        add(by_swarms, sb, "swarms " + std::to_string(s), Config{s, 64, 50}, scale_gpu, sframes);
    }
    rep.sections.emplace_back("Scaling with swarms (64 particles, 50 generations)", by_swarms);
    BenchReport by_gens;
    by_gens.table = make_table();
    for (int g : {10, 25, 50, 100, 200}) {
        if (!scale_gpu && g > 50) {
            break;
        }
        add(by_gens, sb, "generations " + std::to_string(g), Config{8, 64, g}, scale_gpu, sframes);
    }
    rep.sections.emplace_back("Scaling with generations (8 swarms x 64 particles)", by_gens);
    if (gpu) {
        // The pose fitness is one long dependent chain per thread: how many warps share a particle's points
        // (gpu_team_warps) sets how long it is. 40 swarms = the default tiled detection (5 categories x 4 x 2).
        BenchReport by_team;
        by_team.table = make_table();
        for (const int swarms : {8, 16, 24, 40}) {
            for (const int tw : {0, 1, 2, 4}) {
                add(by_team, swarm::Backend::Cuda,
                    tw == 0 ? std::string("team auto") : "team " + std::to_string(tw) + " warp" + (tw > 1 ? "s" : ""),
                    Config{swarms, 64, 50}, true, sframes, tw);
            }
        }
        rep.sections.emplace_back("GPU warps per particle (gpu_team_warps; 64 particles, 50 generations)", by_team);
        // Where a swarm's blocks meet each generation: their own cluster's barrier or the whole grid's.
        BenchReport by_barrier;
        by_barrier.table = make_table();
        for (const int swarms : {8, 16, 40}) {
            for (const int tw : {1, 2}) {
                for (const bool cluster : {true, false}) {
                    add(by_barrier, swarm::Backend::Cuda,
                        std::string(cluster ? "cluster" : "grid") + " barrier, team " + std::to_string(tw),
                        Config{swarms, 64, 50}, true, sframes, tw, cluster);
                }
            }
        }
        rep.sections.emplace_back("GPU barrier per generation (gpu_cluster_barrier x gpu_team_warps; 64 particles, 50 "
                                  "generations; the cluster form where the GPU has clusters)",
                                  by_barrier);
    }

    // Tracking the scene with default settings: tracking swarms come and go with the signs.
    BenchReport tracking;
    tracking.table = make_table();
    for (const bool on_gpu : {true, false}) {
        if ((on_gpu && !gpu) || (!on_gpu && !cpu)) {
            continue;
        }
        // The defaults (auto: the region search on every second frame on a GPU, every frame on the CPU), then every
        // frame, every second and every third one (candidate_interval).
        for (const int interval : {0, 1, 2, 3}) {
            tracker::TrackerSettings s;
            s.engine.backend = on_gpu ? swarm::Backend::Cuda : swarm::Backend::Cpu;
            s.search.candidate_interval = interval;
            const Measured m = measure(s, scene, width, height, on_gpu ? gpu_frames : cpu_frames, on_gpu ? 3 : 1);
            tracking.table.add(row(on_gpu ? "cuda (" + swarm::cuda_device_name() + ")" : "cpu",
                                   interval == 0 ? std::string("tracking (defaults)")
                                                 : "tracking, candidate_interval " + std::to_string(interval),
                                   Config{0, s.search.particles, s.search.generations}, m, on_gpu));
        }
    }
    tracking.notes.push_back("Default settings: the tile and candidate detection swarms plus one tracking swarm per "
                             "track; two engine runs per frame (tracking, then masked detection). candidate_interval N: "
                             "the candidate regions are searched for on every N-th frame and reused between; compare "
                             "the mean wall times.");
    rep.sections.emplace_back("Tracking the scene", tracking);
    return rep;
}

} // namespace app
