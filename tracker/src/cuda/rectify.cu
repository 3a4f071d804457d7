// DeviceRectifier: one block per face, one thread per face pixel, the shared face_pixel() of common/rectify_math.h.
#include "cuda/rectify.h"

#include <cuda_runtime.h>

#include "swarm/cuda/check.h"
#include "swarm/cuda/memory.h"
#include "swarm/cuda/stream.h"

namespace tracker {
namespace {

__global__ void rectify_kernel(const unsigned char* bgr, unsigned long long pitch, int width, int height,
                               const math::FaceMap* maps, int side, unsigned char* faces) {
    const int face = blockIdx.x;
    const math::FaceMap m = maps[face];
    const int pixels = side * side;
    for (int p = threadIdx.x; p < pixels; p += blockDim.x) {
        faces[static_cast<long long>(face) * pixels + p] =
            math::face_pixel(bgr, pitch, width, height, m, side, p % side, p / side);
    }
}

} // namespace

struct DeviceRectifier::Impl {
    swarm::gpu::DeviceBuffer<math::FaceMap> maps;
    swarm::gpu::DeviceBuffer<unsigned char> faces;
    swarm::gpu::PinnedHost<math::FaceMap> host_maps;
    swarm::gpu::PinnedHost<unsigned char> host_faces;
    swarm::gpu::Event begin, end;
};

DeviceRectifier::DeviceRectifier() : m(std::make_unique<Impl>()) {}
DeviceRectifier::~DeviceRectifier() = default;

double DeviceRectifier::rectify(const unsigned char* bgr, std::size_t pitch, int width, int height,
                                const std::vector<math::FaceMap>& maps, int side, std::vector<cv::Mat>& faces,
                                void* stream) {
    faces.clear();
    if (maps.empty()) {
        return 0.0;
    }
    const auto s = static_cast<cudaStream_t>(stream);
    const std::size_t n = maps.size();
    const std::size_t pixels = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
    math::FaceMap* hm = m->host_maps.reserve(n);
    std::copy(maps.begin(), maps.end(), hm);
    m->maps.reserve(n);
    unsigned char* hf = m->host_faces.reserve(n * pixels);
    m->faces.reserve(n * pixels);
    m->begin.record(s);
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(m->maps.data(), hm, n * sizeof(math::FaceMap), cudaMemcpyHostToDevice, s));
    const int threads = pixels >= 256 ? 256 : static_cast<int>((pixels + 31) / 32 * 32);
    rectify_kernel<<<static_cast<unsigned>(n), threads, 0, s>>>(bgr, pitch, width, height, m->maps.data(), side,
                                                                 m->faces.data());
    SWARM_CHECK_LAUNCH(rectify_kernel, static_cast<unsigned>(n), threads, 0);
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(hf, m->faces.data(), n * pixels, cudaMemcpyDeviceToHost, s));
    m->end.record(s);
    const double ms = m->end.ms_since(m->begin); // waits for the faces
    faces.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        faces[i] = cv::Mat(side, side, CV_8U, hf + i * pixels).clone();
    }
    return ms;
}

} // namespace tracker
