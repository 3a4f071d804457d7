#pragma once
// The Bees Algorithm experiment of 004 (Tables 4-11, 4-12, 4-13): the nine functions of Table 4-2, run
// until |f - f*| <= 0.001 or 5,000 cycles, 50 runs each (10 with --quick), cpu-bees and gpu-bees side
// by side with the thesis' figures (BA on an Athlon II X4, CUBA on a GTX 460).
#include "bench/bench_suites.h"

namespace app {

BenchReport run_bees_seed_suite(const BenchOptions& o);

} // namespace app
