// Which GPU strategies exist in this build, and their factories.
#include <functional>
#include <map>

#include "registry.h"
#include "swarm/cuda/detail/strategies.h"
#include "swarm/errors.h"

namespace swarm::detail {
namespace {

const std::map<Strategy, std::function<std::unique_ptr<Optimizer>()>>& factories() {
    static const std::map<Strategy, std::function<std::unique_ptr<Optimizer>()>> table = {
        {Strategy::GpuReduction, gpu::make_gpu_reduction},
        {Strategy::GpuSync, gpu::make_gpu_sync},
        {Strategy::GpuRing3k, gpu::make_gpu_ring_3k},
        {Strategy::GpuRing2k, gpu::make_gpu_ring_2k},
        {Strategy::GpuFused, gpu::make_gpu_fused},
        {Strategy::GpuUnrolled, gpu::make_gpu_unrolled},
        {Strategy::GpuQueue, gpu::make_gpu_queue},
        {Strategy::GpuQueueLock, gpu::make_gpu_queue_lock},
        {Strategy::GpuElementwise, gpu::make_gpu_elementwise},
    };
    return table;
}

} // namespace

Availability gpu_strategy_availability(Strategy s) {
    if (factories().count(s) == 0) {
        return {false, std::string(to_string(s)) + " is not built yet"};
    }
    if (cuda_device_count() == 0) {
        return {false, "no CUDA device is visible"};
    }
    return {true, ""};
}

std::unique_ptr<Optimizer> create_gpu_optimizer(Strategy s) {
    const auto it = factories().find(s);
    if (it == factories().end()) {
        throw UnavailableError(std::string(to_string(s)) + " is not built yet");
    }
    // Creating an optimizer needs no device; running it does (GpuPsoOptimizer::run checks).
    return it->second();
}

} // namespace swarm::detail
