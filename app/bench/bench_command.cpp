// `swarmtrack bench`: the benchmark suites. Every table carries the device, the CPU and the date.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/bench_bees.h"
#include "bench/bench_common.h"
#include "bench/bench_suites.h"
#include "commands.h"
#include "output.h"
#include "swarm/errors.h"

namespace app {
namespace {

int list_strategies() {
    Table t({"strategy", "available", "why not"});
    for (const auto s : swarm::all_strategies()) {
        const auto a = swarm::availability(s);
        t.add({std::string(swarm::to_string(s)), a.available ? "yes" : "no", a.reason});
    }
    std::printf("%s", t.markdown().c_str());
    return exit_code::ok;
}

void print_report(const BenchReport& report) {
    std::printf("%s", report.table.markdown().c_str());
    for (const auto& n : report.notes) {
        std::printf("\n%s", n.c_str());
    }
    std::printf("\n");
    for (const auto& [title, section] : report.sections) {
        std::printf("\n## %s\n\n", title.c_str());
        print_report(section);
    }
}

nlohmann::json report_json(const BenchReport& report) {
    nlohmann::json j;
    j["rows"] = nlohmann::json::array();
    for (const auto& r : report.table.rows()) {
        nlohmann::json row;
        for (std::size_t c = 0; c < r.size() && c < report.table.header().size(); ++c) {
            row[report.table.header()[c]] = r[c];
        }
        j["rows"].push_back(row);
    }
    j["notes"] = report.notes;
    for (const auto& [title, section] : report.sections) {
        nlohmann::json sj = report_json(section);
        sj["title"] = title;
        j["sections"].push_back(sj);
    }
    return j;
}

// The CSV carries the run's parameters as extra columns, the same on every row, so one file says it all.
std::string csv_with_parameters(const BenchReport& report) {
    if (report.parameters.empty()) return report.table.csv();
    std::vector<std::string> header = report.table.header();
    for (const auto& [name, value] : report.parameters) header.push_back(name);
    Table t(header);
    for (auto row : report.table.rows()) {
        row.resize(report.table.header().size());
        for (const auto& [name, value] : report.parameters) row.push_back(value);
        t.add(row);
    }
    return t.csv();
}

} // namespace

void register_bench(CLI::App& root, int& rc) {
    auto* sub = root.add_subcommand("bench", "Benchmark suites (functions, seeds, peers, bees, tracker, scenes, soak, real)");
    auto o = std::make_shared<BenchOptions>();
    sub->add_option("--suite", o->suite, "functions | seeds | peers | bees | tracker | scenes | soak | real")->capture_default_str();
    sub->add_option("--strategy", o->engine.strategy, "Strategy name, comma list or all")->capture_default_str();
    sub->add_option("--function", o->function, "Benchmark function name or all")->capture_default_str();
    sub->add_option("--particles", o->particles, "Particles per swarm")->capture_default_str();
    sub->add_option("--dims", o->dims, "Dimensions (0: each function's default)")->capture_default_str();
    sub->add_option("--iters", o->iterations, "Iterations per run")->capture_default_str();
    sub->add_option("--swarms", o->swarms, "Swarms per run")->capture_default_str();
    sub->add_option("--runs", o->runs, "Runs per cell (the median is reported)")->capture_default_str();
    sub->add_option("--backend", o->engine.backend, "cpu | cuda | auto")->capture_default_str();
    sub->add_option("--precision", o->engine.precision, "fp32 | fp64")->capture_default_str();
    sub->add_option("--topology", o->engine.topology, "global | ring")->capture_default_str();
    sub->add_option("--update", o->engine.update, "synchronous | asynchronous")->capture_default_str();
    sub->add_option("--boundary", o->engine.boundary, "clamp | reflect | random")->capture_default_str();
    sub->add_option("--seed", o->engine.seed, "Seed of the first run")->capture_default_str();
    sub->add_option("--w", o->engine.w, "Inertia weight w (functions and bees suites)")->capture_default_str();
    sub->add_option("--c1", o->engine.c1, "Cognitive (personal best) coefficient c1")->capture_default_str();
    sub->add_option("--c2", o->engine.c2, "Social (neighbourhood best) coefficient c2")->capture_default_str();
    auto* vmax = sub->add_option("--vmax", o->engine.v_max, "Velocity clamp: |v_d| <= vmax x the range of dimension d (0: none)")
                     ->capture_default_str();
    sub->add_option("--velocity-clamp", o->engine.velocity_clamp, "per-dimension | off")->capture_default_str();
    sub->add_option("--json", o->json, "Also write the results as JSON to this file");
    sub->add_option("--csv", o->csv, "Also write the results as CSV to this file");
    sub->add_option("--frames", o->frames, "Soak suite: frames to track (default 10000); real suite: the first N images (default all)")
        ->check(CLI::Range(1LL, 100000000LL));
    sub->add_option("--generations", o->generations, "Soak suite: PSO generations per frame (0: the tracker's default)");
    sub->add_option("--width", o->width, "Soak suite: synthetic frame width")->check(CLI::Range(64, 7680))->capture_default_str();
    sub->add_option("--height", o->height, "Soak suite: synthetic frame height")->check(CLI::Range(48, 4320))->capture_default_str();
    sub->add_option("--bees-colonies", o->bees_colonies, "Bees suite: gpu-bees colonies per run (0: the preset's)")
        ->check(CLI::Range(0, 1 << 24))->capture_default_str();
    sub->add_option("--bees-nep", o->bees_nep, "Bees suite: gpu-bees recruits per selected site (0: the preset's)")
        ->check(CLI::Range(0, 1024))->capture_default_str();
    sub->add_option("--config", o->config, "Scenes and real suites: tracker settings file (JSON, as for track/process)");
    sub->add_option("--data", o->data, "Real suite: folder of labelled images (DIR/images/* or DIR/*, with DIR/labels.csv or a COCO .json)");
    sub->add_option("--labels", o->labels, "Real suite: the labels file (.csv or COCO .json) when not found in --data");
    sub->add_option("--predictions", o->predictions,
                    "Real suite: also write the detections to this file (JSON lines, as process --stills writes them)");
    sub->add_option("--blur", o->blur,
                    "Real suite: blur each image by a Gaussian of this sigma in px before tracking (a softer camera)")
        ->check(CLI::Range(0.0, 20.0))
        ->capture_default_str();
    sub->add_option("--resave-quality", o->resave_quality,
                    "Real suite: save each image once more as JPEG at this quality (1-100) before tracking, as video "
                    "and re-exported frames are (0: as decoded)")
        ->check(CLI::Range(0, 100))
        ->capture_default_str();
    auto* chroma = sub->add_option("--resave-chroma", o->resave_chroma,
                    "Real suite: that save's chroma: 420 halves it once more (as a clip re-exported through RGB), 444 "
                    "keeps it (as a transcoder does)")
        ->check(CLI::IsMember({"420", "444"}))
        ->capture_default_str();
    sub->add_option("--match-iou", o->match_iou, "Real suite: box IoU a match needs")->check(CLI::Range(0.05, 1.0))->capture_default_str();
    sub->add_option("--peer-script", o->peer_script,
                    "Peers suite: the PyTorch PSO script (default: the shipped app/bench/peers/pso_torch.py)");
    sub->add_option("--peer-python", o->peer_python, "Peers suite: the Python interpreter that runs it")
        ->capture_default_str();
    sub->add_option("--scene", o->scene, "Scenes suite: easy, noisy, crowded, night, all, or real (real sign appearances from --data)")->capture_default_str();
    sub->add_flag("--quick", o->quick, "Scaled-down sizes that finish in seconds (seeds, peers, bees and scenes suites)");
    sub->add_flag("--list-strategies", o->list, "List every strategy and whether it can run here");
    sub->callback([o, vmax, chroma, &rc] {
        if (o->engine.velocity_clamp == "off" && vmax->count() > 0) {
            throw swarm::ValidationError("vmax", "has no effect with --velocity-clamp off; drop one of the two");
        }
        if (o->resave_quality == 0 && chroma->count() > 0) {
            throw swarm::ValidationError("resave-chroma", "has no effect without a re-save; give --resave-quality "
                                                          "from 1 to 100 or drop --resave-chroma");
        }
        if (o->list) {
            rc = list_strategies();
            return;
        }
        // Fail on unwritable outputs before spending minutes benchmarking.
        if (!o->json.empty()) check_writable(o->json, "--json");
        if (!o->csv.empty()) check_writable(o->csv, "--csv");
        BenchReport report;
        if (o->suite == "functions") {
            report = run_functions_suite(*o);
        } else if (o->suite == "seeds") {
            report = run_seeds_suite(*o);
        } else if (o->suite == "peers") {
            report = run_peers_suite(*o);
        } else if (o->suite == "bees") {
            report = run_bees_seed_suite(*o);
        } else if (o->suite == "tracker") {
            report = run_tracker_suite(*o);
        } else if (o->suite == "scenes") {
            report = run_scenes_suite(*o);
        } else if (o->suite == "soak") {
            report = run_soak_suite(*o);
        } else if (o->suite == "real") {
#if defined(SWARMTRACK_BENCH_ONLY) && !defined(SWARMTRACK_BENCH_JPEG)
            throw swarm::UnavailableError("--suite real decodes images, which this swarmtrack-bench (built without "
                                          "libjpeg) cannot; run it with swarmtrack");
#else
            report = run_real_suite(*o);
#endif
        } else {
            throw swarm::ValidationError("suite", "must be functions, seeds, peers, bees, tracker, scenes, soak or real (got '" + o->suite + "')");
        }
        std::printf("# swarmtrack bench --suite %s  (%s; GPU: %s; CPU: %s)\n\n", o->suite.c_str(), today_iso().c_str(),
                    gpu_model().c_str(), cpu_model().c_str());
        print_report(report);
        if (!o->json.empty()) {
            nlohmann::json j = report_json(report);
            j["suite"] = o->suite;
            j["date"] = today_iso();
            j["gpu"] = gpu_model();
            j["cpu"] = cpu_model();
            for (const auto& [name, value] : report.parameters) j["parameters"][name] = value;
            if (report.json_extra.is_object()) j.update(report.json_extra);
            write_file_atomically(o->json, j.dump(2) + "\n");
        }
        if (!o->csv.empty()) {
            write_file_atomically(o->csv, csv_with_parameters(report));
        }
        rc = report.failed ? exit_code::failed : exit_code::ok;
    });
}

} // namespace app
