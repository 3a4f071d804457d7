// `swarmtrack track [INPUT]`: live tracking with the GUI, or the same loop with no window (--headless).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "commands.h"
#include "core/track_session.h"
#include "swarm/errors.h"
#ifdef SWARMTRACK_HAVE_GUI
#include "gui/gui_app.h"
#endif

namespace app {
namespace {

volatile std::sig_atomic_t g_stop = 0;

int run_headless(const TrackOptions& o) {
    TrackSession session(o);
    std::fprintf(stderr, "track: %s on %s (--headless; Ctrl-C stops)\n", session.pipeline().source().description().c_str(),
                 session.pipeline().tracker().backend_name().c_str());
    g_stop = 0;
    auto previous = std::signal(SIGINT, [](int) { g_stop = 1; });
    auto last_status = std::chrono::steady_clock::now();
    long long detections = 0;
    while (!session.done() && !g_stop) {
        if (!session.tick()) {
            if (!session.ended()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            continue;
        }
        detections += static_cast<long long>(session.current().result.detections.size());
        session.finish_frame(0.0);
        const auto now = std::chrono::steady_clock::now();
        if (now - last_status >= std::chrono::seconds(1)) {
            last_status = now;
            std::fprintf(stderr, "track: %lld frames, %.1f fps, %zu detections in the last frame, %lld dropped\n",
                         session.frames_done(), session.history().fps(), session.current().result.detections.size(),
                         session.pipeline().source().dropped());
        }
    }
    std::signal(SIGINT, previous);
    const auto& h = session.history();
    std::vector<double> search, total;
    for (std::size_t i = 0; i < h.size(); ++i) {
        search.push_back(h.at(i)[Stage::Search]);
        total.push_back(h.at(i).frame_ms);
    }
    std::printf("track: %lld frames, %lld detections, %.1f fps (last %zu frames), search %.2f ms median, %lld dropped, "
                "%lld skipped\n",
                session.frames_done(), detections, h.fps(), h.size(), percentile(search, 50),
                session.pipeline().source().dropped(), session.pipeline().source().skipped());
    return exit_code::ok;
}

bool display_present() {
    const char* x = std::getenv("DISPLAY");
    const char* wl = std::getenv("WAYLAND_DISPLAY");
    return (x != nullptr && *x != '\0') || (wl != nullptr && *wl != '\0');
}

int run_track(const TrackOptions& o) {
    if (o.headless) {
        if (!o.screenshot.empty()) throw std::invalid_argument("--screenshot needs the window; drop --headless");
        return run_headless(o);
    }
    if (!display_present()) {
        throw swarm::UnavailableError("track: no display ($DISPLAY is not set); run it in a desktop session or under "
                                      "xvfb-run, or pass --headless");
    }
#ifdef SWARMTRACK_HAVE_GUI
    return run_gui(o);
#else
    throw swarm::UnavailableError("track: this build has no GUI (GLFW/ImGui missing or SWARMTRACK_GUI=OFF); pass --headless");
#endif
}

} // namespace

void register_track(CLI::App& root, int& rc) {
    auto* sub = root.add_subcommand("track", "Track signs live: GUI window, or --headless");
    auto o = std::make_shared<TrackOptions>();
    sub->add_option("input", o->input, "camera:N, a video file, an image folder or synthetic[:scene]")->capture_default_str();
    sub->add_option("--config", o->config, "Tracker settings JSON (the presets panel saves the same format)");
    sub->add_option("--backend", o->backend, "cpu | cuda | auto (overrides the config)");
    sub->add_flag("--headless", o->headless, "Run the same loop with no window");
    sub->add_option("--frames", o->frames, "Stop after this many frames")->check(CLI::Range(1LL, 100000000LL));
    sub->add_option("--screenshot", o->screenshot, "Save a PNG of the window after --frames frames, then exit");
    sub->add_option("--fps", o->fps, "Synthetic input: live frame rate (0: as fast as the tracker goes)")->capture_default_str();
    sub->add_option("--width", o->width, "Synthetic frame width")->check(CLI::Range(64, 7680))->capture_default_str();
    sub->add_option("--height", o->height, "Synthetic frame height")->check(CLI::Range(48, 4320))->capture_default_str();
    sub->add_option("--record", o->record, "Record the annotated view to this video file (.mp4 or .avi)");
    sub->add_option("--preset", o->preset, "Default file of the presets panel")->capture_default_str();
    sub->add_flag("--profile", o->profile, "Time the overlay draw exactly (adds a GPU sync per frame)");
    sub->add_option("--window-width", o->window_width, "Window width")->capture_default_str();
    sub->add_option("--window-height", o->window_height, "Window height")->capture_default_str();
    sub->callback([o, &rc] {
        if (!o->screenshot.empty() && o->frames <= 0) throw std::invalid_argument("--screenshot needs --frames N (N >= 1)");
        rc = run_track(*o);
    });
}

} // namespace app
