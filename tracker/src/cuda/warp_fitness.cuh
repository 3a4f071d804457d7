#pragma once
// One particle's pose fitness computed by a whole warp: the lanes share the model's points, project and
// score them against the class-map and gradient textures with the formulas of common/fitness_math.h, and
// sum the per-group values with shuffles. Used by the batched fitness kernel (fitness.cu) and by the
// fused search (fused_search.cu), so both score a pose identically.
#include "cuda/kernels.h"

namespace tracker::cuda {

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

// Fitness in [0, 1] of the pose particle `x` of swarm `swarm`; every lane of the warp calls it and every
// lane receives the value.
__device__ __forceinline__ float warp_score(const FitnessParams& p, const float* x, int swarm, int lane) {
    const int2 t = p.targets[swarm];
    const math::RigidPose pose = math::rigid_from_particle(p.layout, x);
    const TextureSampler sampler{p.classes, p.gradient, p.width, p.height};
    const math::ModelRange& range = p.ranges[t.x];
    const math::MaskSet* mask = t.y ? &p.masks : nullptr;
    float sum[math::k_max_groups];
#pragma unroll
    for (int g = 0; g < math::k_max_groups; ++g) {
        sum[g] = 0.f;
    }
    for (int i = lane; i < range.count; i += 32) {
        const math::PackedPoint& pt = p.points[range.first + i];
        float value;
        if (math::score_point(pose, p.k, pt, t.x, p.weights, mask, sampler, value)) {
            // Unrolled compare instead of sum[pt.group]: the array stays in registers.
#pragma unroll
            for (int g = 0; g < math::k_max_groups; ++g) {
                sum[g] += g == pt.group ? value : 0.f;
            }
        }
    }
#pragma unroll
    for (int g = 0; g < math::k_max_groups; ++g) {
        for (int offset = 16; offset > 0; offset >>= 1) {
            sum[g] += __shfl_xor_sync(0xffffffffu, sum[g], offset);
        }
    }
    return math::finish_score(sum, range, p.weights);
}

} // namespace tracker::cuda
