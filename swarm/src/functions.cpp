#include "swarm/functions.h"

#include <cmath>
#include <string>

#include "swarm/errors.h"

namespace swarm {

const std::vector<FunctionInfo>& all_functions() {
    constexpr double pi = 3.14159265358979323846;
    static const std::vector<FunctionInfo> table = {
        {Function::Sphere, "sphere", "001 FastPSO, 003 RingPSO, 004 hyper-sphere", -5.12, 5.12, 0, 30},
        {Function::Rastrigin, "rastrigin", "003 SyncPSO/RingPSO", -5.12, 5.12, 0, 5},
        {Function::Rosenbrock, "rosenbrock", "003 RingPSO (004 uses [-50, 50], 10-D)", -30.0, 30.0, 0, 10},
        {Function::Griewank, "griewank", "001 FastPSO", -600.0, 600.0, 0, 30},
        {Function::GriewankShifted, "griewank-shifted", "004 CUBA (10-D)", -600.0, 600.0, 0, 10},
        {Function::Ackley, "ackley", "004 CUBA (2-D)", -32.0, 32.0, 0, 2},
        {Function::Easom, "easom", "004 CUBA (2-D)", -100.0, 100.0, 2, 2},
        {Function::EasomND, "easom-nd", "001 FastPSO n-D form", -2.0 * pi, 2.0 * pi, 0, 2},
        {Function::Schwefel, "schwefel", "004 CUBA (2-D); offset so the minimum is 0", -500.0, 500.0, 0, 2},
        {Function::SchafferF6, "schaffer-f6", "004 CUBA (2-D)", -100.0, 100.0, 2, 2},
        {Function::GoldsteinPrice, "goldstein-price", "004 CUBA (2-D)", -2.0, 2.0, 2, 2},
        {Function::MartinGaddy, "martin-gaddy", "004 CUBA (2-D)", -20.0, 20.0, 2, 2},
        {Function::Cubic, "cubic", "000 cuPSO Eq. 3 (1-D and 120-D), maximised", -100.0, 100.0, 0, 1, true},
        {Function::Euclidean, "euclidean", "002 CPSO Eq. 4 (2-D)", -100.0, 100.0, 0, 2},
    };
    return table;
}

const FunctionInfo& info(Function f) {
    for (const auto& i : all_functions()) {
        if (i.id == f) {
            return i;
        }
    }
    throw Error("unknown benchmark function id " + std::to_string(static_cast<int>(f)));
}

std::optional<Function> parse_function(std::string_view name) {
    for (const auto& i : all_functions()) {
        if (i.name == name) {
            return i.id;
        }
    }
    return std::nullopt;
}

static void check_dims(Function f, int dims) {
    const auto& fi = info(f);
    if (dims < 1) {
        throw ValidationError("dims", "must be at least 1 (got " + std::to_string(dims) + ")");
    }
    if (fi.fixed_dims != 0 && dims != fi.fixed_dims) {
        throw ValidationError("dims", std::string(fi.name) + " is defined for exactly " +
                                          std::to_string(fi.fixed_dims) + " dimensions (got " +
                                          std::to_string(dims) + ")");
    }
}

double known_optimum(Function f, int dims) {
    check_dims(f, dims);
    switch (f) {
    case Function::Easom: return -1.0;
    case Function::EasomND: return dims % 2 == 0 ? -1.0 : 0.0;
    case Function::GoldsteinPrice: return 3.0;
    case Function::Cubic: return 900000.0 * dims; // maximum: every x_i at the upper bound 100
    default: return 0.0;
    }
}

std::vector<double> optimum_position(Function f, int dims) {
    check_dims(f, dims);
    constexpr double pi = 3.14159265358979323846;
    switch (f) {
    case Function::Rosenbrock: return std::vector<double>(dims, 1.0);
    case Function::GriewankShifted: return std::vector<double>(dims, 100.0);
    case Function::Easom: return {pi, pi};
    case Function::EasomND: return std::vector<double>(dims, dims % 2 == 0 ? pi : pi / 2.0);
    case Function::Schwefel: return std::vector<double>(dims, 420.968746);
    case Function::GoldsteinPrice: return {0.0, -1.0};
    case Function::MartinGaddy: return {5.0, 5.0};
    case Function::Cubic: return std::vector<double>(dims, 100.0);
    default: return std::vector<double>(dims, 0.0);
    }
}

} // namespace swarm
