#include "cuda/host_copy.h"

#include "swarm/cuda/check.h"

namespace tracker {

void copy_to_host(const cv::cuda::GpuMat& device, cv::Mat& host, void* stream) {
    host.create(device.rows, device.cols, device.type());
    const auto s = static_cast<cudaStream_t>(stream);
    SWARM_CUDA_CHECK_THROW(cudaMemcpy2DAsync(host.data, host.step, device.data, device.step,
                                             static_cast<std::size_t>(device.cols) * device.elemSize(),
                                             static_cast<std::size_t>(device.rows), cudaMemcpyDeviceToHost, s));
    SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(s));
}

} // namespace tracker
