// `swarmtrack process INPUT --out DIR`: offline processing into an annotated video, detections as JSON
// lines and MOT CSV, the settings used and a summary. Everything is written under temporary names and
// renamed only when the run ends; a failed run leaves nothing behind. SIGINT / SIGTERM end the run after
// the current frame: the outputs of the frames done are finished (video closed, files flushed, summary
// with "interrupted": true), renamed into place, and the exit code is 128 + the signal (130 / 143).
#include <signal.h>

#include <csignal>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "bench/bench_common.h"
#include "commands.h"
#include "core/annotate.h"
#include "core/detections_out.h"
#include "core/output_set.h"
#include "core/pipeline.h"
#include "core/progress.h"
#include "core/summary.h"
#include "output.h"
#include "tracker/smoothing.h"

namespace app {
namespace {

// The signal that asked the run to stop (0: none). Only this flag is touched in the handler.
volatile std::sig_atomic_t g_interrupted = 0;

// Reliability hook: SIGINT and SIGTERM end the frame loop instead of the process, while the
// handlers are installed (the frame loop); the previous handlers come back for the finishing steps, so a
// second Ctrl-C while files are closed still stops at once (the temporaries are then left, never a
// half-written final name).
class StopSignals {
public:
    StopSignals() {
        g_interrupted = 0;
        struct sigaction sa {};
        sa.sa_handler = [](int sig) { g_interrupted = sig; };
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &m_old_int);
        sigaction(SIGTERM, &sa, &m_old_term);
    }
    ~StopSignals() { restore(); }
    void restore() {
        if (m_restored) return;
        sigaction(SIGINT, &m_old_int, nullptr);
        sigaction(SIGTERM, &m_old_term, nullptr);
        m_restored = true;
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction m_old_int {}, m_old_term {};
    bool m_restored = false;
};

struct ProcessOptions {
    std::string input, out, config, backend;
    bool force = false, particles = false, no_video = false, quiet = false, smooth_angles = false, stills = false;
    long long frames = -1;
    int width = 1280, height = 720;
};

const char* k_video = "annotated.mp4";
const char* k_jsonl = "detections.jsonl";
const char* k_mot = "detections_mot.csv";
const char* k_settings = "settings.json";
const char* k_summary = "summary.json";

// A frame's detections held back until the run ends (--smooth-angles), without its swarm views.
struct HeldFrame {
    tracker::FrameResult result;
    cv::Size size;
};

// --smooth-angles: every track's angles smoothed over the whole run (tracker/smoothing.h), then the JSON lines.
void write_smoothed_jsonl(std::ostream& out, std::vector<HeldFrame>& held, const tracker::TrackerSettings& settings) {
    std::vector<tracker::Detection> all;
    for (const auto& h : held) all.insert(all.end(), h.result.detections.begin(), h.result.detections.end());
    tracker::smooth_track_angles(all, settings);
    std::size_t k = 0;
    for (auto& h : held) {
        for (auto& d : h.result.detections) d = all[k++];
        write_jsonl(out, h.result, h.size);
    }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int run_process(const ProcessOptions& o) {
    tracker::TrackerSettings settings = resolve_settings(o.config, o.backend);
    settings.keep_particles = o.particles;
    SourceOptions so;
    so.synthetic_live = false; // offline: every frame of the scene, as fast as it renders
    so.synthetic_size = {o.width, o.height};
    so.synthetic_frames = o.frames;
    so.seed = settings.search.seed;
    so.native_size = o.stills;
    if (o.stills) {
        std::error_code ec;
        if (!std::filesystem::is_directory(o.input, ec)) {
            throw std::runtime_error("input " + o.input + ": --stills needs a folder of images");
        }
        if (o.smooth_angles) {
            throw std::runtime_error("--smooth-angles smooths tracks over a video; stills have none, drop one of the two");
        }
    }
    auto source = open_source(o.input, so);
    std::vector<std::string> names = {k_jsonl, k_mot, k_settings, k_summary};
    if (!o.no_video) names.insert(names.begin(), k_video);
    OutputSet outputs(o.out, names, o.force);
    StopSignals stop_signals; // from here on a signal ends the loop and the outputs are finished
    Pipeline pipeline(std::move(source), settings);
    pipeline.set_stills(o.stills);

    cv::VideoWriter video;
    // Stills are shown one a second; a folder of video frames plays at the usual rate.
    const double fps = pipeline.source().fps() > 0 ? pipeline.source().fps() : (o.stills ? 1.0 : 30.0);
    if (!o.no_video && !video.open(outputs.temp_path(k_video), cv::VideoWriter::fourcc('m', 'p', '4', 'v'), fps,
                                   pipeline.source().size())) {
        throw std::runtime_error("output " + outputs.final_path(k_video) + ": OpenCV cannot open an MPEG-4 writer; try --no-video");
    }
    std::ofstream jsonl(outputs.temp_path(k_jsonl)), mot(outputs.temp_path(k_mot));
    if (!jsonl || !mot) throw std::runtime_error("--out " + o.out + ": cannot create files there");

    long long total = pipeline.source().frame_count();
    if (o.frames > 0 && (total < 0 || o.frames < total)) total = o.frames;
    Progress progress("process", total, !o.quiet);
    RunStats stats;
    Step step;
    std::vector<HeldFrame> held; // --smooth-angles
    const auto start = std::chrono::steady_clock::now();
    auto t_frame = start;
    while (!g_interrupted && (o.frames < 0 || stats.frames() < o.frames) && pipeline.step(step)) {
        auto t0 = std::chrono::steady_clock::now();
        if (!o.no_video) {
            annotate(step.frame.bgr, step.result, pipeline.camera(), OverlayOptions{true, true, o.particles, o.particles});
            stats.add_stage("annotate", ms_since(t0));
            t0 = std::chrono::steady_clock::now();
            if (step.frame.bgr.size() != pipeline.source().size()) {
                cv::Mat scaled; // stills of another size than the first: the video has one geometry
                cv::resize(step.frame.bgr, scaled, pipeline.source().size());
                video.write(scaled);
            } else {
                video.write(step.frame.bgr);
            }
            stats.add_stage("encode", ms_since(t0));
        }
        if (o.smooth_angles) {
            held.push_back({tracker::FrameResult{step.result.frame, step.result.detections, {}, step.result.swarms_run,
                                                 step.result.timing},
                            step.frame.bgr.size()});
        } else {
            write_jsonl(jsonl, step.result, step.frame.bgr.size(), o.stills ? step.frame.name : std::string());
        }
        write_mot(mot, step.result);
        // Whole frames reach the temporaries as they are done (one write per frame): a watcher sees
        // progress, and even a SIGKILLed run leaves whole lines behind.
        jsonl.flush();
        mot.flush();
        const auto now = std::chrono::steady_clock::now();
        step.timing.frame_ms = std::chrono::duration<double, std::milli>(now - t_frame).count();
        t_frame = now;
        stats.add(step.result, step.timing);
        progress.update(stats.frames());
    }
    stop_signals.restore();
    const int signal_number = g_interrupted;
    progress.finish(stats.frames());
    video.release();
    if (o.smooth_angles) write_smoothed_jsonl(jsonl, held, settings);
    jsonl.close();
    mot.close();
    if (!jsonl || !mot) throw std::runtime_error("--out " + o.out + ": writing failed (disk full?)");
    settings.save(outputs.temp_path(k_settings));

    const double wall_s = ms_since(start) / 1000.0;
    nlohmann::json summary = stats.json();
    summary["input"] = pipeline.source().description();
    summary["skipped_frames"] = pipeline.source().skipped();
    summary["dropped_frames"] = pipeline.source().dropped();
    summary["device"] = pipeline.tracker().backend_name();
    summary["cpu"] = cpu_model();
    summary["date"] = today_iso();
    summary["wall_s"] = wall_s;
    summary["fps"] = wall_s > 0 ? static_cast<double>(stats.frames()) / wall_s : 0.0;
    summary["outputs"] = names;
    summary["stills"] = o.stills;
    summary["angles"] = o.smooth_angles ? "smoothed over each track (--smooth-angles)" : "online";
    summary["interrupted"] = signal_number != 0;
    if (signal_number != 0) summary["signal"] = signal_number == SIGTERM ? "SIGTERM" : "SIGINT";
    std::ofstream(outputs.temp_path(k_summary)) << summary.dump(2) << '\n';
    outputs.commit();

    std::printf("processed %lld frames (%.1f fps, %s): %lld detections -> %s\n", stats.frames(),
                summary["fps"].get<double>(), pipeline.tracker().backend_name().c_str(), stats.detections(), o.out.c_str());
    if (signal_number != 0) {
        std::fprintf(stderr, "swarmtrack: interrupted by %s after %lld frames; the outputs in %s cover those frames\n",
                     signal_number == SIGTERM ? "SIGTERM" : "SIGINT", stats.frames(), o.out.c_str());
        return 128 + signal_number; // the shell's convention: 130 for SIGINT, 143 for SIGTERM
    }
    if (pipeline.source().skipped() > 0) {
        std::fprintf(stderr, "swarmtrack: warning: input %s: %lld frames could not be decoded (truncated or damaged); "
                     "processed the other %lld\n", o.input.c_str(), pipeline.source().skipped(), stats.frames());
        return exit_code::failed;
    }
    return exit_code::ok;
}

} // namespace

void register_process(CLI::App& root, int& rc) {
    auto* sub = root.add_subcommand("process", "Process a video offline into annotated video, JSON lines, MOT CSV and a summary");
    auto o = std::make_shared<ProcessOptions>();
    sub->add_option("input", o->input, "Video file, image folder, camera:N or synthetic[:scene]")->required();
    sub->add_option("--out", o->out, "Output folder (created if missing)")->required();
    sub->add_option("--config", o->config, "Tracker settings JSON (see docs/usage.md)");
    sub->add_option("--backend", o->backend, "cpu | cuda | auto (overrides the config)");
    sub->add_flag("--force", o->force, "Overwrite existing outputs");
    sub->add_option("--frames", o->frames, "Stop after this many frames (synthetic: the clip length)")
        ->check(CLI::Range(1LL, 100000000LL));
    sub->add_option("--width", o->width, "Synthetic frame width")->check(CLI::Range(64, 7680))->capture_default_str();
    sub->add_option("--height", o->height, "Synthetic frame height")->check(CLI::Range(48, 4320))->capture_default_str();
    sub->add_flag("--particles", o->particles, "Draw every swarm's particles in the annotated video");
    sub->add_flag("--no-video", o->no_video, "Skip the annotated video");
    sub->add_flag("--smooth-angles", o->smooth_angles,
                  "detections.jsonl gets each track's angles smoothed over the whole run (offline; written at the end)");
    sub->add_flag("--stills", o->stills,
                  "INPUT is a folder of unrelated images: each is tracked on its own (no track carries over) and its "
                  "frame record in detections.jsonl names the file");
    sub->add_flag("-q,--quiet", o->quiet, "No progress line");
    sub->callback([o, &rc] { rc = run_process(*o); });
}

} // namespace app
