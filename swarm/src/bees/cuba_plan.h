#pragma once
// How gpu-bees lays colonies out on blocks, shared by the launcher and its host emulation. Plain C++.
#include <cstddef>
#include <vector>

#include "swarm/optimizer.h"

namespace swarm::detail {

struct CubaPlan {
    int per_block = 1;            // colonies per block (CUBA's BlockDim / N)
    int blocks = 1;               // the last one may hold fewer colonies
    int threads = 1;              // per_block * n
    int stride = 1;               // row length in shared memory
    std::size_t shared_bytes = 0; // dynamic shared memory per block
};

// Validates the CUBA-specific limits (ValidationError naming the field) and picks the layout. Auto
// (colonies_per_block = 0) takes up to 256 threads per block and halves until the rows fit in
// `shared_limit` bytes; an explicit value that does not fit is an error.
CubaPlan plan_cuba(const Problem& problem, const Params& params, const BeesParams& bees, std::size_t real_size,
                   std::size_t shared_limit);

// Evaluations of a CUBA run of `cycles` cycles: the initial scouts, then per colony and cycle nep for
// each selected site and one per scout.
long long cuba_evaluations(const Params& params, const BeesParams& bees, long long cycles);

// Per-colony bounds, colonies x dims, whichever layout the problem uses.
std::vector<double> colony_bounds(const Problem& problem, int colonies, bool upper);

// The emulation of gpu-bees on the host: the same per-thread steps in the same order, one row after
// the other. Tests compare the kernels with it; it also tunes settings on machines without a GPU.
Result run_cuba_host(const Problem& problem, const Params& params, const BeesParams& bees, int per_block = 0);

} // namespace swarm::detail
