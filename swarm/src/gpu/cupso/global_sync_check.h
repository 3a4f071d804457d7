#pragma once
// The shape check shared by the thread-per-particle strategies of 000/002 (gpu-reduction, gpu-unrolled,
// gpu-queue, gpu-queue-lock): they run the global, synchronous PSO on built-in functions only.
#include <string>

#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/errors.h"

namespace swarm::gpu {

template <typename Real>
void require_global_synchronous_builtin(const RunContext<Real>& ctx, const char* name) {
    if (ctx.params.topology != Topology::Global || ctx.params.update != Update::Synchronous) {
        throw ValidationError("topology", std::string(name) + " runs the global, synchronous PSO; use gpu-ring-* for "
                                                              "rings or cpu-serial for asynchronous updates");
    }
    if (ctx.has_evaluator()) {
        throw ValidationError("fitness", std::string(name) + " scores built-in functions only; use gpu-fused for a "
                                                             "batched evaluator");
    }
}

} // namespace swarm::gpu
