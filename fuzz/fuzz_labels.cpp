// Box label files of real footage (`eval --labels`, `bench --suite real`, `diagnose_real`): the same bytes read as
// the CSV / GTSDB gt.txt (read_labels_csv, with a class list of its own so 6-field lines reach the class lookup) and
// as COCO detection JSON (read_labels_coco). What loads must be boxes of positive size on known images.
#include <cmath>

#include "fuzz_common.h"
#include "tracker/labels.h"
#include "tracker/sign_classes.h"

namespace {

void check(const tracker::LabelSet& set) {
    for (const auto& l : set.labels) {
        if (!(l.box.width > 0.f) || !(l.box.height > 0.f) || !std::isfinite(l.box.x) || !std::isfinite(l.box.y) ||
            !std::isfinite(l.box.width) || !std::isfinite(l.box.height)) {
            std::fprintf(stderr, "fuzz finding: a label box %g %g %g %g loaded\n", l.box.x, l.box.y, l.box.width,
                         l.box.height);
            std::abort();
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::vector<tracker::SignClass> classes = {
        {0, "speed limit 20", "prohibitory", tracker::Category::Prohibitory},
        {11, "priority at next intersection", "danger", tracker::Category::Danger},
        {12, "priority road", "other", std::nullopt}};
    fuzz::TempFile csv(data, size, ".csv");
    fuzz::expect_clean([&] { check(tracker::read_labels_csv(csv.path(), &classes)); });
    fuzz::TempFile coco(data, size, ".json");
    fuzz::expect_clean([&] { check(tracker::read_labels_coco(coco.path())); });
    return 0;
}
