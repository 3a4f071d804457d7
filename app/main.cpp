// swarmtrack: real-time traffic-sign tracker on a GPU particle-swarm engine.
#include <cstdio>
#include <exception>

#include <spdlog/spdlog.h>

#include "commands.h"
#include "swarm/errors.h"

int main(int argc, char** argv) {
    CLI::App root{"swarmtrack: GPU particle-swarm engine and traffic-sign tracker"};
    root.require_subcommand(1);
    root.set_version_flag("--version", "swarmtrack 0.1.0");
    bool verbose = false;
    root.add_flag("-v,--verbose", verbose, "Log more");

    int rc = app::exit_code::ok;
    app::register_bench(root, rc);
    app::register_selftest(root, rc);
    app::register_synth(root, rc);
    app::register_eval(root, rc);
    app::register_unbuilt(root, rc);

    try {
        root.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = root.exit(e);
        return code == 0 ? 0 : app::exit_code::bad_input;
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
