#include "bees/cuba_plan.h"

#include <algorithm>
#include <string>

#include "bees/cuba_block.h"
#include "swarm/errors.h"

namespace swarm::detail {

CubaPlan plan_cuba(const Problem& problem, const Params& params, const BeesParams& bees, std::size_t real_size,
                   std::size_t shared_limit) {
    if (problem.evaluator || problem.host_function) {
        throw UnavailableError("gpu-bees runs the built-in benchmark functions only; use cpu-bees for a host function "
                               "or a batched evaluator");
    }
    if (params.particles > 1024) {
        throw ValidationError("particles", "gpu-bees runs one thread per bee, so a colony holds at most 1024 bees "
                                           "(got " + std::to_string(params.particles) + ")");
    }
    CubaPlan plan;
    plan.stride = bees::cuba_stride(problem.dims);
    const auto bytes = [&](int per_block) {
        const auto rows = static_cast<std::size_t>(per_block) * static_cast<std::size_t>(params.particles);
        return rows * (2 * static_cast<std::size_t>(plan.stride) + 2) * real_size;
    };
    if (bees.colonies_per_block > 0) {
        plan.per_block = bees.colonies_per_block;
        if (bytes(plan.per_block) > shared_limit) {
            throw ValidationError("bees-colonies-per-block",
                                  std::to_string(plan.per_block) + " colonies of " + std::to_string(params.particles) +
                                      " bees in " + std::to_string(problem.dims) + " dims need " +
                                      std::to_string(bytes(plan.per_block)) + " bytes of shared memory per block, the "
                                      "device allows " + std::to_string(shared_limit) + "; use fewer colonies per block");
        }
    } else {
        plan.per_block = std::max(1, std::min(params.swarms, 256 / params.particles));
        while (plan.per_block > 1 && bytes(plan.per_block) > shared_limit) {
            plan.per_block /= 2;
        }
        if (bytes(plan.per_block) > shared_limit) {
            throw ValidationError("dims", "one colony of " + std::to_string(params.particles) + " bees in " +
                                              std::to_string(problem.dims) + " dims needs " +
                                              std::to_string(bytes(1)) + " bytes of shared memory, the device allows " +
                                              std::to_string(shared_limit) + "; use fewer particles or cpu-bees");
        }
    }
    plan.blocks = (params.swarms + plan.per_block - 1) / plan.per_block;
    plan.threads = plan.per_block * params.particles;
    plan.shared_bytes = bytes(plan.per_block);
    return plan;
}

long long cuba_evaluations(const Params& params, const BeesParams& bees, long long cycles) {
    const long long per_cycle = static_cast<long long>(bees.selected) * bees.elite_recruits + params.particles - bees.selected;
    return static_cast<long long>(params.swarms) * (params.particles + cycles * per_cycle);
}

std::vector<double> colony_bounds(const Problem& problem, int colonies, bool upper) {
    std::vector<double> out(static_cast<std::size_t>(colonies) * static_cast<std::size_t>(problem.dims));
    for (int s = 0; s < colonies; ++s) {
        for (int d = 0; d < problem.dims; ++d) {
            out[static_cast<std::size_t>(s) * problem.dims + d] = upper ? problem.upper_of(s, d) : problem.lower_of(s, d);
        }
    }
    return out;
}

} // namespace swarm::detail
