// The card's device-to-device copy bandwidth: the yardstick of the memory-bound strategies' targets.
#include <algorithm>

#include "gpu/cuda_stream.h"
#include "gpu/gpu_memory.h"
#include "registry.h"
#include "swarm/device_bench.h"

namespace swarm {

double measure_device_copy_bandwidth(std::size_t bytes, int repeats) {
    if (detail::cuda_device_count() == 0) {
        throw UnavailableError("measuring copy bandwidth needs a CUDA device");
    }
    gpu::Stream stream;
    gpu::GPUMemory<unsigned char> a(bytes, stream.get()), b(bytes, stream.get());
    a.memset(1, stream.get());
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    float best_ms = 0.0f;
    for (int r = 0; r < std::max(repeats, 1); ++r) {
        gpu::EventTimer timer;
        timer.start(stream.get());
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
        timer.stop(stream.get());
        const float ms = timer.elapsed_ms();
        best_ms = r == 0 ? ms : std::min(best_ms, ms);
    }
    return 2.0 * static_cast<double>(bytes) / (static_cast<double>(best_ms) * 1e6);
}

} // namespace swarm
