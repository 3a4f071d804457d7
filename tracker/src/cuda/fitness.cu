// The batched fitness kernel: a team of warps per particle of every swarm (warp_fitness.cuh). A thread per
// particle left a few hundred dependent texture fetches on one thread and 512 particles on a handful of
// SMs: latency, not work, set its time.
#include <stdexcept>
#include <string>

#include "cuda/kernels.h"
#include "cuda/warp_fitness.cuh"
#include "swarm/cuda/check.h"

namespace tracker::cuda {
namespace {

constexpr int k_block = 128;

template <int TW>
__global__ void __launch_bounds__(k_block) fitness_kernel(FitnessParams p, const float* positions, float* fitness) {
    constexpr int teams = k_block / (32 * TW); // particles per block
    const int warp = static_cast<int>(threadIdx.x >> 5);
    const swarm::gpu::Team team{warp / TW, (warp % TW) * 32 + static_cast<int>(threadIdx.x & 31), 32 * TW};
    const long long r = blockIdx.x * static_cast<long long>(teams) + team.index;
    if (r >= p.rows) {
        return; // whole teams leave together: r is the same for every thread of a team
    }
    const float f = team_score<TW>(p, positions + r * p.dims, static_cast<int>(r / p.particles), team);
    if (team.rank == 0) {
        fitness[r] = f;
    }
}

template <int TW>
void launch(cudaStream_t stream, const FitnessParams& p, const float* positions, float* fitness) {
    constexpr int teams = k_block / (32 * TW);
    const auto blocks = static_cast<unsigned>((p.rows + teams - 1) / teams);
    fitness_kernel<TW><<<blocks, k_block, 0, stream>>>(p, positions, fitness);
}

} // namespace

void launch_fitness(cudaStream_t stream, const FitnessParams& p, const float* positions, float* fitness) {
    if (p.rows == 0) {
        return;
    }
    switch (p.team_warps) {
    case 1: launch<1>(stream, p, positions, fitness); break;
    case 2: launch<2>(stream, p, positions, fitness); break;
    case 4: launch<4>(stream, p, positions, fitness); break;
    default: throw std::invalid_argument("fitness team_warps must be 1, 2 or 4, got " + std::to_string(p.team_warps));
    }
    SWARM_CUDA_CHECK_THROW(cudaGetLastError());
}

} // namespace tracker::cuda
