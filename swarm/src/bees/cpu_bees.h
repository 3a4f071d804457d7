#pragma once
// cpu-bees: Pham's Bees Algorithm with neighbourhood shrinking and site abandonment (Pham & Castellani
// 2009, as 004 §2.3 describes it), the sequential reference. Colonies (Params::swarms) are independent.
#include "swarm/optimizer.h"

namespace swarm::detail {

Result run_cpu_bees(const Problem& problem, const Params& params, const BeesParams& bees);

} // namespace swarm::detail
