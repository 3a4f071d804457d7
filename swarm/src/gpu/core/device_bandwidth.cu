// The card's device-to-device copy bandwidth: the yardstick of the memory-bound strategies' targets; and the
// bandwidth of gpu-elementwise's traffic pattern with no arithmetic: how close its row update can get.
#include <algorithm>

#include "registry.h"
#include "swarm/cuda/launch.h"
#include "swarm/cuda/memory.h"
#include "swarm/cuda/stream.h"
#include "swarm/device_bench.h"

namespace swarm {

namespace {

// The shortest of `repeats` timed calls of `pass` on `stream` (after one untimed call), in milliseconds.
template <typename Pass>
float best_of(cudaStream_t stream, int repeats, Pass pass) {
    pass();
    float best_ms = 0.0f;
    for (int r = 0; r < std::max(repeats, 1); ++r) {
        gpu::EventTimer timer;
        timer.start(stream);
        pass();
        timer.stop(stream);
        const float ms = timer.elapsed_ms();
        best_ms = r == 0 ? ms : std::min(best_ms, ms);
    }
    return best_ms;
}

// One pass of the row update's memory traffic over n4 groups of 4 floats: read x, v and p, write x and v,
// with two fused multiply-adds per value standing in for the PSO arithmetic (no random numbers).
__global__ void stream_update_kernel(float4* x, float4* v, const float4* p, std::size_t n4) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n4;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        float4 a = x[i], b = v[i];
        const float4 c = p[i];
        b = make_float4(0.7f * b.x + 0.3f * (c.x - a.x), 0.7f * b.y + 0.3f * (c.y - a.y), 0.7f * b.z + 0.3f * (c.z - a.z),
                        0.7f * b.w + 0.3f * (c.w - a.w));
        a = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
        x[i] = a;
        v[i] = b;
    }
}

} // namespace

double measure_device_copy_bandwidth(std::size_t bytes, int repeats) {
    if (detail::cuda_device_count() == 0) {
        throw UnavailableError("measuring copy bandwidth needs a CUDA device");
    }
    gpu::Stream stream;
    gpu::GPUMemory<unsigned char> a(bytes, stream.get()), b(bytes, stream.get());
    a.memset(1, stream.get());
    const float ms = best_of(stream.get(), repeats, [&] {
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    });
    return 2.0 * static_cast<double>(bytes) / (static_cast<double>(ms) * 1e6);
}

double measure_stream_update_bandwidth(std::size_t elements, int repeats) {
    if (detail::cuda_device_count() == 0) {
        throw UnavailableError("measuring the update's bandwidth needs a CUDA device");
    }
    const std::size_t n4 = (elements + 3) / 4;
    gpu::Stream stream;
    gpu::GPUMemory<float4> x(n4, stream.get()), v(n4, stream.get()), p(n4, stream.get());
    x.memset(0, stream.get());
    v.memset(0, stream.get());
    p.memset(0, stream.get());
    const unsigned blocks = static_cast<unsigned>(gpu::sm_count()) * 8; // 8 x 256 threads per SM: the measured best
    const float ms = best_of(stream.get(), repeats, [&] {
        stream_update_kernel<<<blocks, 256, 0, stream.get()>>>(x.data(), v.data(), p.data(), n4);
        SWARM_CHECK_LAUNCH(stream_update_kernel, blocks, 256, 0);
    });
    return 20.0 * static_cast<double>(4 * n4) / (static_cast<double>(ms) * 1e6);
}

} // namespace swarm
