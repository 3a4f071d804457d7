#include "swarm/cuda/check.h"

#include <spdlog/spdlog.h>

#include <sstream>

namespace swarm::gpu {

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
    std::ostringstream os;
    os << file << ":" << line << ": " << call << " failed: " << cudaGetErrorString(err);
    cudaGetLastError(); // clear non-sticky errors so the process can fall back
    if (err == cudaErrorMemoryAllocation) {
        throw OutOfMemoryError(os.str() + " (the GPU is out of memory; use fewer particles/swarms or --backend cpu)");
    }
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) {
        throw UnavailableError(os.str() + " (no usable CUDA device; use --backend cpu)");
    }
    throw CudaError(os.str());
}

void log_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
    spdlog::error("{}:{}: {} failed: {}", file, line, call, cudaGetErrorString(err));
}

void check_launch(const char* kernel, dim3 grid, dim3 block, std::size_t shared_bytes, const char* file, int line) {
    const cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) {
        return;
    }
    std::ostringstream os;
    os << file << ":" << line << ": launch of " << kernel << " <<<(" << grid.x << "," << grid.y << "," << grid.z
       << "), (" << block.x << "," << block.y << "," << block.z << "), " << shared_bytes
       << " B>>> failed: " << cudaGetErrorString(err);
    if (err == cudaErrorMemoryAllocation) {
        throw OutOfMemoryError(os.str());
    }
    throw CudaError(os.str());
}

void rethrow_with_strategy(std::string_view strategy) {
    const std::string prefix = std::string(strategy) + ": ";
    try {
        throw;
    } catch (const OutOfMemoryError& e) {
        throw OutOfMemoryError(prefix + e.what());
    } catch (const CudaError& e) {
        throw CudaError(prefix + e.what());
    }
}

} // namespace swarm::gpu
