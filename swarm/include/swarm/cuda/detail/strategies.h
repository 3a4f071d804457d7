#pragma once
// Factories of the GPU strategies, one translation unit each. registry.cu maps names to these.
#include <memory>

#include "swarm/optimizer.h"

namespace swarm::gpu {

std::unique_ptr<Optimizer> make_gpu_reduction();
std::unique_ptr<Optimizer> make_gpu_sync();
std::unique_ptr<Optimizer> make_gpu_ring_3k();
std::unique_ptr<Optimizer> make_gpu_ring_2k();
std::unique_ptr<Optimizer> make_gpu_fused();

// gpu-sync's limits (update rule, one block per swarm, no evaluator); throws ValidationError naming the field.
void check_sync_shape(const Params& params, bool has_evaluator);
std::unique_ptr<Optimizer> make_gpu_unrolled();
std::unique_ptr<Optimizer> make_gpu_queue();
std::unique_ptr<Optimizer> make_gpu_queue_lock();
std::unique_ptr<Optimizer> make_gpu_elementwise();

} // namespace swarm::gpu
