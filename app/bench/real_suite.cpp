// `swarmtrack bench --suite real --data DIR`: the tracker on a folder of real stills with box labels (the dev
// set's CSV or COCO JSON): every image processed on its own with a fresh tracker state (as `process --stills`),
// time per frame and per stage, then the scoring of `eval --labels`. The loop for tuning on real footage, as
// `--suite scenes` is for the synthetic scenes. --blur and --resave-quality degrade each frame first, to measure how
// the tracker holds up on softer cameras and on video's compression (docs/benchmarks.md, "Robustness").
// swarmtrack-bench builds it too, decoding JPEG frames with libjpeg (decode/still_image.h), so the dev frames run
// on a GPU machine that has only OpenCV core.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "bench/bench_suites.h"
#include "core/progress.h"
#include "core/tracker_setup.h"
#include "decode/still_image.h"
#include "real_eval_report.h"
#include "sources/image_name.h"
#include "tracker/eval.h"
#include "tracker/io.h"
#include "tracker/labels.h"

namespace app {
namespace {
namespace fs = std::filesystem;

// DIR/images when it exists, else DIR; its images sorted by name.
std::vector<fs::path> images_of(const fs::path& data) {
    const fs::path dir = fs::is_directory(data / "images") ? data / "images" : data;
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file() && is_image_name(e.path().string())) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    if (out.empty()) {
        throw std::runtime_error("--data " + data.string() + ": no images (.jpg, .png, .ppm, .bmp) in " + dir.string() +
                                 "; point --data at the folder of images or the folder holding images/");
    }
    return out;
}

// --labels, else DIR/labels.csv, else DIR/gt.txt (GTSDB as published), else the one .json in DIR (COCO).
std::string labels_of(const fs::path& data, const std::string& given) {
    if (!given.empty()) return given;
    for (const char* name : {"labels.csv", "gt.txt"}) {
        if (fs::is_regular_file(data / name)) return (data / name).string();
    }
    std::vector<fs::path> json;
    for (const auto& e : fs::directory_iterator(data)) {
        if (e.is_regular_file() && e.path().extension() == ".json") json.push_back(e.path());
    }
    if (json.size() == 1) return json[0].string();
    throw std::runtime_error("--data " + data.string() + ": " +
                             (json.empty() ? std::string("no labels.csv, gt.txt or COCO .json there")
                                           : std::string("several .json files there")) +
                             "; give the labels with --labels FILE");
}

double median_of(std::vector<double> v) { return tracker::median(std::move(v)); }

// The image as the robustness options deliver it: blurred, then re-saved (each when asked).
cv::Mat degraded(cv::Mat img, const BenchOptions& o) {
    if (o.blur > 0) {
        cv::GaussianBlur(img, img, cv::Size(), o.blur);
    }
    if (o.resave_quality > 0) {
        img = resave_jpeg(img, o.resave_quality, o.resave_chroma == "444" ? JpegChroma::Full : JpegChroma::Subsampled);
    }
    return img;
}

// The robustness options in words, for the report; empty when none is set.
std::string degradation_note(const BenchOptions& o) {
    std::string what;
    if (o.blur > 0) {
        what = "blurred by a Gaussian of sigma " + format_double(o.blur, 3) + " px";
    }
    if (o.resave_quality > 0) {
        what += (what.empty() ? "" : ", then ") + std::string("saved once more as JPEG at quality ") +
                std::to_string(o.resave_quality) + (o.resave_chroma == "444" ? " (4:4:4)" : " (4:2:0)");
    }
    return what.empty() ? what : "Each image " + what + " before tracking (in decode ms).";
}

} // namespace

BenchReport run_real_suite(const BenchOptions& o) {
    using Clock = std::chrono::steady_clock;
    if (o.data.empty()) {
        throw std::runtime_error("--suite real needs --data DIR (images, or a folder with images/ and labels.csv or a COCO .json)");
    }
    const fs::path data(o.data);
    std::error_code ec;
    if (!fs::is_directory(data, ec)) {
        throw std::runtime_error("--data " + o.data + ": no such folder; give the folder of the labelled images");
    }
    const std::vector<fs::path> images = images_of(data);
    const std::string labels_path = labels_of(data, o.labels);
    const tracker::LabelSet labels = tracker::read_labels(labels_path); // bad labels fail before minutes of tracking
    tracker::TrackerSettings settings = resolve_settings(o.config, o.engine.backend);
    // Opened before minutes of tracking, so an unwritable path fails first; committed only when complete.
    std::unique_ptr<tracker::AtomicTextWriter> predictions;
    if (!o.predictions.empty()) {
        predictions = std::make_unique<tracker::AtomicTextWriter>(o.predictions);
    }

    const std::size_t n = o.frames > 0 ? std::min(images.size(), static_cast<std::size_t>(o.frames)) : images.size();
    tracker::PredictionFile pred;
    std::vector<double> wall, decode, upload, preprocess, search, readback, candidates, classify, classify_gpu, total;
    std::vector<std::string> undecodable;
    std::unique_ptr<tracker::Tracker> tr;
    cv::Size tracker_size;
    Progress progress("real", static_cast<long long>(n), true);
    for (std::size_t i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        cv::Mat img = decode_still(images[i].string());
        if (img.empty()) {
            undecodable.push_back(images[i].filename().string());
            continue;
        }
        img = degraded(std::move(img), o);
        const auto t1 = Clock::now();
        if (!tr || img.size() != tracker_size) { // stills may differ in size and aspect ratio
            tracker_size = img.size();
            tr = tracker::create_tracker(settings, make_camera(settings, tracker_size));
        }
        const auto t_start = Clock::now(); // the tracker's construction is not a frame's cost
        // A fresh state per image: reset() forgets tracks and the frame count, so each still is searched as a
        // first frame with the same seeds (the tracker re-fits its camera to another image size itself).
        tr->reset();
        tracker::FrameResult r = tr->process(img);
        const auto t2 = Clock::now();
        const long long index = static_cast<long long>(i);
        tracker::FrameRecord rec{index, img.cols, img.rows, static_cast<int>(r.detections.size()), r.timing, true,
                                 images[i].filename().string()};
        pred.frames[index] = rec;
        for (auto& d : r.detections) {
            d.frame = index;
            pred.detections.push_back(std::move(d));
        }
        decode.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        wall.push_back(std::chrono::duration<double, std::milli>(t2 - t_start).count());
        upload.push_back(r.timing.upload_ms);
        preprocess.push_back(r.timing.preprocess_ms);
        search.push_back(r.timing.search_ms);
        readback.push_back(r.timing.readback_ms);
        candidates.push_back(r.timing.candidates_ms);
        classify.push_back(r.timing.classify_ms);
        classify_gpu.push_back(r.timing.classify_gpu_ms);
        total.push_back(r.timing.total_ms);
        progress.update(static_cast<long long>(i + 1));
    }
    progress.finish(static_cast<long long>(n));
    if (!tr) {
        throw std::runtime_error("--data " + o.data + ": none of the first " + std::to_string(n) +
                                 " images decodes as " + still_formats() + "; check the files");
    }

    if (predictions) {
        auto d = pred.detections.begin(); // in frame order, as they were found
        for (const auto& [index, rec] : pred.frames) {
            predictions->write_line(tracker::to_json_line(rec));
            for (; d != pred.detections.end() && d->frame == index; ++d) {
                predictions->write_line(tracker::to_json_line(*d));
            }
        }
        predictions->commit();
    }

    tracker::RealEvalSettings es;
    es.match_iou = o.match_iou;
    const tracker::RealEvalReport rep = tracker::evaluate_labels(labels, pred, es);
    auto tables = real_eval_tables(rep);
    BenchReport report;
    report.table = std::move(tables[0].second);
    const std::string backend = tr->backend_name();
    report.notes.push_back("Data " + o.data + " (" + std::to_string(pred.frames.size()) + " of " +
                           std::to_string(images.size()) + " images), labels " + labels_path + ", settings " +
                           (o.config.empty() ? "defaults" : o.config) + ", backend " + backend +
                           "; every image tracked on its own (tracker reset before each).");
    if (const std::string note = degradation_note(o); !note.empty()) {
        report.notes.push_back(note);
    }
    report.notes.push_back(real_eval_summary(rep, es) + ".");
    if (!undecodable.empty()) {
        std::string names;
        for (std::size_t i = 0; i < undecodable.size() && i < 5; ++i) names += (i ? ", " : "") + undecodable[i];
        report.notes.push_back("Skipped " + std::to_string(undecodable.size()) + " images that do not decode (" + names +
                               (undecodable.size() > 5 ? ", ..." : "") + "); their labels are not scored.");
    }
    for (std::size_t t = 1; t < tables.size(); ++t) {
        BenchReport section;
        section.table = std::move(tables[t].second);
        report.sections.emplace_back(tables[t].first, std::move(section));
    }
    BenchReport timing;
    timing.table = Table({"backend", "frames", "ms/frame", "decode ms", "upload", "preprocess", "search", "readback",
                          "candidates (host)", "classes (host)", "classes GPU", "tracker total"});
    timing.table.add({backend, std::to_string(wall.size()), format_double(median_of(wall), 4),
                      format_double(median_of(decode), 3), format_double(median_of(upload), 3),
                      format_double(median_of(preprocess), 3), format_double(median_of(search), 4),
                      format_double(median_of(readback), 3), format_double(median_of(candidates), 3),
                      format_double(median_of(classify), 3), format_double(median_of(classify_gpu), 3),
                      format_double(median_of(total), 4)});
    timing.notes.push_back("Medians over the frames, in ms. ms/frame: wall time of reset + process per image "
                           "(image decoding apart, in decode ms); the stages are the tracker's own StageTiming (classes: host wall "
                           "time of rectifying and classifying the detections; classes GPU: the rectification launch "
                           "and its copies).");
    report.sections.emplace_back("time per frame", std::move(timing));
    report.json_extra = {{"evaluation", real_eval_json(rep, es)},
                         {"time_ms", {{"median_frame", median_of(wall)}, {"median_decode", median_of(decode)},
                                      {"median_upload", median_of(upload)}, {"median_preprocess", median_of(preprocess)},
                                      {"median_search", median_of(search)}, {"median_readback", median_of(readback)},
                                      {"median_candidates", median_of(candidates)},
                                      {"median_classes", median_of(classify)},
                                      {"median_classes_gpu", median_of(classify_gpu)},
                                      {"median_total", median_of(total)}}},
                         {"backend", backend},
                         {"data", o.data},
                         {"labels", labels_path},
                         {"frames", wall.size()},
                         {"blur_sigma_px", o.blur},
                         {"resave_quality", o.resave_quality},
                         {"resave_chroma", o.resave_chroma},
                         {"undecodable", undecodable}};
    return report;
}

} // namespace app
