#pragma once
// Measurements of the device itself, for benchmark reports (plain C++; defined only in CUDA builds, so
// callers guard with SWARM_HAVE_CUDA).
#include <cstddef>

namespace swarm {

// Device-to-device cudaMemcpy bandwidth in GB/s, counting bytes read plus bytes written (2 x `bytes` per
// copy), the best of `repeats` copies. Throws UnavailableError without a device.
double measure_device_copy_bandwidth(std::size_t bytes, int repeats);

// GB/s of gpu-elementwise's traffic alone at 20 bytes per element (read x, v, p; write x, v; fp32) over
// `elements` values per array, with trivial arithmetic: the ceiling of its row update. Best of `repeats`.
double measure_stream_update_bandwidth(std::size_t elements, int repeats);

} // namespace swarm
