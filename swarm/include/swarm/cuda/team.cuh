#pragma once
// The team of threads that scores one particle in gpu-fused's warp-cooperative kernels: what a warp functor
// (swarm/cuda/custom.cuh) receives, and what a caller's own kernel passes to the same device fitness code so
// both score a particle alike. nvcc only.
namespace swarm::gpu {

// The threads that score one particle: `size` = 32 * warps consecutive threads of a block.
struct Team {
    int index; // team within the block; a team of several warps syncs on named barrier index + 1
    int rank;  // thread within the team
    int size;
    __device__ __forceinline__ void sync() const {
        if (size == 32) {
            __syncwarp();
        } else {
            // bar.sync orders the participating threads' shared and global memory accesses like
            // __syncthreads, for this team's warps only.
            asm volatile("bar.sync %0, %1;" ::"r"(index + 1), "r"(size) : "memory");
        }
    }
};

} // namespace swarm::gpu
