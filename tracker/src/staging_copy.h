#pragma once
// Copies a frame into the page-locked staging buffer that the GPU's copy engine then reads.
#include <cstddef>

#include <opencv2/core.hpp>

namespace tracker {

// Writes `src`'s rows back to back into `dst` (rows * cols * elemSize bytes) with non-temporal stores where
// the CPU has them, so the bytes go to memory instead of staying dirty in this core's cache: the upload's DMA
// then reads memory instead of snooping the cache, which measured faster for a 1280x720 upload
// (docs/benchmarks.md, "Design evidence").
void copy_to_staging(const cv::Mat& src, unsigned char* dst);

} // namespace tracker
