#include "swarm/problem.h"

#include <cmath>
#include <string>

#include "swarm/errors.h"

namespace swarm {

Problem Problem::benchmark(Function f, int dims) {
    const auto& fi = info(f);
    Problem p;
    p.known_optimum = swarm::known_optimum(f, dims); // validates dims
    p.dims = dims;
    p.function = f;
    p.goal = fi.maximise ? Goal::Maximise : Goal::Minimise;
    p.lower.assign(static_cast<std::size_t>(dims), fi.lower);
    p.upper.assign(static_cast<std::size_t>(dims), fi.upper);
    return p;
}

namespace {
constexpr double k_max_bound = 1e18;
} // namespace

void Problem::validate(int swarms) const {
    if (dims < 1 || dims > (1 << 16)) {
        throw ValidationError("dims", "must be in [1, 65536] (got " + std::to_string(dims) + ")");
    }
    const auto shared = static_cast<std::size_t>(dims);
    const auto per_swarm = shared * static_cast<std::size_t>(swarms);
    if (lower.size() != shared && lower.size() != per_swarm) {
        throw ValidationError("lower", "needs dims (" + std::to_string(shared) + ") or swarms x dims (" +
                                           std::to_string(per_swarm) + ") values, got " + std::to_string(lower.size()));
    }
    if (upper.size() != lower.size()) {
        throw ValidationError("upper", "needs as many values as lower (" + std::to_string(lower.size()) + "), got " +
                                           std::to_string(upper.size()));
    }
    for (std::size_t i = 0; i < lower.size(); ++i) {
        // |bound| <= 1e18 keeps ranges, velocities and the built-in functions' squares finite even in
        // single precision (1e300 became inf in fp32 and the run returned NaN; found by fuzzing, issue 7).
        if (std::fabs(lower[i]) > k_max_bound || std::fabs(upper[i]) > k_max_bound) {
            throw ValidationError("lower", "bounds of dimension " + std::to_string(i % shared) +
                                               " must lie within [-1e18, 1e18] (got [" + std::to_string(lower[i]) +
                                               ", " + std::to_string(upper[i]) + "]); rescale the problem");
        }
        if (!std::isfinite(lower[i]) || !std::isfinite(upper[i]) || !(lower[i] < upper[i])) {
            throw ValidationError("lower", "bounds of dimension " + std::to_string(i % shared) +
                                               " must be finite with lower < upper (got [" +
                                               std::to_string(lower[i]) + ", " + std::to_string(upper[i]) + "])");
        }
    }
    if (!evaluator && !host_function) {
        const auto& fi = info(function);
        if (fi.fixed_dims != 0 && dims != fi.fixed_dims) {
            throw ValidationError("dims", std::string(fi.name) + " is defined for exactly " +
                                              std::to_string(fi.fixed_dims) + " dimensions (got " +
                                              std::to_string(dims) + ")");
        }
    }
}

} // namespace swarm
