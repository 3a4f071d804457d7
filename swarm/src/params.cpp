#include "swarm/params.h"

#include <cmath>
#include <sstream>
#include <string>

#include "swarm/errors.h"

namespace swarm {
namespace {

template <typename T>
void require_range(const char* field, T value, T lo, T hi) {
    if (!(value >= lo && value <= hi)) { // also rejects NaN
        std::ostringstream os;
        os << "must be in [" << lo << ", " << hi << "] (got " << value << ")";
        throw ValidationError(field, os.str());
    }
}

} // namespace

void Params::validate() const {
    require_range("w", w, -1.0, 2.0);
    require_range("c1", c1, 0.0, 8.0);
    require_range("c2", c2, 0.0, 8.0);
    require_range("vmax", v_max_fraction, 0.0, 10.0);
    require_range("swarms", swarms, 1, 1 << 20);
    require_range("particles", particles, 1, 1 << 24);
    if (static_cast<long long>(swarms) * particles > (1LL << 26)) {
        throw ValidationError("particles", "swarms x particles must be at most 67108864 (got " +
                                               std::to_string(static_cast<long long>(swarms) * particles) + ")");
    }
    require_range("iterations", iterations, 1LL, 1LL << 31);
    require_range("ring-radius", ring_radius, 1, 1 << 20);
    if (topology == Topology::Ring && 2 * ring_radius + 1 > particles && particles > 1) {
        // A neighbourhood wider than the swarm would count particles twice; the global topology is meant.
        throw ValidationError("ring-radius", "2 * ring-radius + 1 must not exceed particles (" +
                                                 std::to_string(particles) + "); use --topology global");
    }
    if (!std::isnan(target_error) && !(target_error >= 0.0)) {
        throw ValidationError("target-error", "must be >= 0 (got " + std::to_string(target_error) + ")");
    }
    require_range("stall", stall_iterations, 0LL, 1LL << 31);
}

void BeesParams::validate() const {
    require_range("bees-selected", selected, 1, 1 << 16);
    require_range("bees-elite", elite, 0, selected);
    require_range("bees-nep", elite_recruits, 1, 1 << 16);
    require_range("bees-nsp", other_recruits, 1, 1 << 16);
    require_range("bees-ngh", ngh, 1e-12, 1.0);
    require_range("bees-shrink", shrink, 1e-6, 1.0);
    require_range("bees-stlim", stlim, 1, 1 << 20);
    require_range("bees-colonies-per-block", colonies_per_block, 0, 1024);
}

void BeesParams::validate(const Params& params) const {
    validate();
    if (selected > params.particles) {
        throw ValidationError("bees-selected", "m must not exceed the bees per colony (--particles " +
                                                   std::to_string(params.particles) + "), got " +
                                                   std::to_string(selected));
    }
    if (static_cast<long long>(colonies_per_block) * params.particles > 1024) {
        throw ValidationError("bees-colonies-per-block", "colonies-per-block x particles must be at most 1024 (one "
                                                             "CUDA block), got " + std::to_string(colonies_per_block) +
                                                             " x " + std::to_string(params.particles));
    }
}

} // namespace swarm
