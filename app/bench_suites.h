#pragma once
#include <string>
#include <vector>

#include "bench_common.h"
#include "output.h"

namespace app {

struct BenchOptions {
    std::string suite = "functions";
    std::string function = "all";
    int particles = 64;
    int dims = 0;
    long long iterations = 1000;
    int swarms = 1;
    int runs = 3;
    bool quick = false;
    bool list = false;
    std::string json, csv;
    EngineOptions engine;
};

struct BenchReport {
    Table table{{}};
    std::vector<std::string> notes;
    bool failed = false;
};

BenchReport run_functions_suite(const BenchOptions& o);

} // namespace app
