#pragma once
// The PyTorch PSO peer (app/bench/peers/pso_torch.py) run as a child process by `bench --suite peers`: where the
// script is, whether the interpreter imports torch, and one run's JSON line.
#include <string>

#include "swarm/optimizer.h"

namespace app {

// The peer's figure for one workload (the script's JSON line), or why there is none.
struct TorchPeerRun {
    bool ok = false;
    double ms = 0;      // median of the script's runs, CUDA events around the iterations
    double best = 0;    // the function's own sense (the cubic's maximum)
    std::string torch;  // PyTorch version
    std::string device; // the GPU PyTorch ran on
    std::string error;  // one line when !ok
};

class TorchPeer {
public:
    // `script`: the --peer-script option (empty: the shipped copy, as find_peer_script looks for it); a named
    // file that is missing throws ValidationError. `python`: the interpreter (--peer-python).
    TorchPeer(std::string python, const std::string& script);

    // Asks the interpreter to import torch (the peer is skipped when it cannot); `disable` skips it for a reason.
    void probe();
    void disable(const std::string& reason) { m_reason = reason; }

    // False with a one-line reason when the script is not found, the interpreter cannot import torch, or a run
    // said the machine lacks what it needs (PyTorch, CUDA, torch.compile): later runs would say the same.
    bool usable() const { return m_reason.empty(); }
    const std::string& reason() const { return m_reason; }
    const std::string& script() const { return m_script; }

    // One workload (sphere or cubic, the problem's bounds are the script's own), `runs` timed runs.
    TorchPeerRun run(const swarm::Problem& problem, const swarm::Params& params, int runs);

private:
    std::string m_python, m_script, m_reason;
};

// The shipped script: $SWARMTRACK_ASSETS/peers or PREFIX/share/swarmtrack/peers beside an installed binary, else
// the source tree's app/bench/peers for a binary run from its build folder. Empty when none exists.
std::string find_peer_script();

} // namespace app
