#include "bench/bench_peers_torch.h"

#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "swarm/errors.h"
#include "tracker/assets.h"

namespace app {
namespace {
namespace fs = std::filesystem;

constexpr const char* k_script_name = "pso_torch.py";

// One argument for `sh -c`, single-quoted.
std::string shell_quoted(const std::string& s) {
    std::string out = "'";
    for (const char c : s) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

struct Child {
    int status = -1; // exit status, or -1 when it did not exit normally
    std::vector<std::string> lines;
};

// Runs `command` (stdout and stderr together) and keeps its output lines.
Child run_command(const std::string& command) {
    Child c;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) {
        c.lines.emplace_back("could not start a shell for: " + command);
        return c;
    }
    std::array<char, 4096> buf{};
    std::string text;
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) {
        text += buf.data();
    }
    const int st = ::pclose(pipe);
    c.status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) c.lines.push_back(line);
    }
    return c;
}

// What the child said last: the script's own one-line error when it wrote one, else its last line.
std::string last_words(const Child& c) {
    for (auto it = c.lines.rbegin(); it != c.lines.rend(); ++it) {
        if (it->rfind("pso_torch: ", 0) == 0) return *it;
    }
    return c.lines.empty() ? "no output, exit status " + std::to_string(c.status) : c.lines.back();
}

std::string number(double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}

} // namespace

std::string find_peer_script() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("SWARMTRACK_ASSETS"); env != nullptr && *env != '\0') {
        candidates.push_back(fs::path(env) / "peers" / k_script_name);
    }
    const std::string exe = tracker::executable_dir();
    if (!exe.empty()) {
        candidates.push_back(fs::path(exe) / ".." / "share" / "swarmtrack" / "peers" / k_script_name);
        // Only a binary inside its build folder reads the source tree, as for the assets (tracker/assets.h).
        const std::string build_dir = SWARMTRACK_BUILD_DIR;
        if (exe.compare(0, build_dir.size(), build_dir) == 0) {
            candidates.push_back(fs::path(SWARMTRACK_PEERS_SOURCE_DIR) / k_script_name);
        }
    }
    for (const auto& c : candidates) {
        std::error_code ec;
        if (fs::is_regular_file(c, ec)) return fs::weakly_canonical(c, ec).string();
    }
    return {};
}

TorchPeer::TorchPeer(std::string python, const std::string& script) : m_python(std::move(python)) {
    if (!script.empty()) {
        std::error_code ec;
        if (!fs::is_regular_file(script, ec)) {
            throw swarm::ValidationError("peer-script", script + ": no such file; point it at the repository's "
                                                                 "app/bench/peers/pso_torch.py or leave it out");
        }
        m_script = script;
    } else {
        m_script = find_peer_script();
        if (m_script.empty()) {
            m_reason = std::string(k_script_name) + " not found beside the binary (share/swarmtrack/peers) nor in the "
                                                    "source tree; pass --peer-script";
        }
    }
}

void TorchPeer::probe() {
    if (!usable()) return;
    const Child c = run_command(shell_quoted(m_python) + " -c 'import torch'");
    if (c.status != 0) {
        m_reason = m_python + " -c 'import torch' failed (" + last_words(c) + ")";
    }
}

TorchPeerRun TorchPeer::run(const swarm::Problem& problem, const swarm::Params& params, int runs) {
    TorchPeerRun r;
    if (!usable()) {
        r.error = m_reason;
        return r;
    }
    const char* function = problem.function == swarm::Function::Sphere  ? "sphere"
                           : problem.function == swarm::Function::Cubic ? "cubic"
                                                                        : nullptr;
    if (function == nullptr) {
        r.error = "the PyTorch peer runs sphere and cubic only";
        return r;
    }
    const std::string command =
        shell_quoted(m_python) + " " + shell_quoted(m_script) + " --function " + function + " --particles " +
        std::to_string(params.particles) + " --dims " + std::to_string(problem.dims) + " --iterations " +
        std::to_string(params.iterations) + " --runs " + std::to_string(runs) + " --precision " +
        (params.precision == swarm::Precision::FP64 ? "fp64" : "fp32") + " --w " + number(params.w) + " --c1 " +
        number(params.c1) + " --c2 " + number(params.c2) + " --vmax " + number(params.v_max_fraction) + " --seed " +
        std::to_string(params.seed);
    const Child c = run_command(command);
    if (c.status != 0) {
        r.error = last_words(c);
        if (c.status == 3) m_reason = r.error; // the machine lacks PyTorch, CUDA or torch.compile
        return r;
    }
    for (auto it = c.lines.rbegin(); it != c.lines.rend(); ++it) {
        if (it->empty() || it->front() != '{') continue;
        try {
            const auto j = nlohmann::json::parse(*it);
            r.ms = j.at("ms").get<double>();
            r.best = j.at("best").get<double>();
            r.torch = j.at("torch").get<std::string>();
            r.device = j.at("device").get<std::string>();
            r.ok = std::isfinite(r.ms) && r.ms > 0;
            if (!r.ok) r.error = "the peer reported a time of " + number(r.ms) + " ms";
        } catch (const nlohmann::json::exception& e) {
            r.error = std::string("unreadable result line from ") + k_script_name + " (" + e.what() + ")";
        }
        return r;
    }
    r.error = std::string(k_script_name) + " printed no result line (" + last_words(c) + ")";
    return r;
}

} // namespace app
