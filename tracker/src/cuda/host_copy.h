#pragma once
// A host copy of a frame handed over in device memory, for the host-side steps of a frame (the candidate
// regions and the verifier's crops), so a device frame is detected as its host copy would be.
#include <opencv2/core.hpp>
#include <opencv2/core/cuda.hpp>

namespace tracker {

// Copies a CV_8UC3 device frame (any pitch) into `host` on `stream` (the tracker's; a cudaStream_t) and waits
// for it. Throws swarm::CudaError when the copy fails.
void copy_to_host(const cv::cuda::GpuMat& device, cv::Mat& host, void* stream);

} // namespace tracker
