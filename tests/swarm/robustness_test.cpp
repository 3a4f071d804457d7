// Inputs found by fuzzing the engine's command-line values (fuzz/fuzz_engine_args.cpp); the
// inputs themselves are also in fuzz/corpus/engine_args/ and replayed by ctest in the sanitizer build.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "swarm/detail/pso_math.h"
#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace {

// lower=-1e300 upper=1e300 in fp32: the bounds became inf on the way to float and the run returned NaN.
TEST(Robustness, BoundsBeyondSinglePrecisionAreRejected) {
    swarm::Problem p = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    p.lower.assign(2, -1e300);
    p.upper.assign(2, 1e300);
    try {
        p.validate(1);
        FAIL() << "bounds of 1e300 were accepted";
    } catch (const swarm::ValidationError& e) {
        EXPECT_EQ(e.field(), "lower");
        EXPECT_NE(std::string(e.what()).find("1e18"), std::string::npos) << e.what();
    }
    p.lower.assign(2, -1e18);
    p.upper.assign(2, 1e18);
    EXPECT_NO_THROW(p.validate(1));
    swarm::Params params;
    params.particles = 8;
    params.iterations = 20;
    const auto r = swarm::optimize(p, params, swarm::Strategy::CpuSerial, swarm::Backend::Cpu);
    EXPECT_FALSE(std::isnan(r.best().best_fitness));
}

// Reflect with a step of many widths (width 1e-300, or a non-finite position): the fold count must not go
// through an out-of-range cast to long long (UBSan: "-nan is outside the range of ... long long").
TEST(Robustness, ReflectFoldsHugeAndNonFiniteStepsIntoTheBox) {
    using swarm::pso::BoundaryMode;
    for (const double step : {1e30, -1e30, std::numeric_limits<double>::infinity(), std::nan("")}) {
        double x = 0.5, v = step;
        swarm::pso::move(x, v, 0.0, 1.0, BoundaryMode::Reflect, 0.5);
        EXPECT_GE(x, 0.0) << step;
        EXPECT_LE(x, 1.0) << step;
        float xf = 0.5f, vf = static_cast<float>(step);
        swarm::pso::move(xf, vf, 0.0f, 1e-30f, BoundaryMode::Reflect, 0.5f);
        EXPECT_GE(xf, 0.0f) << step;
        EXPECT_LE(xf, 1e-30f) << step;
    }
    // Ordinary reflections are unchanged: 1.3 past a [0, 1] box folds back to 0.7.
    double x = 0.9, v = 0.4;
    swarm::pso::move(x, v, 0.0, 1.0, BoundaryMode::Reflect, 0.5);
    EXPECT_NEAR(x, 0.7, 1e-12);
    EXPECT_EQ(v, -0.4);
}

} // namespace
