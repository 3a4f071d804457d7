// The fitness kernel: thread per particle of every swarm, model points projected and scored against the
// class-map and gradient textures with the formulas of common/fitness_math.h.
#include "cuda/cuda_check.h"
#include "cuda/kernels.h"

namespace tracker::cuda {
namespace {

struct TextureSampler {
    cudaTextureObject_t classes, gradient;
    int width, height;
    SWARM_HOST_DEVICE bool operator()(float u, float v, math::Sample& s) const {
#if defined(__CUDA_ARCH__)
        if (!(u >= 0.f && v >= 0.f && u <= static_cast<float>(width - 1) && v <= static_cast<float>(height - 1))) {
            return false;
        }
        // Unnormalised texture coordinates put texel centres at +0.5.
        const float4 c = tex2D<float4>(classes, u + 0.5f, v + 0.5f);
        const float2 g = tex2D<float2>(gradient, u + 0.5f, v + 0.5f);
        s.c[0] = c.x;
        s.c[1] = c.y;
        s.c[2] = c.z;
        s.c[3] = c.w;
        s.gx = g.x;
        s.gy = g.y;
        return true;
#else
        (void)u, (void)v, (void)s;
        return false;
#endif
    }
};

__global__ void fitness_kernel(FitnessParams p, const float* positions, float* fitness) {
    const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (r >= p.rows) {
        return;
    }
    const int2 t = p.targets[r / p.particles];
    const math::RigidPose pose = math::rigid_from_particle(p.layout, positions + r * p.dims);
    const TextureSampler sampler{p.classes, p.gradient, p.width, p.height};
    fitness[r] = math::score_pose(pose, p.k, p.points, t.x, p.ranges[t.x], p.weights, t.y ? &p.masks : nullptr, sampler);
}

} // namespace

void launch_fitness(cudaStream_t stream, const FitnessParams& p, const float* positions, float* fitness) {
    if (p.rows == 0) {
        return;
    }
    constexpr int block = 128;
    const auto blocks = static_cast<unsigned>((p.rows + block - 1) / block);
    fitness_kernel<<<blocks, block, 0, stream>>>(p, positions, fitness);
    TRACKER_CUDA_CHECK(cudaGetLastError());
}

} // namespace tracker::cuda
