#include "swarm/problem.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "swarm/errors.h"

namespace swarm {

namespace {
// The dimensions a problem may have: checked before anything of that size is allocated.
void check_dims_range(int dims) {
    if (dims < 1 || dims > (1 << 16)) {
        throw ValidationError("dims", "must be in [1, 65536] (got " + std::to_string(dims) + ")");
    }
}
} // namespace

Problem Problem::benchmark(Function f, int dims) {
    const auto& fi = info(f);
    check_dims_range(dims);
    Problem p;
    p.known_optimum = swarm::known_optimum(f, dims); // validates dims for the function
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

int Problem::init_focus(int particles) const {
    if (init_lower.empty()) {
        return 0;
    }
    return static_cast<int>(std::lround(std::clamp(init_share, 0.0, 1.0) * particles));
}

void Problem::validate(int swarms) const {
    check_dims_range(dims);
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
        // single precision (1e300 became inf in fp32 and the run returned NaN, found by fuzzing).
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
    if (!init_lower.empty() || !init_upper.empty()) {
        if (init_lower.size() != shared && init_lower.size() != per_swarm) {
            throw ValidationError("init_lower", "needs dims (" + std::to_string(shared) + ") or swarms x dims (" +
                                                    std::to_string(per_swarm) + ") values, got " +
                                                    std::to_string(init_lower.size()));
        }
        if (init_upper.size() != init_lower.size()) {
            throw ValidationError("init_upper", "needs as many values as init_lower (" +
                                                    std::to_string(init_lower.size()) + "), got " +
                                                    std::to_string(init_upper.size()));
        }
        if (!std::isfinite(init_share) || init_share < 0.0 || init_share > 1.0) {
            throw ValidationError("init_share", "must be in [0, 1] (got " + std::to_string(init_share) + ")");
        }
        const int n_swarms = init_lower.size() == shared && lower.size() == shared ? 1 : swarms;
        for (int s = 0; s < n_swarms; ++s) {
            for (int d = 0; d < dims; ++d) {
                const double a = init_lower_of(s, d), b = init_upper_of(s, d);
                if (!(a >= lower_of(s, d) && a <= b && b <= upper_of(s, d))) {
                    throw ValidationError("init_lower", "the start box of swarm " + std::to_string(s) + ", dimension " +
                                                            std::to_string(d) + " must satisfy lower <= init_lower <= "
                                                            "init_upper <= upper (got [" + std::to_string(a) + ", " +
                                                            std::to_string(b) + "] in [" + std::to_string(lower_of(s, d)) +
                                                            ", " + std::to_string(upper_of(s, d)) + "])");
                }
            }
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
