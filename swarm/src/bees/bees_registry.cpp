// The Bees Algorithm strategies (004) are built by their own issue; until then they report that plainly.
#include "registry.h"
#include "swarm/errors.h"

namespace swarm::detail {

Availability bees_availability(Strategy) {
    return {false, "the Bees Algorithm strategies are not built yet"};
}

std::unique_ptr<Optimizer> create_bees_optimizer(Strategy s) {
    throw UnavailableError(std::string(to_string(s)) + " is not built yet; use a PSO strategy");
}

} // namespace swarm::detail
