// Which GPU strategies exist in this build, and their factories.
#include "registry.h"
#include "swarm/errors.h"

namespace swarm::detail {

Availability gpu_strategy_availability(Strategy s) {
    if (cuda_device_count() == 0) {
        return {false, "no CUDA device is visible"};
    }
    return {false, std::string(to_string(s)) + " is not built yet"};
}

std::unique_ptr<Optimizer> create_gpu_optimizer(Strategy s) {
    const Availability a = gpu_strategy_availability(s);
    throw UnavailableError(std::string(to_string(s)) + ": " + a.reason);
}

} // namespace swarm::detail
