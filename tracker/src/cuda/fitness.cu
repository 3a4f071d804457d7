// The batched fitness kernel: a warp per particle of every swarm (warp_fitness.cuh). A thread per particle
// left a few hundred dependent texture fetches on one thread and 512 particles on a handful of SMs:
// latency, not work, set its time.
#include "cuda/cuda_check.h"
#include "cuda/kernels.h"
#include "cuda/warp_fitness.cuh"

namespace tracker::cuda {
namespace {

constexpr int k_block = 128;
constexpr int k_warps = k_block / 32;

__global__ void __launch_bounds__(k_block) fitness_kernel(FitnessParams p, const float* positions, float* fitness) {
    const long long r = blockIdx.x * static_cast<long long>(k_warps) + (threadIdx.x >> 5);
    const int lane = static_cast<int>(threadIdx.x & 31);
    if (r >= p.rows) {
        return; // whole warps leave together: r is the same for every lane of a warp
    }
    const float f = warp_score(p, positions + r * p.dims, static_cast<int>(r / p.particles), lane);
    if (lane == 0) {
        fitness[r] = f;
    }
}

} // namespace

void launch_fitness(cudaStream_t stream, const FitnessParams& p, const float* positions, float* fitness) {
    if (p.rows == 0) {
        return;
    }
    const auto blocks = static_cast<unsigned>((p.rows + k_warps - 1) / k_warps);
    fitness_kernel<<<blocks, k_block, 0, stream>>>(p, positions, fitness);
    TRACKER_CUDA_CHECK(cudaGetLastError());
}

} // namespace tracker::cuda
