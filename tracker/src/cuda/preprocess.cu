// Preprocessing kernels: frame brightness and per-pixel class likelihoods + gradient (common/colour_math.h).
#include "common/colour_math.h"
#include "cuda/cuda_check.h"
#include "cuda/kernels.h"

namespace tracker::cuda {
namespace {

constexpr int k_block = 256;

__global__ void brightness_sum_kernel(PitchedView bgr, unsigned long long* sum) {
    __shared__ unsigned long long partial[k_block / 32];
    unsigned long long local = 0;
    const long long n = static_cast<long long>(bgr.width) * bgr.height;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int y = static_cast<int>(i / bgr.width), x = static_cast<int>(i % bgr.width);
        const unsigned char* p = static_cast<const unsigned char*>(bgr.data) + y * bgr.pitch + 3 * x;
        local += max(p[0], max(p[1], p[2]));
    }
    for (int o = 16; o > 0; o >>= 1) {
        local += __shfl_down_sync(0xffffffffu, local, o);
    }
    if ((threadIdx.x & 31) == 0) {
        partial[threadIdx.x / 32] = local;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long block = 0;
        for (int w = 0; w < k_block / 32; ++w) {
            block += partial[w];
        }
        atomicAdd(sum, block);
    }
}

__device__ math::ClassLikelihood classify_at(const PitchedView& bgr, int x, int y, float mean) {
    x = min(max(x, 0), bgr.width - 1);
    y = min(max(y, 0), bgr.height - 1);
    const unsigned char* p = static_cast<const unsigned char*>(bgr.data) + y * bgr.pitch + 3 * x;
    return math::classify(p[0], p[1], p[2], mean);
}

__global__ void preprocess_kernel(PitchedView bgr, const unsigned long long* sum, PitchedView classes,
                                  PitchedView gradient) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= bgr.width || y >= bgr.height) {
        return;
    }
    // Same rounding as the CPU path: double mean of the integer sum, then float.
    const float mean = static_cast<float>(static_cast<double>(*sum) /
                                          (static_cast<double>(bgr.width) * static_cast<double>(bgr.height)));
    const math::ClassLikelihood c = classify_at(bgr, x, y, mean);
    auto q = [](float v) { return static_cast<unsigned char>(min(max(__float2int_rn(v * 255.f), 0), 255)); };
    reinterpret_cast<uchar4*>(static_cast<char*>(classes.data) + y * classes.pitch)[x] =
        make_uchar4(q(c.red), q(c.blue), q(c.white), q(c.yellow));
    // Central differences of the sign-colour map, clamped at the border (neighbours recomputed, not stored).
    const float l = math::sign_colour(classify_at(bgr, max(x - 1, 0), y, mean));
    const float r = math::sign_colour(classify_at(bgr, min(x + 1, bgr.width - 1), y, mean));
    const float u = math::sign_colour(classify_at(bgr, x, max(y - 1, 0), mean));
    const float d = math::sign_colour(classify_at(bgr, x, min(y + 1, bgr.height - 1), mean));
    reinterpret_cast<float2*>(static_cast<char*>(gradient.data) + y * gradient.pitch)[x] =
        make_float2(0.5f * (r - l), 0.5f * (d - u));
}

} // namespace

void launch_brightness_sum(cudaStream_t stream, PitchedView bgr, unsigned long long* sum) {
    TRACKER_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
    const long long n = static_cast<long long>(bgr.width) * bgr.height;
    const int blocks = static_cast<int>(std::min<long long>((n + k_block - 1) / k_block, 1024));
    brightness_sum_kernel<<<blocks, k_block, 0, stream>>>(bgr, sum);
    TRACKER_CUDA_CHECK(cudaGetLastError());
}

void launch_preprocess(cudaStream_t stream, PitchedView bgr, const unsigned long long* sum, PitchedView classes,
                       PitchedView gradient) {
    const dim3 block(32, 8);
    const dim3 grid((bgr.width + block.x - 1) / block.x, (bgr.height + block.y - 1) / block.y);
    preprocess_kernel<<<grid, block, 0, stream>>>(bgr, sum, classes, gradient);
    TRACKER_CUDA_CHECK(cudaGetLastError());
}

} // namespace tracker::cuda
