#pragma once
// Factories of the GPU strategies, one translation unit each. registry.cu maps names to these.
#include <memory>

#include "swarm/optimizer.h"

namespace swarm::gpu {

std::unique_ptr<Optimizer> make_gpu_reduction();

} // namespace swarm::gpu
