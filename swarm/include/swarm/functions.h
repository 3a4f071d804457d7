#pragma once
// The classic benchmark functions with their known optima and the domains the seeds used.
// Formulas live in swarm/benchmark_functions.h (host and device callable); this header is metadata.
#include <optional>
#include <string_view>
#include <vector>

namespace swarm {

enum class Function {
    Sphere,
    Rastrigin,
    Rosenbrock,
    Griewank,
    GriewankShifted, // CUBA's (004) shifted form
    Ackley,
    Easom,           // 2-D
    EasomND,         // FastPSO's (001) n-D form
    Schwefel,
    SchafferF6,
    GoldsteinPrice,
    MartinGaddy,
    Cubic,           // cuPSO (000) Eq. 3
    Euclidean,       // CPSO (002) Eq. 4
};

struct FunctionInfo {
    Function id;
    std::string_view name;   // CLI name
    std::string_view source; // which seed uses it, and how
    double lower;            // default domain, every dimension
    double upper;
    int fixed_dims;          // 0: any dimension; otherwise the only one allowed
    int default_dims;
    bool maximise = false;   // cuPSO maximises its cubic (Algorithm 1 keeps the larger fitness)
};

const std::vector<FunctionInfo>& all_functions();
const FunctionInfo& info(Function f);
std::optional<Function> parse_function(std::string_view name);

// The global optimum's value (the maximum for maximised functions) for `dims` dimensions (throws ValidationError when dims is not allowed).
double known_optimum(Function f, int dims);
// One point where the optimum is attained (used by tests and selftest).
std::vector<double> optimum_position(Function f, int dims);

} // namespace swarm
