#pragma once
// PSO parameters. Defaults are Clerc's constriction values; `validate` names the field at fault.
#include <cstdint>
#include <limits>

namespace swarm {

enum class Topology { Global, Ring };
enum class Update { Synchronous, Asynchronous };
enum class Boundary { Clamp, Reflect, Random };
enum class Precision { FP32, FP64 };

struct Params {
    double w = 0.7298;
    double c1 = 1.49618;
    double c2 = 1.49618;
    // |v_d| <= v_max_fraction * (upper_d - lower_d); 0 disables the clamp.
    double v_max_fraction = 0.5;

    int swarms = 1;
    int particles = 32;
    long long iterations = 1000;

    Topology topology = Topology::Global;
    int ring_radius = 1; // neighbours on each side for Topology::Ring (Mussi's RingPSO uses 1)
    Update update = Update::Synchronous;
    Boundary boundary = Boundary::Clamp;

    // Stop early when |best - known optimum| <= target_error (needs a known optimum); NaN disables.
    double target_error = std::numeric_limits<double>::quiet_NaN();
    // Stop early after this many iterations without improvement of the best fitness; 0 disables.
    long long stall_iterations = 0;

    std::uint64_t seed = 1;
    Precision precision = Precision::FP32;
    bool record_history = false; // best fitness of each swarm after every iteration

    // Throws ValidationError naming the field and its allowed range.
    void validate() const;
};

// Bees Algorithm parameters (Pham's BA; CUBA, 004). The colony shape comes from Params, so the same
// Optimizer API, CLI options and result tables work for bees: Params::swarms = colonies, Params::particles
// = n (scout bees = sites per colony), Params::iterations = cycles. Validated like Params.
struct BeesParams {
    int selected = 10;        // m: best sites of a colony chosen for neighbourhood search (m <= n)
    int elite = 3;            // e: elite sites among the m (cpu-bees; CUBA gives every selected site nep)
    int elite_recruits = 10;  // nep: bees sent to each elite site (gpu-bees: to every selected site)
    int other_recruits = 5;   // nsp: bees sent to each other selected site (cpu-bees only)
    double ngh = 1.0;         // initial patch half-width as a fraction of each dimension's range (Pham: the range)
    double shrink = 0.8;      // ngh <- shrink * ngh after a site's search does not improve it
    int stlim = 10;           // cpu-bees: abandon a site after this many consecutive cycles without improvement
    int colonies_per_block = 0; // gpu-bees: colonies sharing one CUDA block (CUBA's BlockDim / N); 0 = auto

    // Ranges of the fields alone (ValidationError naming the field as the CLI spells it).
    void validate() const;
    // Also the checks that need the colony shape: m <= n, colonies_per_block x n <= 1024.
    void validate(const Params& params) const;
};
} // namespace swarm
