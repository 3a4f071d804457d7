// Tracker settings JSON (--config, GUI presets): TrackerSettings::load. A file that loads must also
// validate, save, and load again to the same values.
#include "fuzz_common.h"
#include "tracker/tracker.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::TempFile in(data, size, ".json");
    fuzz::expect_clean([&] {
        const tracker::TrackerSettings s = tracker::TrackerSettings::load(in.path());
        s.validate(); // load promises validated settings: a throw here is a finding
        fuzz::TempFile out(nullptr, 0, ".saved.json");
        s.save(out.path());
        const tracker::TrackerSettings again = tracker::TrackerSettings::load(out.path());
        if (again.particles != s.particles || again.generations != s.generations || again.seed != s.seed ||
            again.backend != s.backend || again.strategy != s.strategy || again.categories != s.categories) {
            std::fprintf(stderr, "fuzz finding: settings changed in a save/load round trip\n");
            std::abort();
        }
    });
    return 0;
}
