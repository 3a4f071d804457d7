// Sign model files (assets/signs/*.json, --models): load_sign_model, then what the tracker derives from
// a model (edge points along the outline).
#include <cmath>

#include "fuzz_common.h"
#include "tracker/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::TempFile in(data, size, ".json");
    fuzz::expect_clean([&] {
        const tracker::SignModel m = tracker::load_sign_model(in.path());
        if (!(m.radius > 0) || !std::isfinite(m.radius) || m.outline.size() < 3) {
            std::fprintf(stderr, "fuzz finding: a model loaded with radius %g and %zu outline points\n", m.radius,
                         m.outline.size());
            std::abort();
        }
        const auto edges = tracker::edge_points(m.outline, 32);
        for (const auto& p : edges) {
            if (!std::isfinite(p.position.x) || !std::isfinite(p.normal.x)) {
                std::fprintf(stderr, "fuzz finding: non-finite edge point\n");
                std::abort();
            }
        }
    });
    return 0;
}
