// Micro-benchmark: the cost of gpu-elementwise's per-iteration exchange (block reduce, swarm-best key,
// grid barrier, key load, best-row copy) under several barrier designs. 2 blocks of 256 threads per SM.
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cstdio>
#include <cuda/functional>
#include <cuda/atomic>
#include <cstdint>
#include <vector>
#include <cstdlib>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;
constexpr int kBlock = 256;
constexpr int kPitch = 200;

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ __forceinline__ unsigned atom_add_release(unsigned* p, unsigned v) {
    unsigned old;
    asm volatile("atom.add.release.gpu.u32 %0,[%1],%2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.u32 %0,[%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned* p) {
    unsigned v;
    asm volatile("ld.relaxed.gpu.u32 %0,[%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }

__device__ __forceinline__ unsigned hashu(unsigned a) {
    a ^= a >> 16; a *= 0x7feb352dU; a ^= a >> 15; a *= 0x846ca68bU; a ^= a >> 16; return a;
}

struct Args {
    unsigned long long* keys;  // 3 x 16 slots (spread 128 B apart: 16 u64 per slot group)
    unsigned* bar;             // barrier word
    unsigned* readers;         // 3 counters
    const float* p;            // rows x pitch
    int rows;
    int iters;
    int mode;     // 0: cg barrier; 1: own flat barrier (release atomic); 2: own barrier, relaxed atomic + fence
    int spread;   // keys spread over this many addresses (1 or 8)
    int cluster;  // 1: none; C: DSMEM key merge + one arrival per cluster
    int bare;     // 1: barrier only
    int copy;     // copy the best row
    int warpkeys; // 1: per-warp atomicMin (no block reduce); 2: also each warp reads the keys itself
    float* out;
};

template <int C>
__global__ void __launch_bounds__(kBlock, 2) bench(Args a) {
    using Reduce = cub::BlockReduce<unsigned long long, kBlock>;
    __shared__ typename Reduce::TempStorage temp;
    __shared__ unsigned long long merged[8];
    __shared__ unsigned long long best_key;
    __shared__ float gb[kPitch];
    __shared__ bool changed;
    cg::grid_group grid = cg::this_grid();
    const unsigned nblocks = gridDim.x;
    const unsigned arrivals = nblocks / C;
    unsigned rank = 0;
    if constexpr (C > 1) rank = cg::this_cluster().block_rank();
    const bool arriver = rank == 0;
    const bool master = blockIdx.x == 0;
    unsigned long long last = ~0ull;
    float acc = 0.f;
    for (int t = 0; t < a.iters; ++t) {
        if (!a.bare) {
            const unsigned f = hashu(t * 7919u + blockIdx.x * 977u + threadIdx.x) >> 8;
            const unsigned long long mine = (static_cast<unsigned long long>(f) << 32) |
                                            static_cast<unsigned>((blockIdx.x * kBlock + threadIdx.x) % a.rows);
            unsigned long long* keys = a.keys + (t % 3) * 16 * 8;
            if (a.warpkeys) {
                unsigned long long m = mine;
                for (int o = 16; o > 0; o >>= 1) {
                    const unsigned long long other = __shfl_xor_sync(0xffffffffu, m, o);
                    m = other < m ? other : m;
                }
                if ((threadIdx.x & 31) == 0) atomicMin(keys + ((threadIdx.x >> 5) % a.spread) * 16, m);
                if (master && threadIdx.x == 0) {
                    unsigned long long* nk = a.keys + ((t + 1) % 3) * 16 * 8;
                    for (int k = 0; k < a.spread; ++k) nk[k * 16] = ~0ull;
                    a.readers[(t + 1) % 3] = 0u;
                }
            } else {
            const unsigned long long block = Reduce(temp).Reduce(mine, cuda::minimum<>());
            if constexpr (C > 1) {
                if (threadIdx.x == 0) {
                    unsigned long long* dst = cg::this_cluster().map_shared_rank(merged, 0);
                    dst[rank] = block;
                }
            } else if (threadIdx.x == 0) {
                atomicMin(keys + (blockIdx.x % a.spread) * 16, block);
                if (master) {
                    unsigned long long* nk = a.keys + ((t + 1) % 3) * 16 * 8;
                    for (int k = 0; k < a.spread; ++k) nk[k * 16] = ~0ull;
                }
                if (master) a.readers[(t + 1) % 3] = 0u;
            }
            }
        }
        // The barrier.
        if (a.mode == 0) {
            if constexpr (C == 1) grid.sync();
        } else {
            if constexpr (C > 1) {
                cluster_arrive();
                cluster_wait();
                if (!a.bare && arriver && threadIdx.x == 0) {
                    unsigned long long m = merged[0];
                    for (int r = 1; r < C; ++r) m = merged[r] < m ? merged[r] : m;
                    unsigned long long* keys = a.keys + (t % 3) * 16 * 8;
                    const unsigned cl = blockIdx.x / C;
                    atomicMin(keys + (cl % a.spread) * 16, m);
                    if (master) {
                        unsigned long long* nk = a.keys + ((t + 1) % 3) * 16 * 8;
                        for (int k = 0; k < a.spread; ++k) nk[k * 16] = ~0ull;
                        a.readers[(t + 1) % 3] = 0u;
                    }
                }
            } else {
                __syncthreads();
            }
            if (threadIdx.x == 0) {
                const unsigned add = master ? 0x80000000u - (arrivals - 1) : 1u;
                if (arriver) {
                    if (a.mode == 1) {
                        atom_add_release(a.bar, add);
                    } else {
                        __threadfence();
                        atomicAdd(a.bar, add);
                    }
                }
                const unsigned want = (t + 1) & 1 ? 0x80000000u : 0u; // the top bit flips at every barrier
                while ((ld_acquire(a.bar) & 0x80000000u) != want) {
                }
            }
            __syncthreads();
        }
        if (!a.bare && a.warpkeys == 2) {
            const unsigned long long* keys = a.keys + (t % 3) * 16 * 8;
            const int lane = threadIdx.x & 31;
            unsigned long long k = lane < a.spread ? __ldcg(keys + lane * 16) : ~0ull;
            for (int o = 4; o > 0; o >>= 1) {
                const unsigned long long other = __shfl_xor_sync(0xffffffffu, k, o);
                k = other < k ? other : k;
            }
            if (k != last && a.copy) {
                const float* src = a.p + static_cast<std::size_t>(static_cast<unsigned>(k)) * kPitch;
                for (int d = threadIdx.x; d < kPitch; d += kBlock) gb[d] = __ldcg(src + d);
            }
            last = k;
            __syncthreads();
            acc += gb[threadIdx.x % kPitch];
            if (threadIdx.x == 0) {
                cuda::atomic_ref<unsigned, cuda::thread_scope_device> n(a.readers[t % 3]);
                n.fetch_add(1u, cuda::memory_order_relaxed);
            }
        } else if (!a.bare) {
            if (threadIdx.x < 32) {
                const unsigned long long* keys = a.keys + (t % 3) * 16 * 8;
                unsigned long long k = threadIdx.x < a.spread ? __ldcg(keys + threadIdx.x * 16) : ~0ull;
                for (int o = 4; o > 0; o >>= 1) {
                    const unsigned long long other = __shfl_down_sync(0xffffffffu, k, o);
                    if (other < k) k = other;
                }
                if (threadIdx.x == 0) {
                    changed = k != last;
                    best_key = k;
                }
            }
            __syncthreads();
            const unsigned long long k = best_key;
            if (changed && a.copy) {
                const float* src = a.p + static_cast<std::size_t>(static_cast<unsigned>(k)) * kPitch;
                for (int d = threadIdx.x; d < kPitch; d += kBlock) gb[d] = __ldcg(src + d);
            }
            last = k;
            __syncthreads();
            acc += gb[threadIdx.x % kPitch];
            if (threadIdx.x == 0) {
                cuda::atomic_ref<unsigned, cuda::thread_scope_device> n(a.readers[t % 3]);
                n.fetch_add(1u, cuda::memory_order_relaxed);
            }
        }
    }
    if (acc == 12345.f) a.out[blockIdx.x] = acc;
}

template <int C>
float run(Args a, int blocks, bool coop) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(kBlock);
    cudaLaunchAttribute attrs[2];
    int n = 0;
    if (coop) {
        attrs[n].id = cudaLaunchAttributeCooperative;
        attrs[n].val.cooperative = 1;
        ++n;
    }
    if (C > 1) {
        attrs[n].id = cudaLaunchAttributeClusterDimension;
        attrs[n].val.clusterDim.x = C;
        attrs[n].val.clusterDim.y = 1;
        attrs[n].val.clusterDim.z = 1;
        ++n;
    }
    cfg.attrs = attrs;
    cfg.numAttrs = n;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaMemset(a.bar, 0, 4);
    cudaMemset(a.readers, 0, 12);
    cudaMemset(a.keys, 0xff, 3 * 16 * 8 * 8);
    cudaLaunchKernelEx(&cfg, bench<C>, a);  // warm-up
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("launch C=%d coop=%d: %s\n", C, coop, cudaGetErrorString(e));
        return -1.f;
    }
    float best = 1e30f;
    for (int r = 0; r < 5; ++r) {
        cudaMemset(a.bar, 0, 4);
        cudaEventRecord(e0);
        cudaLaunchKernelEx(&cfg, bench<C>, a);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        best = ms < best ? ms : best;
    }
    return best * 1000.f / a.iters;  // us per iteration
}

int main(int argc, char** argv) {
    setvbuf(stdout, nullptr, _IONBF, 0);
    const int only = argc > 1 ? atoi(argv[1]) : -1;
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int blocks = 2 * sms;
    const int rows = 5000;
    float* p;
    CK(cudaMalloc(&p, sizeof(float) * rows * kPitch));
    CK(cudaMemset(p, 0, sizeof(float) * rows * kPitch));
    Args a{};
    CK(cudaMalloc(&a.keys, 3 * 16 * 8 * 8));
    CK(cudaMalloc(&a.bar, 4));
    CK(cudaMalloc(&a.readers, 12));
    CK(cudaMalloc(&a.out, 4 * blocks));
    a.p = p;
    a.rows = rows;
    a.iters = 20000;
    for (int C : {2, 4, 8}) {
        int nc = 0;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(blocks);
        cfg.blockDim = dim3(kBlock);
        cudaLaunchAttribute at;
        at.id = cudaLaunchAttributeClusterDimension;
        at.val.clusterDim.x = C;
        at.val.clusterDim.y = 1;
        at.val.clusterDim.z = 1;
        cfg.attrs = &at;
        cfg.numAttrs = 1;
        cudaError_t e = C == 2 ? cudaOccupancyMaxActiveClusters(&nc, bench<2>, &cfg)
                      : C == 4 ? cudaOccupancyMaxActiveClusters(&nc, bench<4>, &cfg)
                               : cudaOccupancyMaxActiveClusters(&nc, bench<8>, &cfg);
        printf("cluster %d: max active clusters %d (%d blocks; need %d) %s\n", C, nc, nc * C, blocks,
               cudaGetErrorString(e));
    }
    printf("SMs %d, blocks %d, %d iterations; us per iteration (best of 5)\n", sms, blocks, a.iters);
    struct V { const char* name; int mode, spread, cluster, bare, copy, warpkeys; };
    const V vs[] = {
        {"cg grid.sync, barrier only", 0, 1, 1, 1, 0},
        {"own barrier (release atomic), barrier only", 1, 1, 1, 1, 0},
        {"own barrier (fence + atomic), barrier only", 2, 1, 1, 1, 0},
        {"cluster 2 + own barrier, barrier only", 1, 1, 2, 1, 0},
        {"cluster 4 + own barrier, barrier only", 1, 1, 4, 1, 0},
        {"cluster 8 + own barrier, barrier only", 1, 1, 8, 1, 0},
        {"cg: as shipped (reduce, key, barrier, key load, row copy)", 0, 1, 1, 0, 1},
        {"cg: as shipped, no row copy", 0, 1, 1, 0, 0},
        {"own barrier (release atomic): as shipped", 1, 1, 1, 0, 1},
        {"own barrier (fence + atomic): as shipped", 2, 1, 1, 0, 1},
        {"cg, keys spread over 8", 0, 8, 1, 0, 1},
        {"own (release), keys spread over 8", 1, 8, 1, 0, 1},
        {"cluster 2 (DSMEM key merge), one key", 1, 1, 2, 0, 1},
        {"cluster 2, keys spread over 8", 1, 8, 2, 0, 1},
        {"cluster 4, one key", 1, 1, 4, 0, 1},
        {"cluster 4, keys spread over 8", 1, 8, 4, 0, 1},
        {"cluster 8, one key", 1, 1, 8, 0, 1},
        {"cluster 8, keys spread over 8", 1, 8, 8, 0, 1},
        {"cg, per-warp atomicMin on 1 key (no block reduce)", 0, 1, 1, 0, 1, 1},
        {"cg, per-warp atomicMin on 8 keys (no block reduce)", 0, 8, 1, 0, 1, 1},
        {"cg, per-warp atomicMin on 8 keys, each warp reads keys", 0, 8, 1, 0, 1, 2},
        {"cg, per-warp atomicMin on 1 key, each warp reads key", 0, 1, 1, 0, 1, 2},
        {"cg, per-warp on 8 keys, each warp reads, no row copy", 0, 8, 1, 0, 0, 2},
    };
    int fits[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    for (int C : {2, 4, 8}) {
        int nc = 0;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(blocks);
        cfg.blockDim = dim3(kBlock);
        cudaLaunchAttribute at;
        at.id = cudaLaunchAttributeClusterDimension;
        at.val.clusterDim.x = C; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
        cfg.attrs = &at;
        cfg.numAttrs = 1;
        if (C == 2) cudaOccupancyMaxActiveClusters(&nc, bench<2>, &cfg);
        if (C == 4) cudaOccupancyMaxActiveClusters(&nc, bench<4>, &cfg);
        if (C == 8) cudaOccupancyMaxActiveClusters(&nc, bench<8>, &cfg);
        fits[C] = nc * C >= blocks;
    }
    for (int rep = 0; rep < 2; ++rep) {
        int vi = -1;
        for (const V& v : vs) {
            if (only >= 0 && ++vi != only) continue;
            Args b = a;
            b.mode = v.mode;
            b.spread = v.spread;
            b.cluster = v.cluster;
            b.bare = v.bare;
            b.copy = v.copy;
            b.warpkeys = v.warpkeys;
            float us = -1;
            if (!fits[v.cluster]) { printf("%-62s skipped: not all blocks resident\n", v.name); continue; }
            for (bool coop : {true, false}) {
                if (v.mode == 0 && !coop) continue;
                if (v.mode != 0 && coop && v.cluster > 1) {
                    // try cooperative + cluster; fall back to a plain launch (all blocks resident by occupancy)
                }
                us = v.cluster == 1 ? run<1>(b, blocks, coop)
                   : v.cluster == 2 ? run<2>(b, blocks, coop)
                   : v.cluster == 4 ? run<4>(b, blocks, coop)
                                    : run<8>(b, blocks, coop);
                printf("%-62s coop=%d  %.3f us\n", v.name, coop ? 1 : 0, us);
                cudaGetLastError();
            }
        }
    }
    return 0;
}
