// Tracker settings JSON (--config, GUI presets): TrackerSettings::load. A file that loads must also
// validate, save, and load again to the same values.
#include "fuzz_common.h"
#include "tracker/tracker.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::TempFile in(data, size, ".json");
    tracker::TrackerSettings s;
    bool loaded = false;
    fuzz::expect_clean([&] {
        s = tracker::TrackerSettings::load(in.path());
        loaded = true;
    });
    if (!loaded) return 0; // refused with the documented one-line error: nothing more to check
    // load promises validated settings, so from here on any throw at all is a finding, not a clean error.
    try {
        s.validate();
        fuzz::TempFile out(nullptr, 0, ".saved.json");
        s.save(out.path());
        const tracker::TrackerSettings again = tracker::TrackerSettings::load(out.path());
        if (again.search.particles != s.search.particles || again.search.generations != s.search.generations ||
            again.search.seed != s.search.seed || again.search.topology != s.search.topology ||
            again.engine.backend != s.engine.backend || again.engine.strategy != s.engine.strategy ||
            again.signs.categories != s.signs.categories) {
            std::fprintf(stderr, "fuzz finding: settings changed in a save/load round trip\n");
            std::abort();
        }
    } catch (const std::exception& e) {
        fuzz::finding("a loaded config failed to validate, save or load again", e);
    }
    return 0;
}
