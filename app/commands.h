#pragma once
// Each subcommand registers itself on the root CLI11 app and reports its exit status through `rc`.
#include <CLI/CLI.hpp>

namespace app {

namespace exit_code {
constexpr int ok = 0;
constexpr int failed = 1;      // ran, but the result is a failure (selftest, eval thresholds)
constexpr int bad_input = 2;   // bad argument, file or config
constexpr int unavailable = 3; // asked for hardware or a feature this build/machine lacks
} // namespace exit_code

void register_bench(CLI::App& root, int& rc);
void register_selftest(CLI::App& root, int& rc);
void register_synth(CLI::App& root, int& rc);
void register_eval(CLI::App& root, int& rc);
void register_process(CLI::App& root, int& rc);
void register_track(CLI::App& root, int& rc);

} // namespace app
