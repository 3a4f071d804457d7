#include "swarm/strategy.h"

#include <array>
#include <utility>

namespace swarm {
namespace {
constexpr std::array<std::pair<Strategy, std::string_view>, 14> k_names = {{
    {Strategy::Auto, "auto"},
    {Strategy::CpuSerial, "cpu-serial"},
    {Strategy::CpuParallel, "cpu-parallel"},
    {Strategy::GpuReduction, "gpu-reduction"},
    {Strategy::GpuUnrolled, "gpu-unrolled"},
    {Strategy::GpuQueue, "gpu-queue"},
    {Strategy::GpuQueueLock, "gpu-queue-lock"},
    {Strategy::GpuRing3k, "gpu-ring-3k"},
    {Strategy::GpuRing2k, "gpu-ring-2k"},
    {Strategy::GpuFused, "gpu-fused"},
    {Strategy::GpuSync, "gpu-sync"},
    {Strategy::GpuElementwise, "gpu-elementwise"},
    {Strategy::CpuBees, "cpu-bees"},
    {Strategy::GpuBees, "gpu-bees"},
}};
} // namespace

std::string_view to_string(Strategy s) {
    for (const auto& [id, name] : k_names) {
        if (id == s) {
            return name;
        }
    }
    return "unknown";
}

std::string_view to_string(Backend b) {
    switch (b) {
    case Backend::Auto: return "auto";
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
    }
    return "unknown";
}

std::optional<Strategy> parse_strategy(std::string_view name) {
    for (const auto& [id, n] : k_names) {
        if (n == name) {
            return id;
        }
    }
    return std::nullopt;
}

std::optional<Backend> parse_backend(std::string_view name) {
    if (name == "auto") return Backend::Auto;
    if (name == "cpu") return Backend::Cpu;
    if (name == "cuda") return Backend::Cuda;
    return std::nullopt;
}

const std::vector<Strategy>& all_strategies() {
    static const std::vector<Strategy> list = [] {
        std::vector<Strategy> v;
        for (const auto& [id, name] : k_names) {
            if (id != Strategy::Auto) {
                v.push_back(id);
            }
        }
        return v;
    }();
    return list;
}

bool is_gpu(Strategy s) {
    return to_string(s).substr(0, 4) == "gpu-";
}

bool is_bees(Strategy s) {
    return s == Strategy::CpuBees || s == Strategy::GpuBees;
}

} // namespace swarm
