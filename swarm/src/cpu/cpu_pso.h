#pragma once
// The CPU PSO engine behind cpu-serial and cpu-parallel: the sequential SPSO of Algorithm 1 (000) with
// the global and ring topologies of 003, synchronous or asynchronous best updates. cpu-parallel runs the
// very same phases with OpenMP threads over particles (synchronous) or swarms (asynchronous), so the two
// give bit-identical results for the same seed.
#include "swarm/optimizer.h"

namespace swarm::detail {

Result run_cpu_pso(const Problem& problem, const Params& params, bool parallel);

} // namespace swarm::detail
