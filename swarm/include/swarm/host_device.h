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
