#pragma once
// Strategy and backend names: the CLI and the benchmark tables use exactly these strings.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace swarm {

enum class Strategy {
    Auto,
    CpuSerial,      // sequential SPSO, the reference every seed compares against
    CpuParallel,    // threads over swarms/particles (FastPSO's OpenMP comparison point)
    GpuReduction,   // 002 CPSO / 000: thread per particle, shared-memory tree reduction for gbest
    GpuUnrolled,    // 000: warp-unrolled reduction, race-free with shuffles
    GpuQueue,       // 000: shared-memory queue of improving particles
    GpuQueueLock,   // 000: queue + global lock, one fused launch per iteration
    GpuRing3k,      // 003 RingPSO: position / fitness / best-update kernels
    GpuRing2k,      // 003 RingPSO: best update fused into the position update
    GpuFused,       // one persistent launch for many swarms and many iterations
    GpuSync,        // 003 SyncPSO: one block per swarm, state on chip, whole run in one launch
    GpuElementwise, // 001 FastPSO: thread per particle x dimension, cuRAND matrices
    CpuBees,        // 004 Bees Algorithm, sequential
    GpuBees,        // 004 CUBA
};

enum class Backend { Auto, Cpu, Cuda };

std::string_view to_string(Strategy s);
std::string_view to_string(Backend b);
std::optional<Strategy> parse_strategy(std::string_view name);
std::optional<Backend> parse_backend(std::string_view name);

// Every concrete strategy (not Auto), in table order.
const std::vector<Strategy>& all_strategies();
bool is_gpu(Strategy s);
bool is_bees(Strategy s);

} // namespace swarm
