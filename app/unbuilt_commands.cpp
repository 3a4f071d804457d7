// Subcommands whose issues have not landed yet: present in the CLI, honest about it.
#include <string>

#include "commands.h"
#include "swarm/errors.h"

namespace app {

void register_unbuilt(CLI::App& root, int& /*rc*/) {
    const std::pair<const char*, const char*> planned[] = {
        {"synth", "Render a synthetic scene with ground truth"},
        {"eval", "Score predictions against ground truth"},
    };
    for (const auto& [name, help] : planned) {
        auto* sub = root.add_subcommand(name, std::string(help) + " (not built yet)");
        sub->allow_extras();
        const std::string n = name;
        sub->callback([n] {
            throw swarm::UnavailableError("'" + n + "' is not built yet in this version; see README.md for what works now");
        });
    }
}

} // namespace app
