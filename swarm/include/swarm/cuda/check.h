#pragma once
// CUDA error checks in pairs (as tiny-cuda-nn does): one throws with file:line, the call's text and the
// CUDA message; the other only logs, for destructors. Out-of-memory throws its own type so callers can
// fall back to the CPU.
#include <cuda_runtime.h>

#include <string>
#include <string_view>

#include "swarm/errors.h"

namespace swarm::gpu {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);
void log_cuda_error(cudaError_t err, const char* call, const char* file, int line);
// After a launch: checks the launch error, naming the kernel and its configuration.
void check_launch(const char* kernel, dim3 grid, dim3 block, std::size_t shared_bytes, const char* file, int line);
// Call inside `catch (const CudaError&)`: rethrows it, same type, with the strategy's name in front, so a
// failed launch reads "gpu-fused: file:line: launch of kernel <<<grid, block, shared>>> failed: ...".
[[noreturn]] void rethrow_with_strategy(std::string_view strategy);

} // namespace swarm::gpu

#define SWARM_CUDA_CHECK_THROW(x)                                                                                      \
    do {                                                                                                               \
        const cudaError_t swarm_err_ = (x);                                                                            \
        if (swarm_err_ != cudaSuccess) {                                                                               \
            ::swarm::gpu::throw_cuda_error(swarm_err_, #x, __FILE__, __LINE__);                                        \
        }                                                                                                              \
    } while (0)

#define SWARM_CUDA_CHECK_LOG(x)                                                                                        \
    do {                                                                                                               \
        const cudaError_t swarm_err_ = (x);                                                                            \
        if (swarm_err_ != cudaSuccess) {                                                                               \
            ::swarm::gpu::log_cuda_error(swarm_err_, #x, __FILE__, __LINE__);                                          \
        }                                                                                                              \
    } while (0)

// Use right after `kernel<<<grid, block, shared, stream>>>(...)`.
#define SWARM_CHECK_LAUNCH(kernel, grid, block, shared)                                                                \
    ::swarm::gpu::check_launch(#kernel, dim3(grid), dim3(block), static_cast<std::size_t>(shared), __FILE__, __LINE__)
