#pragma once
// What to optimise: dimension, bounds (shared or per swarm), direction and fitness source.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "swarm/functions.h"

namespace swarm {

enum class Goal { Minimise, Maximise };
enum class MemorySpace { Host, Device };

// Shape of one batch handed to a BatchEvaluator: positions are `swarms * particles` rows of `dims`
// floats (swarm-major, then particle, then dimension); fitness is one float per row.
struct BatchShape {
    int swarms = 0;
    int particles = 0;
    int dims = 0;
    std::size_t rows() const { return static_cast<std::size_t>(swarms) * static_cast<std::size_t>(particles); }
};

// Scores all particles of all swarms in one call (the tracker's hook). GPU strategies call it with
// device pointers and their CUDA stream (as void*, so this header stays plain C++); CPU strategies with
// host pointers and a null stream.
class BatchEvaluator {
public:
    virtual ~BatchEvaluator() = default;
    virtual bool supports(MemorySpace where) const = 0;
    virtual void evaluate(const float* positions, float* fitness, const BatchShape& shape, MemorySpace where,
                          void* stream) = 0;
};

struct Problem {
    int dims = 0;
    // Either `dims` entries shared by every swarm, or `swarms * dims` entries (swarm-major): each swarm
    // searches its own box.
    std::vector<double> lower;
    std::vector<double> upper;
    Goal goal = Goal::Minimise;

    // Fitness source, first one set wins: evaluator, host_function, then the built-in function.
    std::shared_ptr<BatchEvaluator> evaluator;
    std::function<double(const double* x, int dims)> host_function;
    Function function = Function::Sphere;

    // Optional start box, same layouts as lower/upper and inside them: the first round(init_share x
    // particles) particles of every swarm draw their initial position and velocity in it, the others over
    // the whole bounds. A tracker restarting a swarm around a predicted pose keeps part of it spread out
    // this way. Empty: every particle starts over the bounds. cpu-serial, cpu-parallel and every GPU PSO
    // strategy but gpu-elementwise honour it; the others reject it.
    std::vector<double> init_lower;
    std::vector<double> init_upper;
    double init_share = 1.0;

    // The optimum's value when known (benchmarks set it); used for target_error and error reports.
    std::optional<double> known_optimum;

    // A built-in benchmark over the domain the seeds used for it; known_optimum filled in.
    static Problem benchmark(Function f, int dims);

    // Bounds of dimension d for swarm s, whichever layout is used.
    double lower_of(int swarm, int d) const { return lower.size() == static_cast<std::size_t>(dims) ? lower[d] : lower[static_cast<std::size_t>(swarm) * dims + d]; }
    double upper_of(int swarm, int d) const { return upper.size() == static_cast<std::size_t>(dims) ? upper[d] : upper[static_cast<std::size_t>(swarm) * dims + d]; }
    bool per_swarm_bounds() const { return lower.size() != static_cast<std::size_t>(dims); }
    // Start box of dimension d for swarm s (the bounds when there is none).
    double init_lower_of(int swarm, int d) const {
        if (init_lower.empty()) return lower_of(swarm, d);
        return init_lower.size() == static_cast<std::size_t>(dims) ? init_lower[d] : init_lower[static_cast<std::size_t>(swarm) * dims + d];
    }
    double init_upper_of(int swarm, int d) const {
        if (init_upper.empty()) return upper_of(swarm, d);
        return init_upper.size() == static_cast<std::size_t>(dims) ? init_upper[d] : init_upper[static_cast<std::size_t>(swarm) * dims + d];
    }
    // Particles of each swarm that start in the start box (0 without one).
    int init_focus(int particles) const;

    // Throws ValidationError naming the field (dims, lower, upper, ...) and the fix. Bounds must be finite,
    // lower < upper, and within [-1e18, 1e18] (so single precision keeps them and their squares finite).
    void validate(int swarms) const;
};

} // namespace swarm
