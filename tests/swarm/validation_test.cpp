// Every invalid Params/Problem value is rejected with a ValidationError naming the field.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace {

void expect_field(const std::function<void()>& f, const std::string& field) {
    try {
        f();
        ADD_FAILURE() << "no error for " << field;
    } catch (const swarm::ValidationError& e) {
        EXPECT_EQ(e.field(), field) << e.what();
        EXPECT_NE(std::string(e.what()).find(field), std::string::npos);
    }
}

TEST(Validation, ParamsFieldsNamed) {
    using P = swarm::Params;
    const std::pair<std::function<void(P&)>, std::string> cases[] = {
        {[](P& p) { p.w = 3; }, "w"},
        {[](P& p) { p.w = std::nan(""); }, "w"},
        {[](P& p) { p.c1 = -1; }, "c1"},
        {[](P& p) { p.c2 = 100; }, "c2"},
        {[](P& p) { p.v_max_fraction = -0.1; }, "vmax"},
        {[](P& p) { p.swarms = 0; }, "swarms"},
        {[](P& p) { p.particles = 0; }, "particles"},
        {[](P& p) { p.swarms = 1 << 20; p.particles = 1 << 10; }, "particles"},
        {[](P& p) { p.iterations = 0; }, "iterations"},
        {[](P& p) { p.ring_radius = 0; }, "ring-radius"},
        {[](P& p) { p.topology = swarm::Topology::Ring; p.particles = 4; p.ring_radius = 2; }, "ring-radius"},
        {[](P& p) { p.target_error = -1; }, "target-error"},
        {[](P& p) { p.stall_iterations = -1; }, "stall"},
    };
    for (const auto& [mutate, field] : cases) {
        P p;
        mutate(p);
        expect_field([&] { p.validate(); }, field);
    }
    swarm::Params ok;
    EXPECT_NO_THROW(ok.validate());
}

TEST(Validation, BeesFieldsNamed) {
    using B = swarm::BeesParams;
    const std::pair<std::function<void(B&)>, std::string> cases[] = {
        {[](B& b) { b.selected = 0; }, "bees-selected"},
        {[](B& b) { b.elite = b.selected + 1; }, "bees-elite"},
        {[](B& b) { b.elite_recruits = 0; }, "bees-nep"},
        {[](B& b) { b.other_recruits = 0; }, "bees-nsp"},
        {[](B& b) { b.ngh = 0; }, "bees-ngh"},
        {[](B& b) { b.shrink = 1.5; }, "bees-shrink"},
        {[](B& b) { b.stlim = 0; }, "bees-stlim"},
        {[](B& b) { b.colonies_per_block = -1; }, "bees-colonies-per-block"},
    };
    for (const auto& [mutate, field] : cases) {
        B b;
        mutate(b);
        expect_field([&] { b.validate(); }, field);
    }
}

TEST(Validation, StartBoxFieldsNamed) {
    auto good = swarm::Problem::benchmark(swarm::Function::Sphere, 2); // bounds [-100, 100]
    good.init_lower = {-1, -1};
    good.init_upper = {1, 1};
    good.init_share = 0.5;
    EXPECT_NO_THROW(good.validate(3));
    auto p = good;
    p.init_lower = {0, 0, 0};
    expect_field([&] { p.validate(3); }, "init_lower");
    p = good;
    p.init_upper = {1, 1, 1, 1, 1, 1};
    expect_field([&] { p.validate(3); }, "init_upper");
    p = good;
    p.init_upper = {1, 200}; // leaves the bounds
    expect_field([&] { p.validate(3); }, "init_lower");
    p = good;
    p.init_lower = {2, -1}; // init_lower > init_upper
    expect_field([&] { p.validate(3); }, "init_lower");
    p = good;
    p.init_lower = {std::nan(""), -1};
    expect_field([&] { p.validate(3); }, "init_lower");
    for (const double share : {-0.1, 1.5, std::nan("")}) {
        p = good;
        p.init_share = share;
        expect_field([&] { p.validate(3); }, "init_share");
    }
    p = good; // per-swarm start boxes inside per-swarm bounds
    p.lower = {0, 0, 10, 10};
    p.upper = {1, 1, 11, 11};
    p.init_lower = {0.2, 0.2, 10.5, 10.5};
    p.init_upper = {0.4, 0.4, 10.6, 10.6};
    EXPECT_NO_THROW(p.validate(2));
    p.init_lower = {0.2, 0.2}; // one box for both swarms: outside swarm 1's bounds
    p.init_upper = {0.4, 0.4};
    expect_field([&] { p.validate(2); }, "init_lower");
}

TEST(Validation, ProblemFieldsNamed) {
    auto good = swarm::Problem::benchmark(swarm::Function::Sphere, 3);
    EXPECT_NO_THROW(good.validate(1));
    auto p = good;
    p.dims = 0;
    expect_field([&] { p.validate(1); }, "dims");
    p = good;
    p.lower = {1, 2};
    expect_field([&] { p.validate(1); }, "lower");
    p = good;
    p.upper = {1, 2};
    expect_field([&] { p.validate(1); }, "upper");
    p = good;
    p.lower = {0, 0, 5};
    p.upper = {1, 1, 5};
    expect_field([&] { p.validate(1); }, "lower");
    p = good;
    p.lower[0] = -INFINITY;
    expect_field([&] { p.validate(1); }, "lower");
    p = swarm::Problem::benchmark(swarm::Function::Easom, 2);
    p.dims = 3;
    p.lower.assign(3, -1);
    p.upper.assign(3, 1);
    expect_field([&] { p.validate(1); }, "dims");
    // per-swarm bounds need swarms x dims values
    p = good;
    p.lower.assign(6, -1);
    p.upper.assign(6, 1);
    EXPECT_NO_THROW(p.validate(2));
    expect_field([&] { p.validate(3); }, "lower");
    // Refused before its bounds are allocated (a fuzzer's 233,333,333 dimensions ran out of memory in benchmark()).
    expect_field([] { swarm::Problem::benchmark(swarm::Function::Rastrigin, 233333333); }, "dims");
    expect_field([] { swarm::Problem::benchmark(swarm::Function::Sphere, (1 << 16) + 1); }, "dims");
}

TEST(Validation, OptimizerRunValidates) {
    auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    swarm::Params p;
    p.particles = -3;
    expect_field([&] { swarm::create_optimizer(swarm::Strategy::CpuSerial)->run(pb, p); }, "particles");
}

TEST(Validation, StrategyAndBackendNames) {
    for (const auto s : swarm::all_strategies()) {
        EXPECT_EQ(swarm::parse_strategy(swarm::to_string(s)), s);
    }
    EXPECT_FALSE(swarm::parse_strategy("gpu-magic").has_value());
    EXPECT_EQ(swarm::parse_backend("cuda"), swarm::Backend::Cuda);
    EXPECT_FALSE(swarm::parse_backend("opencl").has_value());
    EXPECT_THROW(swarm::create_optimizer(swarm::Strategy::Auto), swarm::Error);
}

TEST(Validation, AutoResolvesToARunnableStrategy) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    std::string note;
    const auto s = swarm::resolve_strategy(swarm::Strategy::Auto, swarm::Backend::Cpu, pb, swarm::Params{}, &note);
    EXPECT_FALSE(swarm::is_gpu(s));
    EXPECT_NE(note.find("auto picked"), std::string::npos);
    EXPECT_THROW(swarm::resolve_strategy(swarm::Strategy::GpuSync, swarm::Backend::Cpu, pb, swarm::Params{}),
                 swarm::UnavailableError);
    EXPECT_THROW(swarm::resolve_strategy(swarm::Strategy::CpuSerial, swarm::Backend::Cuda, pb, swarm::Params{}),
                 swarm::UnavailableError);
}

} // namespace
