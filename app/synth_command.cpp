// `swarmtrack synth`: render a synthetic scene to a video plus ground-truth JSON lines, atomically.
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "commands.h"
#include "core/output_set.h"
#include "decode/still_image.h"
#include "scenes/synthetic.h"
#include "tracker/io.h"

namespace app {
namespace {

struct SynthOptions {
    std::string scene = "easy";
    long long frames = 0;
    unsigned long long seed = 1;
    std::string out;
    int width = 1280, height = 720;
    double fps = 25;
    std::string background;
    std::string data = "../shared/data/gtsdb-dev";
};

// The named procedural scenes, or "real": real sign appearances from a labelled data set (--data).
std::unique_ptr<tracker::SceneGenerator> make_scene(const SynthOptions& o, const tracker::BackgroundSource& source) {
    if (o.scene != "real") {
        return tracker::create_scene(o.scene, o.width, o.height, o.seed, source);
    }
    if (source) {
        throw std::invalid_argument("--background: the real scene draws on a real frame of --data; leave it out");
    }
    return tracker::create_real_scene(o.data, o.width, o.height, o.seed, decode_still);
}

int run_synth(const SynthOptions& o) {
    std::unique_ptr<cv::VideoCapture> background;
    tracker::BackgroundSource source;
    if (!o.background.empty()) {
        background = std::make_unique<cv::VideoCapture>(o.background);
        if (!background->isOpened()) {
            throw std::runtime_error("--background " + o.background + ": cannot open the video; check the path");
        }
        source = [&background](cv::Mat& f) { return background->read(f); };
    }
    auto scene = make_scene(o, source);
    const long long frames = o.frames > 0 ? o.frames : scene->frame_count(); // 0: --frames not given
    const std::string video_name = o.scene + ".avi", truth_name = o.scene + ".truth.jsonl";
    // The folder is created as for `process --out`; re-rendering a scene replaces its files (no --force).
    OutputSet outputs(o.out, {video_name, truth_name}, /*force=*/true);
    std::ofstream truth(outputs.temp_path(truth_name));
    cv::VideoWriter video(outputs.temp_path(video_name), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), o.fps,
                          cv::Size(o.width, o.height));
    if (!truth || !video.isOpened()) {
        throw std::runtime_error("--out " + o.out + ": cannot create the video and truth files there; check that the folder is writable");
    }
    long long signs = 0;
    for (long long f = 0; f < frames; ++f) {
        tracker::SceneFrame frame = scene->next();
        video.write(frame.bgr);
        tracker::FrameRecord rec;
        rec.frame = f;
        rec.width = o.width;
        rec.height = o.height;
        truth << tracker::to_json_line(rec) << '\n';
        for (const auto& g : frame.truth) {
            truth << tracker::to_json_line(g) << '\n';
        }
        signs += static_cast<long long>(frame.truth.size());
        std::fprintf(stderr, "\rsynth %s: frame %lld/%lld", o.scene.c_str(), f + 1, frames);
    }
    std::fprintf(stderr, "\n");
    video.release();
    truth.close();
    if (!truth) throw std::runtime_error("--out " + o.out + ": writing " + truth_name + " failed (disk full?)");
    outputs.commit();
    std::printf("wrote %s and %s (%lld frames, %lld sign instances, seed %llu)\n", outputs.final_path(video_name).c_str(),
                outputs.final_path(truth_name).c_str(), frames, signs, o.seed);
    return exit_code::ok;
}

} // namespace

void register_synth(CLI::App& root, int& rc) {
    auto opts = std::make_shared<SynthOptions>();
    auto* sub = root.add_subcommand("synth", "Render a synthetic scene (video + ground-truth JSON lines)");
    std::string names;
    for (const auto& n : tracker::scene_names()) {
        names += (names.empty() ? "" : ", ") + n;
    }
    sub->add_option("--scene", opts->scene, "Scene: " + names + ", or real (real sign appearances from --data)")
        ->capture_default_str();
    sub->add_option("--frames", opts->frames, "Frames to render (default: the scene's natural length)")
        ->check(CLI::Range(1LL, 100000000LL));
    sub->add_option("--seed", opts->seed, "Random seed (scenes are deterministic from it)")->capture_default_str();
    sub->add_option("--out", opts->out, "Output folder (created if missing)")->required();
    sub->add_option("--width", opts->width, "Frame width")->check(CLI::Range(64, 7680))->capture_default_str();
    sub->add_option("--height", opts->height, "Frame height")->check(CLI::Range(48, 4320))->capture_default_str();
    sub->add_option("--fps", opts->fps, "Video frame rate")->check(CLI::Range(1.0, 240.0))->capture_default_str();
    sub->add_option("--background", opts->background, "Video whose frames replace the procedural road");
    sub->add_option("--data", opts->data, "The real scene's labelled frames (DIR/images, DIR/labels.csv)")
        ->capture_default_str();
    sub->callback([opts, &rc] { rc = run_synth(*opts); });
}

} // namespace app
