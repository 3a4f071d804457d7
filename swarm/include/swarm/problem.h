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

    // The optimum's value when known (benchmarks set it); used for target_error and error reports.
    std::optional<double> known_optimum;

    // A built-in benchmark over the domain the seeds used for it; known_optimum filled in.
    static Problem benchmark(Function f, int dims);

    // Bounds of dimension d for swarm s, whichever layout is used.
    double lower_of(int swarm, int d) const { return lower.size() == static_cast<std::size_t>(dims) ? lower[d] : lower[static_cast<std::size_t>(swarm) * dims + d]; }
    double upper_of(int swarm, int d) const { return upper.size() == static_cast<std::size_t>(dims) ? upper[d] : upper[static_cast<std::size_t>(swarm) * dims + d]; }
    bool per_swarm_bounds() const { return lower.size() != static_cast<std::size_t>(dims); }

    // Throws ValidationError naming the field (dims, lower, upper, ...) and the fix. Bounds must be finite,
    // lower < upper, and within [-1e18, 1e18] (so single precision keeps them and their squares finite).
    void validate(int swarms) const;
};

} // namespace swarm
