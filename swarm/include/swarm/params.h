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

// Bees Algorithm parameters (Pham; CUBA, 004). Validated like Params.
struct BeesParams {
    int scouts = 30;          // n: scout bees (sites visited) per colony
    int selected = 10;        // m: best sites chosen for neighbourhood search
    int elite = 3;            // e: elite sites among the m
    int elite_recruits = 10;  // nep: bees sent to each elite site
    int other_recruits = 5;   // nsp: bees sent to each other selected site
    double ngh = 0.1;         // initial neighbourhood radius as a fraction of each dimension's range
    double shrink = 0.8;      // ngh <- shrink * ngh when a site's search does not improve
    int stlim = 10;           // abandon a site after this many cycles without improvement
    int colonies = 1;         // independent colonies (CUBA groups several in one block)

    void validate() const;
};

} // namespace swarm
