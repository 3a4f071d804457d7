// JSON-lines files of `synth`, `process` and `eval` (ground truth and detections): read_truth and
// read_predictions on the same bytes; what loads is written back with to_json_line and read again.
#include "fuzz_common.h"
#include "tracker/io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::TempFile in(data, size, ".jsonl");
    fuzz::expect_clean([&] {
        const tracker::TruthFile t = tracker::read_truth(in.path());
        std::string text;
        for (const auto& [n, f] : t.frames) text += tracker::to_json_line(f) + "\n";
        for (const auto& g : t.truth) text += tracker::to_json_line(g) + "\n";
        fuzz::TempFile again(reinterpret_cast<const uint8_t*>(text.data()), text.size(), ".again.jsonl");
        const tracker::TruthFile t2 = tracker::read_truth(again.path());
        if (t2.truth.size() != t.truth.size() || t2.frames.size() != t.frames.size()) {
            std::fprintf(stderr, "fuzz finding: ground truth changed in a write/read round trip\n");
            std::abort();
        }
    });
    fuzz::expect_clean([&] {
        const tracker::PredictionFile p = tracker::read_predictions(in.path());
        std::string text;
        for (const auto& [n, f] : p.frames) text += tracker::to_json_line(f) + "\n";
        for (const auto& d : p.detections) text += tracker::to_json_line(d) + "\n";
        fuzz::TempFile again(reinterpret_cast<const uint8_t*>(text.data()), text.size(), ".again.jsonl");
        const tracker::PredictionFile p2 = tracker::read_predictions(again.path());
        if (p2.detections.size() != p.detections.size() || p2.frames.size() != p.frames.size()) {
            std::fprintf(stderr, "fuzz finding: detections changed in a write/read round trip\n");
            std::abort();
        }
    });
    return 0;
}
