// Linked instead of gpu/'s CUDA sources when the build has no CUDA compiler: every GPU strategy reports why it
// cannot run, so `--list-strategies`, `auto` and `--backend cuda` behave sensibly on CPU-only builds.
#include "registry.h"
#include "swarm/device_memory.h"
#include "swarm/errors.h"

namespace swarm::detail {

bool cuda_compiled() { return false; }
int cuda_device_count() { return 0; }
std::string cuda_device_name_or_empty() { return {}; }
int cuda_sm_count() { return 0; }

Availability gpu_strategy_availability(Strategy) {
    return {false, "this build has no CUDA support (nvcc was not found at configure time)"};
}

std::unique_ptr<Optimizer> create_gpu_optimizer(Strategy s) {
    throw UnavailableError(std::string(to_string(s)) +
                           ": this build has no CUDA support; rebuild where nvcc is installed or pick a cpu-* strategy");
}

} // namespace swarm::detail

namespace swarm {

DeviceMemoryInfo device_memory_info() { return {}; }

} // namespace swarm
