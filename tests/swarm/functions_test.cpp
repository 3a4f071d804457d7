#include <gtest/gtest.h>

#include "swarm/benchmark_functions.h"
#include "swarm/errors.h"
#include "swarm/functions.h"

using swarm::Function;

// Every function attains its documented optimum at its documented position, in both precisions.
TEST(Functions, KnownOptimumAtKnownPosition) {
    for (const auto& fi : swarm::all_functions()) {
        const int d = fi.fixed_dims ? fi.fixed_dims : 4;
        const auto x = swarm::optimum_position(fi.id, d);
        const double f = swarm::fn::evaluate<double>(fi.id, x.data(), d);
        EXPECT_NEAR(f, swarm::known_optimum(fi.id, d), 1e-4 * std::max(1.0, std::abs(f))) << fi.name;
    }
}

// Nudging away from the optimum never improves it (checks the sign conventions, maximised cubic too).
TEST(Functions, OptimumIsLocallyBest) {
    for (const auto& fi : swarm::all_functions()) {
        const int d = fi.fixed_dims ? fi.fixed_dims : 3;
        auto x = swarm::optimum_position(fi.id, d);
        const double f0 = swarm::fn::evaluate<double>(fi.id, x.data(), d);
        for (int i = 0; i < d; ++i) {
            for (const double step : {-1e-2, 1e-2}) {
                auto y = x;
                y[i] = std::clamp(y[i] + step, fi.lower, fi.upper);
                const double f = swarm::fn::evaluate<double>(fi.id, y.data(), d);
                if (fi.maximise) {
                    EXPECT_LE(f, f0 + 1e-9) << fi.name;
                } else {
                    EXPECT_GE(f, f0 - 1e-9) << fi.name;
                }
            }
        }
    }
}

TEST(Functions, FloatAndDoubleAgree) {
    const float xf[3] = {0.5f, -1.25f, 2.0f};
    const double xd[3] = {0.5, -1.25, 2.0};
    for (const auto& fi : swarm::all_functions()) {
        const int d = fi.fixed_dims ? fi.fixed_dims : 3;
        const double a = swarm::fn::evaluate<double>(fi.id, xd, d);
        const float b = swarm::fn::evaluate<float>(fi.id, xf, d);
        EXPECT_NEAR(a, b, 1e-4 * std::max(1.0, std::abs(a))) << fi.name;
    }
}

TEST(Functions, KnownValues) {
    const double origin[2] = {0, 0};
    EXPECT_DOUBLE_EQ(swarm::fn::rastrigin(origin, 2), 0.0);
    const double one[2] = {1, 1};
    EXPECT_DOUBLE_EQ(swarm::fn::sphere(one, 2), 2.0);
    EXPECT_DOUBLE_EQ(swarm::fn::rosenbrock(one, 2), 0.0);
    const double gp[2] = {0, -1};
    EXPECT_DOUBLE_EQ(swarm::fn::goldstein_price(gp, 2), 3.0);
    const double c[1] = {2};
    EXPECT_DOUBLE_EQ(swarm::fn::cubic(c, 1), 8 - 3.2 - 2000 + 8000);
    const double e[2] = {3, 4};
    EXPECT_DOUBLE_EQ(swarm::fn::euclidean(e, 2), 5.0);
}

TEST(Functions, ParseAndDimsValidation) {
    EXPECT_EQ(swarm::parse_function("schaffer-f6"), Function::SchafferF6);
    EXPECT_FALSE(swarm::parse_function("nope").has_value());
    EXPECT_THROW(swarm::known_optimum(Function::Easom, 3), swarm::ValidationError);
    EXPECT_THROW(swarm::known_optimum(Function::Sphere, 0), swarm::ValidationError);
}
