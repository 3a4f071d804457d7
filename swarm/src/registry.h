#pragma once
// Where the factory finds the strategies that live in other translation units. The CUDA build links
// gpu/ implementations; a build without CUDA links gpu_absent.cpp, which reports every GPU strategy as
// unavailable with the reason.
#include <memory>
#include <string>

#include "swarm/optimizer.h"

namespace swarm::detail {

// GPU side (swarm/src/gpu/core/, or gpu_absent.cpp).
bool cuda_compiled();
int cuda_device_count();                 // 0 when no driver/device; never throws
std::string cuda_device_name_or_empty(); // device 0
int cuda_sm_count();                     // device 0's multiprocessors; 0 when no device
Availability gpu_strategy_availability(Strategy s);
std::unique_ptr<Optimizer> create_gpu_optimizer(Strategy s); // throws UnavailableError

// Bees (cpu-bees always; gpu-bees needs the GPU side).
Availability bees_availability(Strategy s);
std::unique_ptr<Optimizer> create_bees_optimizer(Strategy s);

} // namespace swarm::detail
