#include "sign_evaluator.h"

#include <algorithm>
#include <tuple>
#include <stdexcept>

#include "swarm/errors.h"
#if defined(TRACKER_HAVE_CUDA)
#include "cuda/device_frame.h"
#endif

namespace tracker {

math::PoseLayout make_layout(const PoseSpace& space) {
    math::PoseLayout l{};
    const Pose& f = space.fixed;
    const float fixed[6] = {static_cast<float>(f.x / f.z), static_cast<float>(f.y / f.z), static_cast<float>(f.z),
                            static_cast<float>(f.yaw),     static_cast<float>(f.pitch),   static_cast<float>(f.roll)};
    for (int k = 0; k < 6; ++k) {
        l.index[k] = space.index_of(static_cast<PoseDim>(k));
        l.fixed[k] = fixed[k];
    }
    l.dims = space.dims();
    return l;
}

math::FitnessWeights fitness_weights(const TrackerSettings& s) {
    math::FitnessWeights w;
    w.edge_gain = static_cast<float>(s.fitness.edge_gain);
    w.edge_crossing = static_cast<float>(s.fitness.edge_crossing);
    w.occluder_credit = static_cast<float>(s.fitness.occluder_credit);
    w.yellow_interior = static_cast<float>(s.fitness.yellow_interior);
    w.group_floor = static_cast<float>(s.fitness.group_floor);
    w.rim_floor = static_cast<float>(s.fitness.rim_floor);
    w.paint_blur = static_cast<float>(s.fitness.paint_blur);
    return w;
}

SignEvaluator::SignEvaluator(const std::vector<SignModel>& models, const PoseSpace& space, const Camera& camera,
                             math::FitnessWeights weights) {
    m_setup.weights = weights;
    if (models.empty()) {
        throw std::invalid_argument("evaluator: no sign models");
    }
    const float role_weight[4] = {weights.rim, weights.interior, weights.outside, weights.edge};
    for (const auto& m : models) {
        math::ModelRange r{};
        r.rim_floor_scale = m.rim_floor_scale;
        r.first = static_cast<int>(m_setup.points.size());
        r.count = static_cast<int>(m.points.size());
        std::vector<std::tuple<int, int, bool, int>> keys; // (role, colour, required, part) per group
        std::vector<int> members;
        for (const auto& p : m.points) {
            const int role = static_cast<int>(p.role);
            const std::tuple<int, int, bool, int> key{role, role == 3 ? 0 : static_cast<int>(p.colour), p.required,
                                                      p.part};
            auto it = std::find(keys.begin(), keys.end(), key);
            if (it == keys.end()) {
                if (keys.size() == static_cast<std::size_t>(math::k_max_groups)) {
                    throw std::invalid_argument(m.source + ": more than " + std::to_string(math::k_max_groups) +
                                                " (role, colour, part) groups; merge colours or parts of a role");
                }
                keys.push_back(key);
                members.push_back(0);
                it = keys.end() - 1;
            }
            const int g = static_cast<int>(it - keys.begin());
            ++members[static_cast<std::size_t>(g)];
            m_setup.points.push_back({p.position.x, p.position.y, p.position.z, p.normal.x, p.normal.y, p.normal.z,
                                static_cast<std::int16_t>(p.colour), static_cast<std::int16_t>(role),
                                static_cast<std::int16_t>(g), 0});
            r.reach_near[g] += p.reach_near;
            r.reach_far[g] += p.reach_far;
        }
        r.groups = static_cast<int>(keys.size());
        for (int g = 0; g < r.groups; ++g) {
            const int role = std::get<0>(keys[static_cast<std::size_t>(g)]);
            const auto in_role =
                std::count_if(keys.begin(), keys.end(), [&](const auto& k) { return std::get<0>(k) == role; });
            r.weight[g] = role_weight[role] / static_cast<float>(in_role);
            r.inv_count[g] = 1.f / static_cast<float>(members[static_cast<std::size_t>(g)]);
            r.reach_near[g] *= r.inv_count[g];
            r.reach_far[g] *= r.inv_count[g];
            if (std::get<2>(keys[static_cast<std::size_t>(g)])) {
                r.essential |= 1u << g;
            }
            if (role == static_cast<int>(PointRole::Rim)) {
                r.rim |= 1u << g;
            }
        }
        m_setup.ranges.push_back(r);
    }
    m_setup.k = {static_cast<float>(camera.fx), static_cast<float>(camera.fy), static_cast<float>(camera.cx),
           static_cast<float>(camera.cy)};
    set_space(space);
}

SignEvaluator::~SignEvaluator() = default;

void SignEvaluator::set_space(const PoseSpace& space) { m_setup.layout = make_layout(space); }

void SignEvaluator::set_masks(const std::vector<cv::Rect2f>& boxes, const std::vector<int>& models) {
    m_setup.masks.count = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const auto& b = boxes[i];
        if (m_setup.masks.count == math::k_max_masks) {
            break; // more tracked signs than mask slots: the rest are left to duplicate suppression
        }
        m_setup.masks.model[m_setup.masks.count] = i < models.size() ? models[i] : -1;
        auto* m = m_setup.masks.box[m_setup.masks.count++];
        m[0] = b.x;
        m[1] = b.y;
        m[2] = b.x + b.width;
        m[3] = b.y + b.height;
    }
}

bool SignEvaluator::supports(swarm::MemorySpace where) const {
    if (where == swarm::MemorySpace::Host) {
#if defined(TRACKER_HAVE_CUDA)
        if (m_maps == nullptr && m_device != nullptr) {
            return m_device->ready(); // host particles, GPU fitness (copies in and out)
        }
#endif
        return m_maps != nullptr;
    }
#if defined(TRACKER_HAVE_CUDA)
    return m_device != nullptr && m_device->ready();
#else
    return false;
#endif
}

void SignEvaluator::check_shape(const swarm::BatchShape& shape) const {
    if (shape.dims != m_setup.layout.dims) {
        throw swarm::ValidationError("dims", "evaluator expects " + std::to_string(m_setup.layout.dims) +
                                                 " pose dimensions, got " + std::to_string(shape.dims));
    }
    if (static_cast<int>(m_setup.targets.size()) != shape.swarms) {
        throw std::logic_error("evaluator: " + std::to_string(m_setup.targets.size()) + " swarm targets set for " +
                               std::to_string(shape.swarms) + " swarms");
    }
}

void SignEvaluator::evaluate(const float* positions, float* fitness, const swarm::BatchShape& shape,
                             swarm::MemorySpace where, void* stream) {
    check_shape(shape);
    if (where == swarm::MemorySpace::Device) {
#if defined(TRACKER_HAVE_CUDA)
        if (m_device == nullptr || !m_device->ready()) {
            throw std::logic_error("evaluator: device evaluation without a preprocessed device frame");
        }
        m_device->evaluate(m_setup, positions, fitness, shape, stream);
        return;
#else
        (void)stream;
        throw swarm::UnavailableError("evaluator: this build has no CUDA; use a CPU strategy");
#endif
    }
    if (m_keep_last) {
        m_last.assign(positions, positions + shape.rows() * static_cast<std::size_t>(shape.dims));
    }
#if defined(TRACKER_HAVE_CUDA)
    if (m_maps == nullptr && m_device != nullptr && m_device->ready()) {
        m_device->evaluate_host(m_setup, positions, fitness, shape, stream);
        return;
    }
#endif
    if (m_maps == nullptr) {
        throw std::logic_error("evaluator: host evaluation without host class maps");
    }
    const HostSampler sampler = host_sampler();
    const ScoringSetup& su = m_setup;
    const long long rows = static_cast<long long>(shape.rows());
#pragma omp parallel for schedule(dynamic, 16)
    for (long long r = 0; r < rows; ++r) {
        const SwarmTarget& t = su.targets[static_cast<std::size_t>(r / shape.particles)];
        const math::RigidPose pose = math::rigid_from_particle(su.layout, positions + r * shape.dims);
        const math::ModelRange& range = su.ranges[static_cast<std::size_t>(t.model)];
        fitness[r] = math::score_pose(pose, su.k, su.points.data(), t.model, range, su.weights,
                                      t.use_mask ? &su.masks : nullptr, sampler);
    }
}

// The gradient map only where the fitness reads it (FitnessWeights::uses_gradient).
HostSampler SignEvaluator::host_sampler() const {
    return {&m_maps->classes, m_setup.weights.uses_gradient() ? &m_maps->gradient : nullptr};
}

namespace {

math::RigidPose rigid_of(const Pose& p) {
    return math::rigid_from_params(static_cast<float>(p.x / p.z), static_cast<float>(p.y / p.z),
                                   static_cast<float>(p.z), static_cast<float>(p.yaw), static_cast<float>(p.pitch),
                                   static_cast<float>(p.roll));
}

} // namespace

double SignEvaluator::score(const Pose& p, int model, bool use_mask) const {
    if (m_maps == nullptr) {
        throw std::logic_error("evaluator: score() needs host class maps");
    }
    const ScoringSetup& su = m_setup;
    const math::ModelRange& range = su.ranges.at(static_cast<std::size_t>(model));
    return math::score_pose(rigid_of(p), su.k, su.points.data(), model, range, su.weights,
                            use_mask ? &su.masks : nullptr, host_sampler());
}

std::vector<float> SignEvaluator::group_means(const Pose& p, int model) const {
    if (m_maps == nullptr) {
        throw std::logic_error("evaluator: group_means() needs host class maps");
    }
    const ScoringSetup& su = m_setup;
    const math::ModelRange& range = su.ranges.at(static_cast<std::size_t>(model));
    float sum[math::k_max_groups];
    math::sum_groups(rigid_of(p), su.k, su.points.data(), model, range, su.weights, nullptr, host_sampler(), sum);
    std::vector<float> means(static_cast<std::size_t>(range.groups));
    for (int g = 0; g < range.groups; ++g) {
        means[static_cast<std::size_t>(g)] = sum[g] * range.inv_count[g];
    }
    return means;
}

} // namespace tracker
