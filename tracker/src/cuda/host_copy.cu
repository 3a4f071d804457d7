#include "cuda/host_copy.h"

#include "cuda/cuda_check.h"

namespace tracker {

void copy_to_host(const cv::cuda::GpuMat& device, cv::Mat& host) {
    host.create(device.rows, device.cols, device.type());
    TRACKER_CUDA_CHECK(cudaMemcpy2D(host.data, host.step, device.data, device.step,
                                    static_cast<std::size_t>(device.cols) * device.elemSize(),
                                    static_cast<std::size_t>(device.rows), cudaMemcpyDeviceToHost));
}

} // namespace tracker
