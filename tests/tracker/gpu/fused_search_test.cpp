// The fused search (one cooperative launch, a warp per particle) follows the batched-evaluator path
// (three launches per generation) generation by generation: same PSO, same pose fitness (label: gpu).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cuda/device_frame.h"
#include "cuda/fused_search.h"
#include "scenes/synthetic.h"
#include "sign_evaluator.h"
#include "swarm/errors.h"
#include "swarm/optimizer.h"
#include "tracker/model.h"

namespace tracker {
namespace {

struct FrameSetup {
    std::vector<SignModel> models;
    Camera cam;
    DeviceFrame dev;
    std::shared_ptr<SignEvaluator> ev;
    swarm::Problem problem;

    FrameSetup(const std::string& scene, int w, int h, int swarms, const math::FitnessWeights& weights = {})
        : models(load_sign_models(
              "", {Category::Prohibitory, Category::Danger, Category::Mandatory, Category::GiveWay, Category::Stop})),
          cam(Camera::from_fov(w, h, 60)) {
        auto s = create_scene(scene, w, h, 3);
        SceneFrame f;
        for (int i = 0; i < 50; ++i) {
            f = s->next();
        }
        dev.process(f.bgr);
        ev = std::make_shared<SignEvaluator>(models, PoseSpace{}, cam, weights);
        ev->set_device_frame(&dev);
        std::vector<SwarmTarget> targets;
        for (int k = 0; k < swarms; ++k) {
            targets.push_back({k % 5, k % 3 == 1});
        }
        ev->set_targets(targets);
        ev->set_masks({cv::Rect2f(w * 0.4f, h * 0.3f, 60, 60)}, {1});
        std::vector<double> lo, hi;
        frustum_bounds(Frustum{}, cam, PoseSpace{}, lo, hi);
        problem.dims = 6;
        problem.goal = swarm::Goal::Maximise;
        for (int k = 0; k < swarms; ++k) { // each swarm its own box: a slice of the depth range
            for (int d = 0; d < 6; ++d) {
                double a = lo[static_cast<std::size_t>(d)], b = hi[static_cast<std::size_t>(d)];
                if (d == 2) {
                    const double step = (b - a) / swarms;
                    a += step * k;
                    b = a + step;
                }
                problem.lower.push_back(a);
                problem.upper.push_back(b);
            }
        }
        problem.evaluator = ev;
    }
};

swarm::Params params(int swarms, int particles, swarm::Topology topo) {
    swarm::Params p;
    p.swarms = swarms;
    p.particles = particles;
    p.iterations = 40;
    p.topology = topo;
    p.record_history = true;
    p.seed = 21;
    return p;
}

// Every team size: the fused search and the batched kernel score with the same team, so they agree. The fused
// search has its own kernels for the blur allowance (math::finish_score's WithBlur), so it is checked both ways.
// `bests` gets the fused search's best fitness of every swarm and generation, team size after team size.
void expect_fused_follows_batched(const math::FitnessWeights& weights, std::vector<double>& bests) {
    for (const auto& [topo, team] : {std::pair{swarm::Topology::Ring, 1}, std::pair{swarm::Topology::Global, 1},
                                     std::pair{swarm::Topology::Ring, 2}, std::pair{swarm::Topology::Global, 2},
                                     std::pair{swarm::Topology::Ring, 4}}) {
        SCOPED_TRACE("team of " + std::to_string(team) + " warps");
        FrameSetup st("crowded", 1280, 720, 7, weights);
        st.dev.set_team_warps(team);
        const auto p = params(7, 33, topo);
        const auto launches = swarm::create_optimizer(swarm::Strategy::GpuFused)->run(st.problem, p);
        FusedSearch fused;
        std::vector<float> positions;
        const auto one = fused.run(st.dev, *st.ev, st.problem, p, &positions);
        ASSERT_EQ(one.swarms.size(), launches.swarms.size());
        for (std::size_t s = 0; s < one.swarms.size(); ++s) {
            const auto& a = one.swarms[s].history;
            const auto& b = launches.swarms[s].history;
            bests.insert(bests.end(), a.begin(), a.end());
            ASSERT_EQ(a.size(), b.size());
            for (std::size_t t = 0; t < a.size(); ++t) {
                ASSERT_NEAR(a[t], b[t], 1e-5) << "swarm " << s << " generation " << t + 1;
            }
            for (int d = 0; d < 6; ++d) {
                EXPECT_NEAR(one.swarms[s].best_position[static_cast<std::size_t>(d)],
                            launches.swarms[s].best_position[static_cast<std::size_t>(d)], 1e-4);
            }
            EXPECT_GT(one.swarms[s].best_fitness, 0.0);
            EXPECT_LE(one.swarms[s].best_fitness, 1.0);
        }
        EXPECT_GT(one.device_ms, 0.0);
        ASSERT_EQ(positions.size(), 7u * 33u * 6u);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const std::size_t s = i / (33 * 6), d = i % 6;
            EXPECT_GE(positions[i], static_cast<float>(st.problem.lower[s * 6 + d]) - 1e-4f);
            EXPECT_LE(positions[i], static_cast<float>(st.problem.upper[s * 6 + d]) + 1e-4f);
        }
    }
}

TEST(FusedSearch, FollowsTheBatchedEvaluatorPath) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    std::vector<double> bests;
    expect_fused_follows_batched({}, bests);
}

TEST(FusedSearch, FollowsTheBatchedEvaluatorPathWithTheBlurAllowance) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    math::FitnessWeights blur;
    blur.paint_blur = 1.2f;
    std::vector<double> with, without;
    expect_fused_follows_batched(blur, with);
    expect_fused_follows_batched({}, without);
    ASSERT_EQ(with.size(), without.size());
    int changed = 0;
    for (std::size_t i = 0; i < with.size(); ++i) {
        changed += std::abs(with[i] - without[i]) > 1e-6 ? 1 : 0;
    }
    EXPECT_GT(changed, 0) << "the allowance changed no swarm's search: the check above proves nothing";
}

TEST(FusedSearch, RejectsMismatchedShapes) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    FrameSetup st("easy", 320, 180, 3);
    FusedSearch fused;
    EXPECT_THROW(fused.run(st.dev, *st.ev, st.problem, params(4, 16, swarm::Topology::Ring), nullptr),
                 std::logic_error);
    swarm::Problem wrong = st.problem;
    wrong.dims = 3;
    EXPECT_THROW(fused.run(st.dev, *st.ev, wrong, params(3, 16, swarm::Topology::Ring), nullptr),
                 swarm::ValidationError);
}

} // namespace
} // namespace tracker
