// The per-frame preprocessing kernel: frame and local brightness (the exposure tiles) and the frame's channel sums
// (white balance), then per-pixel class likelihoods (with the white balance, the local exposure gain, and the paint
// coverage against the local maximum chroma) +
// sign-colour gradient (common/colour_math.h), in ONE cooperative launch. Two kernels and a memset cost about three times their work in launch gaps; one launch with a grid
// barrier between the two phases, and each pixel classified once into a shared tile instead of five times
// (itself and its four neighbours for the gradient), removes most of that (docs/benchmarks.md, "Design evidence").
#include <cooperative_groups.h>

#include <algorithm>

#include "common/colour_math.h"
#include "cuda/kernels.h"
#include "swarm/cuda/check.h"
#include "swarm/cuda/launch.h"

namespace tracker::cuda {
namespace {

constexpr int k_tile_w = 32, k_tile_h = 8, k_block = k_tile_w * k_tile_h;
constexpr int k_halo_w = k_tile_w + 2, k_halo_h = k_tile_h + 2;
// Chroma around the classified cells, for each cell's local maximum (paint coverage, common/colour_math.h).
constexpr int k_cr = math::k_cover_radius;
constexpr int k_chroma_w = k_halo_w + 2 * k_cr, k_chroma_h = k_halo_h + 2 * k_cr;

__device__ const unsigned char* pixel_at(const PitchedView& bgr, int x, int y) {
    x = min(max(x, 0), bgr.width - 1);
    y = min(max(y, 0), bgr.height - 1);
    return static_cast<const unsigned char*>(bgr.data) + y * bgr.pitch + 3 * x;
}

// The frame's sums a launch adds up: max(b, g, r) (the exposure's brightness), then b, g and r (the white balance).
constexpr int k_sums = k_preprocess_sums;

// Phase 1: the mean of max(b, g, r) over each exposure tile into means[] (common/colour_math.h, "Local
// exposure"), and the frame's sums of it and of each channel into sums[0..3]. A block sums a tile at a time: one
// atomic a sum a tile.
__device__ void exposure_means(const PitchedView& bgr, const ExposureView& e, unsigned long long* sums,
                               unsigned long long (*partial)[k_block / 32]) {
    for (int t = blockIdx.x; t < e.gw * e.gh; t += gridDim.x) {
        const int i = t % e.gw, j = t / e.gw;
        const int x0 = math::exposure_tile_begin(i), x1 = math::exposure_tile_end(i, e.gw, bgr.width);
        const int y0 = math::exposure_tile_begin(j), y1 = math::exposure_tile_end(j, e.gh, bgr.height);
        const int tw = x1 - x0, n = tw * (y1 - y0);
        unsigned long long local[k_sums] = {0, 0, 0, 0};
        for (int k = threadIdx.x; k < n; k += k_block) {
            const int y = y0 + k / tw, x = x0 + k % tw;
            const unsigned char* p = static_cast<const unsigned char*>(bgr.data) + y * bgr.pitch + 3 * x;
            local[0] += max(p[0], max(p[1], p[2]));
            local[1] += p[0];
            local[2] += p[1];
            local[3] += p[2];
        }
#pragma unroll
        for (int c = 0; c < k_sums; ++c) {
            for (int o = 16; o > 0; o >>= 1) {
                local[c] += __shfl_down_sync(0xffffffffu, local[c], o);
            }
            if ((threadIdx.x & 31) == 0) {
                partial[c][threadIdx.x / 32] = local[c];
            }
        }
        __syncthreads();
        if (threadIdx.x < k_sums) {
            unsigned long long block = 0;
            for (int w = 0; w < k_block / 32; ++w) {
                block += partial[threadIdx.x][w];
            }
            if (threadIdx.x == 0) {
                // float / float of the exact integer sum, as the CPU's exposure_grid divides
                e.means[t] = static_cast<float>(block) / static_cast<float>(n);
            }
            atomicAdd(sums + threadIdx.x, block);
        }
        __syncthreads(); // partial is reused by the next tile
    }
}

// `sums` holds two sets of k_sums used by alternate frames: this frame adds into set `parity` (zeroed by the
// previous frame's launch, or at allocation) and zeroes set parity ^ 1 for the next one, so no memset is queued.
__global__ void __launch_bounds__(k_block) preprocess_kernel(PitchedView bgr, unsigned long long* sums, int parity,
                                                             ExposureView exposure, PitchedView classes,
                                                             PitchedView gradient, float cover_hue) {
    namespace cg = cooperative_groups;
    __shared__ unsigned long long partial[k_sums][k_block / 32];
    __shared__ math::ClassLikelihood tile[k_halo_h][k_halo_w];
    __shared__ float chroma[k_chroma_h][k_chroma_w];
    __shared__ float hue[k_chroma_h][k_chroma_w];      // FitnessSettings::cover_hue under 180 only
    __shared__ float row_max[k_chroma_h][k_halo_w]; // chroma's maximum along x, centred on each cell's column
    unsigned long long* frame_sums = sums + k_sums * parity;
    exposure_means(bgr, exposure, frame_sums, partial);
    cg::this_grid().sync();
    if (blockIdx.x == 0 && threadIdx.x < k_sums) {
        sums[k_sums * (parity ^ 1) + threadIdx.x] = 0;
    }
    const int grid_tiles = exposure.gw * exposure.gh;
    for (int t = blockIdx.x * k_block + threadIdx.x; t < grid_tiles; t += gridDim.x * k_block) {
        exposure.smoothed[t] = math::exposure_smoothed(exposure.means, exposure.gw, exposure.gh, t % exposure.gw,
                                                       t / exposure.gw);
    }
    cg::this_grid().sync();
    // Same rounding as the CPU path: double mean of the integer sum, then float.
    const double pixels = static_cast<double>(bgr.width) * static_cast<double>(bgr.height);
    const float mean = static_cast<float>(static_cast<double>(frame_sums[0]) / pixels);
    const math::ChannelGains balance =
        math::grey_world_gains(static_cast<double>(frame_sums[1]), static_cast<double>(frame_sums[2]),
                               static_cast<double>(frame_sums[3]), pixels);
    auto q = [](float v) { return static_cast<unsigned char>(min(max(__float2int_rn(v * 255.f), 0), 255)); };
    const int tiles_x = (bgr.width + k_tile_w - 1) / k_tile_w;
    const int tiles = tiles_x * ((bgr.height + k_tile_h - 1) / k_tile_h);
    const int tx = static_cast<int>(threadIdx.x) % k_tile_w, ty = static_cast<int>(threadIdx.x) / k_tile_w;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int x0 = (t % tiles_x) * k_tile_w, y0 = (t / tiles_x) * k_tile_h;
        __syncthreads(); // the previous tile's reads are done
        // Chroma and hue of the cells' neighbourhoods, at clamped coordinates: a replicated border pixel is always
        // in the window it replicates into, so each window's maximum is the maximum over its pixels inside the
        // frame (the CPU's dilate, or its loop over the window clipped to the frame).
        const int cx0 = x0 - 1 - k_cr, cy0 = y0 - 1 - k_cr;
        for (int k = threadIdx.x; k < k_chroma_w * k_chroma_h; k += k_block) {
            const int ly = k / k_chroma_w, lx = k - ly * k_chroma_w;
            const unsigned char* p = pixel_at(bgr, cx0 + lx, cy0 + ly);
            chroma[ly][lx] = math::chroma_of(p[0], p[1], p[2]);
            if (cover_hue < math::k_cover_every_hue) hue[ly][lx] = math::hue_of(p[0], p[1], p[2]);
        }
        __syncthreads();
        // Every hue (the default): the window maximum in two passes (along x, then along y), 2 x 5 reads a cell
        // instead of 25.
        if (cover_hue >= math::k_cover_every_hue) {
            for (int k = threadIdx.x; k < k_chroma_h * k_halo_w; k += k_block) {
                const int y = k / k_halo_w, j = k - y * k_halo_w;
                float m = chroma[y][j];
#pragma unroll
                for (int d = 1; d <= 2 * k_cr; ++d) {
                    m = fmaxf(m, chroma[y][j + d]);
                }
                row_max[y][j] = m;
            }
            __syncthreads();
        }
        // The tile and a one-pixel ring, clamped at the frame border as the CPU's central differences are; each
        // cell is the clamped pixel, with the local maximum around that pixel.
        for (int k = threadIdx.x; k < k_halo_w * k_halo_h; k += k_block) {
            const int ly = k / k_halo_w, lx = k - ly * k_halo_w;
            const int px = min(max(x0 + lx - 1, 0), bgr.width - 1), py = min(max(y0 + ly - 1, 0), bgr.height - 1);
            const int sx = px - cx0, sy = py - cy0;
            float local_max = 0.f;
            if (cover_hue >= math::k_cover_every_hue) {
#pragma unroll
                for (int dy = -k_cr; dy <= k_cr; ++dy) {
                    local_max = fmaxf(local_max, row_max[sy + dy][sx - k_cr]);
                }
            } else {
                const float own_hue = hue[sy][sx];
#pragma unroll
                for (int dy = -k_cr; dy <= k_cr; ++dy) {
#pragma unroll
                    for (int dx = -k_cr; dx <= k_cr; ++dx) {
                        const float c = chroma[sy + dy][sx + dx];
                        if (c > local_max && math::same_paint(own_hue, hue[sy + dy][sx + dx], cover_hue)) local_max = c;
                    }
                }
            }
            const unsigned char* p = pixel_at(bgr, px, py);
            const float gain = math::exposure_gain(exposure.smoothed, exposure.gw, exposure.gh, px, py, mean);
            math::ClassLikelihood c =
                math::classify(gain * balance.b * p[0], gain * balance.g * p[1], gain * balance.r * p[2], mean);
            math::apply_cover(c, chroma[sy][sx], local_max);
            tile[ly][lx] = c;
        }
        __syncthreads();
        const int x = x0 + tx, y = y0 + ty;
        if (x >= bgr.width || y >= bgr.height) {
            continue;
        }
        const math::ClassLikelihood c = tile[ty + 1][tx + 1];
        reinterpret_cast<uchar4*>(static_cast<char*>(classes.data) + y * classes.pitch)[x] =
            make_uchar4(q(c.red), q(c.blue), q(c.white), q(c.yellow));
        // Central differences of the sign-colour map; past the frame border the ring holds the border pixel.
        const float l = math::sign_colour(tile[ty + 1][tx]);
        const float r = math::sign_colour(tile[ty + 1][tx + 2]);
        const float u = math::sign_colour(tile[ty][tx + 1]);
        const float d = math::sign_colour(tile[ty + 2][tx + 1]);
        reinterpret_cast<float2*>(static_cast<char*>(gradient.data) + y * gradient.pitch)[x] =
            make_float2(0.5f * (r - l), 0.5f * (d - u));
    }
}

} // namespace

int preprocess_grid_blocks(PitchedView bgr) {
    static const int resident = [] { // asked once per process: every frame launches this kernel
        int per_sm = 0;
        SWARM_CUDA_CHECK_THROW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, preprocess_kernel, k_block, 0));
        // Four blocks an SM are enough to keep the loads in flight; a smaller grid waits less at the barrier.
        return std::max(1, swarm::gpu::sm_count() * std::min(per_sm, 4));
    }();
    const int tiles = ((bgr.width + k_tile_w - 1) / k_tile_w) * ((bgr.height + k_tile_h - 1) / k_tile_h);
    return std::min(resident, tiles);
}

void launch_preprocess(cudaStream_t stream, PitchedView bgr, unsigned long long* sums, int parity,
                       ExposureView exposure, PitchedView classes, PitchedView gradient, float cover_hue) {
    void* args[] = {&bgr, &sums, &parity, &exposure, &classes, &gradient, &cover_hue};
    const dim3 grid(preprocess_grid_blocks(bgr));
    SWARM_CUDA_CHECK_THROW(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(preprocess_kernel), grid,
                                                       dim3(k_block), args, 0, stream));
}

} // namespace tracker::cuda
