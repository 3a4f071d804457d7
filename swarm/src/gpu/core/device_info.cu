// Device discovery for the factory; never throws (no driver, no device both mean "0 devices").
#include <cuda_runtime.h>

#include "registry.h"
#include "swarm/cuda/launch.h"
#include "swarm/errors.h"

namespace swarm::detail {

bool cuda_compiled() { return true; }

int cuda_device_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky "no device" error so later calls start clean
        return 0;
    }
    return n;
}

std::string cuda_device_name_or_empty() {
    if (cuda_device_count() == 0) {
        return {};
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        cudaGetLastError();
        return {};
    }
    return prop.name;
}

int cuda_sm_count() {
    if (cuda_device_count() == 0) {
        return 0;
    }
    try {
        return gpu::sm_count(); // the cached query the kernels size their grids by
    } catch (const CudaError&) {
        return 0;
    }
}

} // namespace swarm::detail
