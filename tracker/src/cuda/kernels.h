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

// The local-exposure grid of a frame (common/colour_math.h): gw x gh tile means and their smoothing,
// math::exposure_tiles(width) x math::exposure_tiles(height) floats each.
struct ExposureView {
    float* means;
    float* smoothed;
    int gw, gh;
};

// One cooperative launch: the sums of max(b, g, r), b, g and r over a BGR8 image into sums[4 parity .. 4 parity + 3]
// (which must be zero; the launch zeroes the other parity's four for the next frame) and the exposure grid, then
// the class likelihoods (uchar4) and sign-colour gradient (float2) of every pixel from them.
constexpr int k_preprocess_sums = 4;
// cover_hue: FitnessSettings::cover_hue (paint coverage, common/colour_math.h).
void launch_preprocess(cudaStream_t stream, PitchedView bgr, unsigned long long* sums, int parity,
                       ExposureView exposure, PitchedView classes, PitchedView gradient, float cover_hue);
// Blocks of that launch for a frame (the resident limit, at most one per tile).
int preprocess_grid_blocks(PitchedView bgr);

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
    int team_warps = 1; // warps scoring one particle: 1, 2 or 4 (EngineSettings::gpu_team_warps)
};

// One launch scores every particle of every swarm.
void launch_fitness(cudaStream_t stream, const FitnessParams& p, const float* positions, float* fitness);

} // namespace tracker::cuda
