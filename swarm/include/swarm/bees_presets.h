#pragma once
// The Bees Algorithm experiment of 004 (Huang 2012, Ch. 4): the nine functions of its Table 4-2 with the
// settings of Table 4-9 (BA, for cpu-bees) and Table 4-10 (CUBA, for gpu-bees), run until
// |f - f*| <= 0.001 or 5,000 cycles. Benchmarks and tests share this one table.
#include <vector>

#include "swarm/params.h"
#include "swarm/problem.h"
#include "swarm/strategy.h"

namespace swarm {

struct BeesSetup {
    Problem problem;  // Table 4-2's function, dimension and domain; known optimum set
    Params params;    // swarms = colonies, particles = n, iterations = 5000, target_error = 0.001
    BeesParams bees;
};

// Table 4-2's order: Ackley, Easom, Goldstein-Price, Martin-Gaddy, Schaffer, Schwefel (2-D),
// Hyper-Sphere, shifted Griewank, Rosenbrock (10-D).
const std::vector<Function>& thesis_bees_functions();

// The setting of `f` for cpu-bees (Table 4-9) or gpu-bees (Table 4-10 with a larger grid, see bees_presets.cpp).
// Throws ValidationError("function") for a function outside the nine, or a strategy that is not bees.
BeesSetup thesis_bees_setup(Function f, Strategy s);

} // namespace swarm
