// swarmtrack: real-time traffic-sign tracker on a GPU particle-swarm engine.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <opencv2/core/utils/logger.hpp>
#include <spdlog/spdlog.h>

#include "commands.h"
#include "swarm/errors.h"

int main(int argc, char** argv) {
    // FFmpeg prints its own complaints about damaged files; OpenCV reads this before its first capture.
    ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0); // AV_LOG_QUIET
    CLI::App root{"swarmtrack: GPU particle-swarm engine and traffic-sign tracker"};
    root.require_subcommand(1);
    root.set_version_flag("--version", "swarmtrack 0.1.0");
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
