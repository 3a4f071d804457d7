#pragma once
// Math shared by the CPU reference and the CUDA kernels is written once behind this macro, so the CPU
// tests exercise the very formulas the GPU runs.
#if defined(__CUDACC__)
#define SWARM_HOST_DEVICE __host__ __device__
#define SWARM_INLINE __forceinline__
#else
#define SWARM_HOST_DEVICE
#define SWARM_INLINE inline
#endif

// Partial unrolling for the device's per-dimension loops: independent terms (cosf, exp) of consecutive
// dimensions overlap their latency, while the summation order, and so every result, stays the same.
#if defined(__CUDA_ARCH__)
#define SWARM_UNROLL_DIMS _Pragma("unroll 4")
#else
#define SWARM_UNROLL_DIMS
#endif
