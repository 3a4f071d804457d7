#pragma once
// One particle's pose fitness computed by a team of warps: the threads share the model's points, project
// and score them against the class-map and gradient textures with the formulas of common/fitness_math.h,
// and sum the per-group values with shuffles, then across the team's warps in shared memory. Used by the
// batched fitness kernel (fitness.cu) and by the fused search (fused_search.cu) with the same team size
// (FitnessParams::team_warps), so both score a pose bit for bit alike.
#include "cuda/kernels.h"
#include "swarm/cuda/team.cuh"
#include "swarm/host_device.h"

namespace tracker::cuda {

// Teams per block at most: the fused search puts at most 8 warps in a block, the batched kernel 4.
constexpr int k_max_teams_per_block = 8;

struct TextureSampler {
    cudaTextureObject_t classes, gradient;
    int width, height;
    bool with_gradient; // FitnessWeights::uses_gradient(): without it, one fetch fewer a point
    SWARM_HOST_DEVICE bool operator()(float u, float v, math::Sample& s) const {
#if defined(__CUDA_ARCH__)
        if (!(u >= 0.f && v >= 0.f && u <= static_cast<float>(width - 1) && v <= static_cast<float>(height - 1))) {
            return false;
        }
        // Unnormalised texture coordinates put texel centres at +0.5.
        const float4 c = tex2D<float4>(classes, u + 0.5f, v + 0.5f);
        s.c[0] = c.x;
        s.c[1] = c.y;
        s.c[2] = c.z;
        s.c[3] = c.w;
        s.gx = s.gy = 0.f;
        if (with_gradient) {
            const float2 g = tex2D<float2>(gradient, u + 0.5f, v + 0.5f);
            s.gx = g.x;
            s.gy = g.y;
        }
        return true;
#else
        (void)u, (void)v, (void)s;
        return false;
#endif
    }
};

// A warp's eight per-group sums by halving exchanges: at each step a lane keeps half of its groups, sends the
// other half to its partner and adds what it receives, so 4 + 2 + 1 + 1 + 1 = 9 shuffles instead of 8 x 5 on
// the fitness's critical chain. Lane l returns the warp's total of group lane_group(l); `s` is consumed.
__device__ __forceinline__ int lane_group(int lane) { return ((lane >> 4) & 1) * 4 + ((lane >> 3) & 1) * 2 + ((lane >> 2) & 1); }
__device__ __forceinline__ int group_lane(int g) { return ((g >> 2) & 1) * 16 + ((g >> 1) & 1) * 8 + (g & 1) * 4; }
__device__ __forceinline__ float warp_group_sums(float (&s)[math::k_max_groups], int lane) {
    static_assert(math::k_max_groups == 8, "the exchange pattern below is for eight groups");
    constexpr unsigned all = 0xffffffffu;
    const bool h16 = (lane & 16) != 0, h8 = (lane & 8) != 0, h4 = (lane & 4) != 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) { // lanes 0-15 keep groups 0-3, lanes 16-31 groups 4-7
        const float send = h16 ? s[j] : s[j + 4];
        s[j] = (h16 ? s[j + 4] : s[j]) + __shfl_xor_sync(all, send, 16);
    }
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float send = h8 ? s[j] : s[j + 2];
        s[j] = (h8 ? s[j + 2] : s[j]) + __shfl_xor_sync(all, send, 8);
    }
    float t = (h4 ? s[1] : s[0]) + __shfl_xor_sync(all, h4 ? s[0] : s[1], 4);
    t += __shfl_xor_sync(all, t, 2);
    t += __shfl_xor_sync(all, t, 1);
    return t;
}

// Fitness in [0, 1] of the pose particle `x` of swarm `swarm`; every thread of the team (TW warps) calls
// it and rank 0 receives the value. A pose costs a few hundred dependent instructions per thread and a
// profile of the fused search shows one warp per SM scheduler waiting on that chain, so a
// generation lasts as long as that chain, and a team of TW warps cuts each thread's share of the points
// by TW. WithBlur false builds it without the blur allowance (math::finish_score), for p.weights.paint_blur 0.
template <int TW, bool WithBlur = true>
__device__ __forceinline__ float team_score(const FitnessParams& p, const float* x, int swarm,
                                            const swarm::gpu::Team& team) {
    const int2 t = p.targets[swarm];
    const math::RigidPose pose = math::rigid_from_particle(p.layout, x);
    const TextureSampler sampler{p.classes, p.gradient, p.width, p.height, p.weights.uses_gradient()};
    const math::ModelRange& range = p.ranges[t.x];
    const math::MaskSet* mask = t.y ? &p.masks : nullptr;
    float sum[math::k_max_groups];
#pragma unroll
    for (int g = 0; g < math::k_max_groups; ++g) {
        sum[g] = 0.f;
    }
    for (int i = team.rank; i < range.count; i += 32 * TW) {
        const math::PackedPoint pt = p.points[range.first + i]; // two 16-byte loads
        float value;
        if (math::score_point(pose, p.k, pt, t.x, p.weights, mask, sampler, value)) {
            // Unrolled compare instead of sum[pt.group]: the array stays in registers.
#pragma unroll
            for (int g = 0; g < math::k_max_groups; ++g) {
                sum[g] += g == pt.group ? value : 0.f;
            }
        }
    }
    const int lane = team.rank & 31;
    const float mine = warp_group_sums(sum, lane);
    if constexpr (TW == 1) {
#pragma unroll
        for (int g = 0; g < math::k_max_groups; ++g) {
            sum[g] = __shfl_sync(0xffffffffu, mine, group_lane(g));
        }
    } else {
        // Each warp leaves its eight sums (one lane per group); rank 0 adds them in warp order (so the batched
        // kernel and the fused search, which both come here, agree to the bit).
        __shared__ float partial[k_max_teams_per_block][TW][math::k_max_groups];
        if ((lane & 3) == 0) {
            partial[team.index][team.rank >> 5][lane_group(lane)] = mine;
        }
        team.sync();
#pragma unroll
        for (int g = 0; g < math::k_max_groups; ++g) {
            float total = 0.f;
#pragma unroll
            for (int w = 0; w < TW; ++w) {
                total += partial[team.index][w][g];
            }
            sum[g] = total;
        }
        team.sync(); // partial is free for the team's next particle
    }
    // The depth read again from the particle when needed: kept in a register through the reduction, it cost every
    // pose time in the fused search.
    return math::finish_score<WithBlur>(sum, range, p.weights,
                                        [&] { return math::pixels_per_metre(math::pose_value(p.layout, x, 2), p.k); });
}

} // namespace tracker::cuda
