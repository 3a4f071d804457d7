#pragma once
// The engine's entry point: a strategy chosen by name, created by a factory, run on a Problem.
#include <memory>
#include <string>

#include "swarm/params.h"
#include "swarm/problem.h"
#include "swarm/result.h"
#include "swarm/strategy.h"

namespace swarm {

class Optimizer {
public:
    virtual ~Optimizer() = default;
    virtual Strategy strategy() const = 0;
    // Validates params and problem (ValidationError), then runs. Reusable: device memory is cached.
    virtual Result run(const Problem& problem, const Params& params) = 0;
    // Bees strategies read these; PSO strategies ignore them.
    virtual void set_bees_params(const BeesParams& bees) { m_bees = bees; }

protected:
    BeesParams m_bees;
};

struct Availability {
    bool available = false;
    std::string reason; // why not, when unavailable
};

// Whether `s` can run here (CPU always; GPU needs a CUDA build and a device).
Availability availability(Strategy s);
bool cuda_device_present();
std::string cuda_device_name(); // empty without a device

// Resolves `requested` to a concrete strategy that can run here. Auto picks by problem shape; a GPU
// strategy with Backend::Auto and no usable GPU falls back to its CPU counterpart. `note` (if given)
// receives one line saying what was chosen and why. Backend::Cuda without a GPU throws UnavailableError.
Strategy resolve_strategy(Strategy requested, Backend backend, const Problem& problem, const Params& params,
                          std::string* note = nullptr);

// Creates a concrete strategy (not Auto). Throws UnavailableError when it cannot run here.
std::unique_ptr<Optimizer> create_optimizer(Strategy s);

// Convenience: resolve + create + run.
Result optimize(const Problem& problem, const Params& params, Strategy s = Strategy::Auto,
                Backend backend = Backend::Auto, std::string* note = nullptr);

} // namespace swarm
