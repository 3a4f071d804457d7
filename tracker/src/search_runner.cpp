#include "search_runner.h"

#include <chrono>

#include <spdlog/spdlog.h>

#include "swarm/errors.h"
#if defined(TRACKER_HAVE_CUDA)
#include "cuda/device_frame.h"
#include "cuda/fused_search.h"
#else
namespace tracker {
class DeviceFrame {}; // never created without CUDA; complete so unique_ptr<DeviceFrame> can be destroyed
class FusedSearch {}; // likewise
} // namespace tracker
#endif

namespace tracker {

#if defined(TRACKER_HAVE_CUDA)
void SearchRunner::DeviceFrameDeleter::operator()(DeviceFrame* frame) const { delete frame; }
void SearchRunner::FusedSearchDeleter::operator()(FusedSearch* search) const { delete search; }
#else
void SearchRunner::DeviceFrameDeleter::operator()(DeviceFrame*) const {} // never created without CUDA
void SearchRunner::FusedSearchDeleter::operator()(FusedSearch*) const {}
#endif

SearchRunner::SearchRunner(const std::vector<SignModel>& models, const Camera& camera, const TrackerSettings& s)
    : m_settings(s), m_evaluator(std::make_shared<SignEvaluator>(models, PoseSpace{}, camera)) {
    const swarm::Backend backend = s.engine.backend;
    const bool device = swarm::cuda_device_present();
    if (backend == swarm::Backend::Cuda && !device) {
        throw swarm::UnavailableError("tracker backend cuda: no CUDA device (or no CUDA build); use backend cpu or auto");
    }
#if defined(TRACKER_HAVE_CUDA)
    m_gpu = backend != swarm::Backend::Cpu && device;
    if (m_gpu) {
        m_device.reset(new DeviceFrame());
        m_evaluator->set_device_frame(m_device.get());
    }
#endif
    if (!m_gpu) {
        m_evaluator->set_host_maps(&m_maps);
    }
}

SearchRunner::~SearchRunner() = default;

void* SearchRunner::device_stream() const {
#if defined(TRACKER_HAVE_CUDA)
    if (m_device) {
        return m_device->stream();
    }
#endif
    return nullptr;
}

std::string SearchRunner::backend_name() const { return m_gpu ? swarm::cuda_device_name() : "CPU"; }

void SearchRunner::prepare(const cv::Mat& bgr, StageTiming& timing) {
    if (bgr.empty() || bgr.type() != CV_8UC3) {
        throw std::invalid_argument("tracker: frames must be non-empty 8-bit BGR images (CV_8UC3)");
    }
#if defined(TRACKER_HAVE_CUDA)
    if (m_gpu) {
        const auto [up, pre] = m_device->process(bgr, static_cast<float>(m_settings.fitness.cover_hue));
        timing.upload_ms = up;
        timing.preprocess_ms = pre;
        return;
    }
#endif
    const auto t0 = std::chrono::steady_clock::now();
    preprocess_cpu(bgr, m_maps, static_cast<float>(m_settings.fitness.cover_hue));
    timing.preprocess_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void SearchRunner::prepare(const cv::cuda::GpuMat& bgr, StageTiming& timing) {
#if defined(TRACKER_HAVE_CUDA)
    if (m_gpu) {
        const auto [up, pre] = m_device->process(bgr, static_cast<float>(m_settings.fitness.cover_hue));
        timing.upload_ms = up;
        timing.preprocess_ms = pre;
        return;
    }
#endif
    (void)bgr;
    (void)timing;
    throw swarm::UnavailableError("tracker: a device frame needs the cuda backend on a machine with a GPU");
}

std::vector<SwarmOutcome> SearchRunner::run(const PoseSpace& space, const std::vector<SwarmJob>& jobs,
                                            const std::vector<cv::Rect2f>& masks,
                                            const std::vector<int>& mask_models, std::uint64_t seed,
                                            StageTiming& timing, SearchSize size) {
    if (jobs.empty()) {
        return {};
    }
    const auto t0 = std::chrono::steady_clock::now();
    swarm::Problem problem;
    problem.dims = space.dims();
    problem.goal = swarm::Goal::Maximise;
    std::vector<SwarmTarget> targets;
    bool start_boxes = false;
    for (const auto& j : jobs) {
        problem.lower.insert(problem.lower.end(), j.lower.begin(), j.lower.end());
        problem.upper.insert(problem.upper.end(), j.upper.begin(), j.upper.end());
        targets.push_back(j.target);
        start_boxes = start_boxes || !j.start_lower.empty();
    }
    if (start_boxes && m_settings.tracking.track_focus_share > 0.0) {
        for (const auto& j : jobs) { // a job without a start box starts over its bounds
            const bool own = !j.start_lower.empty();
            const auto& lo = own ? j.start_lower : j.lower;
            const auto& hi = own ? j.start_upper : j.upper;
            problem.init_lower.insert(problem.init_lower.end(), lo.begin(), lo.end());
            problem.init_upper.insert(problem.init_upper.end(), hi.begin(), hi.end());
        }
        problem.init_share = m_settings.tracking.track_focus_share;
    }
    m_evaluator->set_space(space);
    m_evaluator->set_targets(targets);
    m_evaluator->set_masks(masks, mask_models);
    m_evaluator->keep_last(m_settings.keep_particles);
    problem.evaluator = m_evaluator;

    swarm::Params p;
    p.w = m_settings.search.w;
    p.c1 = m_settings.search.c1;
    p.c2 = m_settings.search.c2;
    p.swarms = static_cast<int>(jobs.size());
    p.particles = size.particles > 0 ? size.particles : m_settings.search.particles;
    p.iterations = size.generations > 0 ? size.generations : m_settings.search.generations;
    p.topology = m_settings.search.topology;
    p.seed = seed;
#if defined(TRACKER_HAVE_CUDA)
    if (m_gpu) {
        m_device->set_team_warps(m_settings.engine.gpu_team_warps); // settings may change between frames (GUI)
    }
    if (m_gpu && fused_strategy()) {
        // The whole search in one launch, a team of warps per particle (cuda/fused_search.h).
        if (!m_fused) {
            m_fused.reset(new FusedSearch());
        }
        m_fused->set_cluster_barrier(m_settings.engine.gpu_cluster_barrier); // settings may change (GUI)
        std::vector<float> last;
        const swarm::Result res = m_fused->run(*m_device, *m_evaluator, problem, p,
                                               m_settings.keep_particles ? &last : nullptr);
        return finish(res, jobs, p, problem.dims, last, t0, timing);
    }
#endif
    if (!m_optimizer) {
        const EngineSettings& engine = m_settings.engine;
        swarm::Strategy s = swarm::resolve_strategy(engine.strategy, engine.backend, problem, p, &m_strategy_note);
        try {
            m_optimizer = swarm::create_optimizer(s);
        } catch (const swarm::UnavailableError& e) {
            // GPU strategies that are not built yet: the CPU engine drives the swarms, the GPU scores them.
            spdlog::warn("tracker: {} ({}); using cpu-parallel with {} fitness", e.what(), to_string(s),
                         m_gpu ? "GPU" : "CPU");
            m_optimizer = swarm::create_optimizer(swarm::Strategy::CpuParallel);
        }
    }
    const swarm::Result res = m_optimizer->run(problem, p);
    return finish(res, jobs, p, problem.dims, m_evaluator->last_positions(), t0, timing);
}

bool SearchRunner::fused_strategy() const {
    const swarm::Strategy s = m_settings.engine.strategy;
    return s == swarm::Strategy::Auto || s == swarm::Strategy::GpuFused;
}

std::vector<SwarmOutcome> SearchRunner::finish(const swarm::Result& res, const std::vector<SwarmJob>& jobs,
                                               const swarm::Params& p, int dims, const std::vector<float>& last,
                                               std::chrono::steady_clock::time_point t0, StageTiming& timing) const {
    std::vector<SwarmOutcome> out(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        out[i].best = res.swarms[i].best_position;
        out[i].fitness = res.swarms[i].best_fitness;
        if (m_settings.keep_particles) {
            const std::size_t n = static_cast<std::size_t>(p.particles) * static_cast<std::size_t>(dims);
            if (last.size() >= (i + 1) * n) {
                out[i].particles.assign(last.begin() + static_cast<std::ptrdiff_t>(i * n),
                                        last.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
            }
        }
    }
    // On the GPU the search stage is the engine's CUDA-event time of the run (all generations of all swarms);
    // a CPU strategy (or a CPU-driven run with GPU fitness) reports host wall time.
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    timing.search_ms += m_gpu && res.device_ms > 0 ? res.device_ms : wall;
    timing.search_wall_ms += wall;
    return out;
}

} // namespace tracker
