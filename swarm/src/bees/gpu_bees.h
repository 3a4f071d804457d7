#pragma once
// gpu-bees (CUBA, 004): defined in gpu_bees.cu, linked only in CUDA builds. Plain C++ header.
#include <memory>

#include "swarm/optimizer.h"

namespace swarm::detail {

std::unique_ptr<Optimizer> create_gpu_bees_optimizer();

} // namespace swarm::detail
