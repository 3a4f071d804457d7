// swarmtrack: real-time traffic-sign tracker on a GPU particle-swarm engine.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <opencv2/core/utils/logger.hpp>
#include <spdlog/spdlog.h>

#include "commands.h"
#include "git_commit.h"
#include "swarm/errors.h"
#include "tracker/assets.h"

namespace {

// `--version`: enough to tell two builds apart in a bug report.
std::string version_text() {
#if defined(SWARMTRACK_BENCH_ONLY)
    const char* name = "swarmtrack-bench";
    const char* gui = "no (bench and selftest only)";
#elif defined(SWARMTRACK_HAVE_GUI)
    const char* name = "swarmtrack";
    const char* gui = "yes (GLFW, OpenGL 3.3, Dear ImGui)";
#else
    const char* name = "swarmtrack";
    const char* gui = "no (GLFW, OpenGL or ImGui missing at build time: track runs --headless only)";
#endif
    std::string assets;
    try {
        assets = tracker::assets_dir();
    } catch (const std::exception& e) {
        assets = std::string("not found (") + e.what() + ")";
    }
    return std::string(name) + " " SWARMTRACK_VERSION "\ncommit: " SWARMTRACK_GIT_COMMIT
                                "\nCUDA architectures: " SWARMTRACK_CUDA_ARCHS "\nGUI: " + gui + "\nassets: " + assets;
}

} // namespace

int main(int argc, char** argv) {
    // FFmpeg prints its own complaints about damaged files; OpenCV reads this before its first capture.
    ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0); // AV_LOG_QUIET
    CLI::App root{"swarmtrack: GPU particle-swarm engine and traffic-sign tracker"};
    root.require_subcommand(1);
    root.set_version_flag("--version", version_text());
    bool verbose = false;
    root.add_flag("-v,--verbose", verbose, "Log more");

    int rc = app::exit_code::ok;
    app::register_bench(root, rc);
    app::register_selftest(root, rc);
#if !defined(SWARMTRACK_BENCH_ONLY)
    app::register_synth(root, rc);
    app::register_eval(root, rc);
    app::register_process(root, rc);
    app::register_track(root, rc);
#endif

    // OpenCV's and FFmpeg's own warnings would break the one-line error contract; -v brings them back.
    root.parse_complete_callback([&] {
        cv::utils::logging::setLogLevel(verbose ? cv::utils::logging::LOG_LEVEL_INFO
                                                : cv::utils::logging::LOG_LEVEL_SILENT);
    });
    try {
        root.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) { // --help, --version
            return root.exit(e);
        }
        // One line, like every other bad input (CLI11's own report adds a second).
        std::fprintf(stderr, "swarmtrack: error: %s; see --help\n", e.what());
        return app::exit_code::bad_input;
    } catch (const swarm::ValidationError& e) {
        std::fprintf(stderr, "swarmtrack: error: --%s\n", e.what());
        return app::exit_code::bad_input;
    } catch (const swarm::UnavailableError& e) {
        std::fprintf(stderr, "swarmtrack: error: %s\n", e.what());
        return app::exit_code::unavailable;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "swarmtrack: error: %s\n", e.what());
        return app::exit_code::bad_input;
    }
    (void)verbose;
    return rc;
}
