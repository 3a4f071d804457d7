#pragma once
// Launchers of the tracker's CUDA kernels (stream first, plain views and params structs).
#include <cuda_runtime.h>

#include "common/fitness_math.h"

namespace tracker::cuda {

struct PitchedView {
    void* data;
    std::size_t pitch; // bytes
    int width, height;
};

// Sum of max(b, g, r) over a BGR8 image into *sum (zeroed by the launcher).
void launch_brightness_sum(cudaStream_t stream, PitchedView bgr, unsigned long long* sum);
// Class likelihoods (uchar4) and sign-colour gradient (float2) of every pixel; reads the mean from `sum`.
void launch_preprocess(cudaStream_t stream, PitchedView bgr, const unsigned long long* sum, PitchedView classes,
                       PitchedView gradient);

struct FitnessParams {
    math::PoseLayout layout;
    math::Intrinsics k;
    math::FitnessWeights weights;
    math::MaskSet masks;
    const math::PackedPoint* points;
    const math::ModelRange* ranges;
    const int2* targets; // per swarm: model index, use_mask
    cudaTextureObject_t classes, gradient;
    int width, height;
    int particles, dims;
    long long rows;
    int team_warps = 1; // warps scoring one particle: 1, 2 or 4 (TrackerSettings::gpu_team_warps)
};

// One launch scores every particle of every swarm.
void launch_fitness(cudaStream_t stream, const FitnessParams& p, const float* positions, float* fitness);

} // namespace tracker::cuda
