// DeviceFrame: one upload, preprocessing into pitched maps bound as textures, batched fitness launches.
#include "cuda/device_frame.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "cuda/kernels.h"
#include "preprocess.h"
#include "scoring_setup.h"
#include "staging_copy.h"
#include "swarm/cuda/check.h"
#include "swarm/cuda/launch.h"
#include "swarm/cuda/memory.h"
#include "swarm/cuda/stream.h"

namespace tracker {

namespace {
class Texture {
public:
    Texture() = default;
    ~Texture() { reset(); }
    Texture(const Texture&) = delete;
    Texture& operator=(const Texture&) = delete;
    void bind(void* data, std::size_t pitch, int w, int h, cudaChannelFormatDesc desc, cudaTextureReadMode mode) {
        reset();
        cudaResourceDesc res{};
        res.resType = cudaResourceTypePitch2D;
        res.res.pitch2D.devPtr = data;
        res.res.pitch2D.pitchInBytes = pitch;
        res.res.pitch2D.width = static_cast<std::size_t>(w);
        res.res.pitch2D.height = static_cast<std::size_t>(h);
        res.res.pitch2D.desc = desc;
        cudaTextureDesc tex{};
        tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
        tex.filterMode = cudaFilterModeLinear;
        tex.readMode = mode;
        tex.normalizedCoords = 0;
        SWARM_CUDA_CHECK_THROW(cudaCreateTextureObject(&m_t, &res, &tex, nullptr));
    }
    cudaTextureObject_t get() const { return m_t; }

private:
    void reset() {
        if (m_t != 0) {
            SWARM_CUDA_CHECK_LOG(cudaDestroyTextureObject(m_t));
        }
        m_t = 0;
    }
    cudaTextureObject_t m_t = 0;
};
} // namespace

struct DeviceFrame::Impl {
    // The tracker's own non-blocking stream: its uploads, preprocessing and fused searches queue here in
    // order, off the legacy default stream. Declared first, so it is destroyed after the buffers its work uses.
    swarm::gpu::Stream stream;
    swarm::gpu::PitchedBuffer2D<unsigned char> bgr;
    swarm::gpu::PinnedHost<unsigned char> staging;
    swarm::gpu::PitchedBuffer2D<uchar4> classes;
    swarm::gpu::PitchedBuffer2D<float2> gradient;
    swarm::gpu::DeviceBuffer<unsigned long long> sums; // two sets of frame sums, alternate frames (preprocess.cu)
    swarm::gpu::DeviceBuffer<float> exposure;           // the exposure grid's tile means, then its smoothing
    int parity = 0;                                    // slot of the frame processed last
    swarm::gpu::DeviceBuffer<math::PackedPoint> points;
    swarm::gpu::DeviceBuffer<math::ModelRange> ranges;
    swarm::gpu::DeviceBuffer<int2> targets;
    swarm::gpu::DeviceBuffer<float> positions, fitness;
    Texture tex_classes, tex_gradient;
    swarm::gpu::Event e0, e1, e2;
    swarm::gpu::Event caller_done{cudaEventDisableTiming}; // the legacy default stream's work before a device frame
    int width = 0, height = 0;
    DeviceFrame::Image image; // the BGR frame last preprocessed
    int team_warps = 0; // auto
    bool ready = false;
    const ScoringSetup* uploaded_for = nullptr;
    std::vector<int2> host_targets; // what `targets` holds

    // A caller's stream (the engine's, for its batched evaluations), else the tracker's own.
    cudaStream_t on(void* caller) const { return caller != nullptr ? static_cast<cudaStream_t>(caller) : stream.get(); }

    std::pair<double, double> run(cuda::PitchedView view, bool uploaded, float cover_hue) {
        const cudaStream_t s = stream.get();
        image = {static_cast<const unsigned char*>(view.data), view.pitch, view.width, view.height};
        if (view.width != width || view.height != height) {
            classes.reserve(view.height, view.width);
            gradient.reserve(view.height, view.width);
            tex_classes.bind(classes.data(), classes.pitch(), view.width, view.height, cudaCreateChannelDesc<uchar4>(),
                             cudaReadModeNormalizedFloat);
            tex_gradient.bind(gradient.data(), gradient.pitch(), view.width, view.height,
                              cudaCreateChannelDesc<float2>(), cudaReadModeElementType);
            width = view.width;
            height = view.height;
        }
        if (sums.data() == nullptr) {
            sums.reserve(2 * cuda::k_preprocess_sums);
            SWARM_CUDA_CHECK_THROW(
                cudaMemsetAsync(sums.data(), 0, 2 * cuda::k_preprocess_sums * sizeof(unsigned long long), s));
        }
        parity ^= 1;
        const int gw = math::exposure_tiles(width), gh = math::exposure_tiles(height);
        float* grid = exposure.reserve(2 * static_cast<std::size_t>(gw) * gh);
        e1.record(s);
        cuda::launch_preprocess(s, view, sums.data(), parity, {grid, grid + static_cast<std::size_t>(gw) * gh, gw, gh},
                                {classes.data(), classes.pitch(), width, height},
                                {gradient.data(), gradient.pitch(), width, height}, cover_hue);
        e2.record(s);
        const double pre = e2.ms_since(e1);
        ready = true;
        return {uploaded ? e1.ms_since(e0) : 0.0, pre};
    }
};

DeviceFrame::DeviceFrame() : m(std::make_unique<Impl>()) {}
DeviceFrame::~DeviceFrame() = default;
bool DeviceFrame::ready() const { return m->ready; }

void* DeviceFrame::stream() const { return m->stream.get(); }
DeviceFrame::Image DeviceFrame::image() const { return m->image; }

std::pair<double, double> DeviceFrame::process(const cv::Mat& bgr, float cover_hue) {
    if (bgr.empty() || bgr.type() != CV_8UC3) {
        throw std::invalid_argument("frame must be a non-empty 8-bit BGR image (CV_8UC3)");
    }
    const cudaStream_t s = m->stream.get();
    m->bgr.reserve(bgr.rows, bgr.cols * 3);
    // Through page-locked staging: the host copy (wall time) replaces the driver's pageable staging, and
    // the device-side upload becomes one DMA at full link speed. The previous frame's upload has finished
    // (run() waits on its events), so the staging buffer is free to overwrite.
    const std::size_t row_bytes = static_cast<std::size_t>(bgr.cols) * 3;
    unsigned char* staging = m->staging.reserve(row_bytes * static_cast<std::size_t>(bgr.rows));
    copy_to_staging(bgr, staging);
    m->e0.record(s);
    SWARM_CUDA_CHECK_THROW(cudaMemcpy2DAsync(m->bgr.data(), m->bgr.pitch(), staging, row_bytes, row_bytes, bgr.rows,
                                             cudaMemcpyHostToDevice, s));
    return m->run({m->bgr.data(), m->bgr.pitch(), bgr.cols, bgr.rows}, true, cover_hue);
}

std::pair<double, double> DeviceFrame::process(const cv::cuda::GpuMat& bgr, float cover_hue) {
    if (bgr.empty() || bgr.type() != CV_8UC3) {
        throw std::invalid_argument("device frame must be a non-empty 8-bit BGR GpuMat (CV_8UC3)");
    }
    // A caller's copy into `bgr` on the legacy default stream may still be in flight (a pageable cudaMemcpy
    // returns before its DMA lands); the frame's non-blocking stream would not wait for it by itself.
    m->caller_done.record(nullptr);
    m->stream.wait(m->caller_done);
    return m->run({bgr.data, bgr.step, bgr.cols, bgr.rows}, false, cover_hue);
}

void DeviceFrame::fitness_params(const ScoringSetup& setup, const swarm::BatchShape& shape, void* stream,
                                 cuda::FitnessParams& p) {
    const cudaStream_t s = m->on(stream);
    if (m->uploaded_for != &setup) {
        // Model points never change for a setup (an evaluator's): upload once. Pageable sources that it keeps:
        // each call returns once its bytes are staged, and the copies come before this stream's launches.
        m->points.reserve(setup.points.size());
        m->ranges.reserve(setup.ranges.size());
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(m->points.data(), setup.points.data(),
                                               setup.points.size() * sizeof(math::PackedPoint),
                                               cudaMemcpyHostToDevice, s));
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(m->ranges.data(), setup.ranges.data(),
                                               setup.ranges.size() * sizeof(math::ModelRange),
                                               cudaMemcpyHostToDevice, s));
        m->uploaded_for = &setup;
    }
    // Targets change once per engine run, not per generation: copy them only when they differ, so the
    // generations of a run go by without a host round trip.
    std::vector<int2> targets;
    for (const auto& t : setup.targets) {
        targets.push_back(make_int2(t.model, t.use_mask ? 1 : 0));
    }
    const bool same = targets.size() == m->host_targets.size() &&
                      std::equal(targets.begin(), targets.end(), m->host_targets.begin(),
                                 [](int2 a, int2 b) { return a.x == b.x && a.y == b.y; });
    if (!same) {
        m->host_targets = std::move(targets);
        m->targets.reserve(m->host_targets.size());
        // Pageable source: the call returns once the bytes are staged, and host_targets outlives it anyway.
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(m->targets.data(), m->host_targets.data(),
                                               m->host_targets.size() * sizeof(int2), cudaMemcpyHostToDevice, s));
    }
    p = cuda::FitnessParams{};
    p.layout = setup.layout;
    p.k = setup.k;
    p.weights = setup.weights;
    p.masks = setup.masks;
    p.points = m->points.data();
    p.ranges = m->ranges.data();
    p.targets = m->targets.data();
    p.classes = m->tex_classes.get();
    p.gradient = m->tex_gradient.get();
    p.width = m->width;
    p.height = m->height;
    p.particles = shape.particles;
    p.dims = shape.dims;
    p.rows = static_cast<long long>(shape.rows());
    p.team_warps = m->team_warps != 0 ? m->team_warps : auto_team_warps(shape.rows());
}

int auto_team_warps(std::size_t particles) {
    // The tracker benchmark's "GPU warps per particle" rows (docs/benchmarks.md, "Tracker per-frame time"):
    // teams pay off while they fit the warps the SMs hold at once: the kernel's 117 registers a thread leave
    // 4 blocks of 4 warps per SM. Past that, more warps only queue behind each other.
    constexpr std::size_t k_resident_warps_per_sm = 16;
    int sms = 0;
    try {
        sms = swarm::gpu::sm_count(); // cached: this runs for every search of every frame
    } catch (const swarm::Error&) {
        return 1; // no usable device
    }
    return particles * 2 <= k_resident_warps_per_sm * static_cast<std::size_t>(sms) ? 2 : 1;
}

void DeviceFrame::set_team_warps(int warps) {
    if (warps != 0 && warps != 1 && warps != 2 && warps != 4) {
        throw std::invalid_argument("gpu_team_warps must be 0 (auto), 1, 2 or 4, got " + std::to_string(warps));
    }
    m->team_warps = warps;
}

int DeviceFrame::team_warps() const { return m->team_warps; }

void DeviceFrame::evaluate(const ScoringSetup& setup, const float* positions, float* fitness,
                           const swarm::BatchShape& shape, void* stream) {
    cuda::FitnessParams p;
    fitness_params(setup, shape, stream, p);
    cuda::launch_fitness(m->on(stream), p, positions, fitness);
}

void DeviceFrame::evaluate_host(const ScoringSetup& setup, const float* positions, float* fitness,
                                const swarm::BatchShape& shape, void* stream) {
    const cudaStream_t s = m->on(stream);
    const std::size_t n = shape.rows();
    m->positions.reserve(n * static_cast<std::size_t>(shape.dims));
    m->fitness.reserve(n);
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(m->positions.data(), positions, n * shape.dims * sizeof(float),
                                           cudaMemcpyHostToDevice, s));
    evaluate(setup, m->positions.data(), m->fitness.data(), shape, s);
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(fitness, m->fitness.data(), n * sizeof(float), cudaMemcpyDeviceToHost, s));
    SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(s));
}

void DeviceFrame::download(ClassMaps& out) const {
    if (!m->ready) {
        throw std::logic_error("DeviceFrame::download before process");
    }
    const cudaStream_t s = m->stream.get();
    out.classes.create(m->height, m->width, CV_8UC4);
    out.gradient.create(m->height, m->width, CV_32FC2);
    SWARM_CUDA_CHECK_THROW(cudaMemcpy2DAsync(out.classes.data, out.classes.step, m->classes.data(), m->classes.pitch(),
                                             m->width * sizeof(uchar4), m->height, cudaMemcpyDeviceToHost, s));
    SWARM_CUDA_CHECK_THROW(cudaMemcpy2DAsync(out.gradient.data, out.gradient.step, m->gradient.data(),
                                             m->gradient.pitch(), m->width * sizeof(float2), m->height,
                                             cudaMemcpyDeviceToHost, s));
    unsigned long long sum = 0;
    SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(&sum, m->sums.data() + cuda::k_preprocess_sums * m->parity, sizeof(sum),
                                           cudaMemcpyDeviceToHost, s));
    SWARM_CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    out.mean_value = static_cast<float>(static_cast<double>(sum) / (static_cast<double>(m->width) * m->height));
}

} // namespace tracker
