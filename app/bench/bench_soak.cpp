// `swarmtrack bench --suite soak --frames N`: the tracker on a long synthetic stream (the four scenes in
// turn, new seeds each time, one tracker throughout, never reset), watching for leaks and slow-downs:
// host RSS and device memory before the first frame, after the first 10 % (warm: caches and pools filled)
// and at the end, and the per-frame tracker time of the first vs the last 10 % (medians). Memory that
// grows after the warm-up fails the suite. Links no video I/O (runs in swarmtrack-bench builds too).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bench/bench_suites.h"
#include "scenes/synthetic.h"
#include "swarm/device_memory.h"
#include "swarm/errors.h"
#include "tracker/tracker.h"

namespace app {
namespace {

constexpr double k_mib = 1024.0 * 1024.0;
// Growth after the warm-up that counts as a leak: a few MiB of allocator slack is not one.
constexpr double k_allowed_growth_mib = 32.0;

double rss_mib() {
    std::ifstream statm("/proc/self/statm");
    long long pages_total = 0, pages_resident = 0;
    statm >> pages_total >> pages_resident;
    return static_cast<double>(pages_resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / k_mib;
}

double peak_rss_mib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmHWM:") {
            double kib = 0;
            status >> kib;
            return kib / 1024.0;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0;
}

struct Snapshot {
    double rss = 0;
    swarm::DeviceMemoryInfo device;
    double device_used() const { return static_cast<double>(device.total_bytes - device.free_bytes) / k_mib; }
};

Snapshot snapshot() { return {rss_mib(), swarm::device_memory_info()}; }

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

std::string change(double from, double to) {
    const double d = to - from;
    return (d >= 0 ? "+" : "") + format_double(d, 3);
}

} // namespace

BenchReport run_soak_suite(const BenchOptions& o) {
    const long long frames = o.frames > 0 ? o.frames : 10000;
    if (frames < 20) throw swarm::ValidationError("frames", "the soak needs at least 20 frames (got " + std::to_string(frames) + ")");
    tracker::TrackerSettings settings;
    settings.engine.backend = parse_backend_option(o.engine.backend);
    settings.search.seed = o.engine.seed;
    settings.search.particles = o.particles;
    if (o.generations > 0) settings.search.generations = o.generations;
    const std::vector<std::string> scenes = tracker::scene_names();
    long long scene_index = 0;
    auto scene = tracker::create_scene(scenes[0], o.width, o.height, o.engine.seed);
    long long scene_left = scene->frame_count();
    auto tracker = tracker::create_tracker(settings, scene->camera());

    const long long tenth = std::max(1LL, frames / 10);
    std::vector<double> ms;
    // Sized and written before the first snapshot: filled as the run goes, its pages (8 bytes a frame, 0.7 MiB
    // for 100,000 frames) would show up as RSS growth after the warm-up.
    ms.assign(static_cast<std::size_t>(frames), 0.0);
    long long detections = 0;
    const Snapshot start = snapshot();
    Snapshot warm;
    const auto t_start = std::chrono::steady_clock::now();
    for (long long f = 0; f < frames; ++f) {
        if (scene_left == 0) { // next scene, next seed; the tracker carries on as on a real drive
            ++scene_index;
            scene = tracker::create_scene(scenes[static_cast<std::size_t>(scene_index) % scenes.size()], o.width, o.height,
                                          o.engine.seed + static_cast<unsigned long long>(scene_index));
            scene_left = scene->frame_count();
        }
        const tracker::SceneFrame sf = scene->next();
        --scene_left;
        const auto t0 = std::chrono::steady_clock::now();
        const tracker::FrameResult r = tracker->process(sf.bgr);
        ms[static_cast<std::size_t>(f)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        detections += static_cast<long long>(r.detections.size());
        if (f + 1 == tenth) warm = snapshot();
        if ((f + 1) % 1000 == 0) {
            std::fprintf(stderr, "soak: %lld/%lld frames, RSS %.1f MiB, last frame %.2f ms\n", f + 1, frames, rss_mib(),
                         ms[static_cast<std::size_t>(f)]);
        }
    }
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    const Snapshot end = snapshot();
    const double first = median({ms.begin(), ms.begin() + tenth});
    const double last = median({ms.end() - tenth, ms.end()});

    BenchReport report;
    report.table = Table({"measure", "start", "after 10 %", "end", "end - after 10 %"});
    report.table.add({"host RSS (MiB)", format_double(start.rss), format_double(warm.rss), format_double(end.rss),
                      change(warm.rss, end.rss)});
    if (end.device.available) {
        report.table.add({"device used, all processes (MiB)", format_double(start.device_used()),
                          format_double(warm.device_used()), format_double(end.device_used()),
                          change(warm.device_used(), end.device_used())});
        report.table.add({"engine pool cached (MiB)", format_double(start.device.pool_cached_bytes / k_mib),
                          format_double(warm.device.pool_cached_bytes / k_mib), format_double(end.device.pool_cached_bytes / k_mib),
                          change(warm.device.pool_cached_bytes / k_mib, end.device.pool_cached_bytes / k_mib)});
        report.table.add({"engine pool cudaMalloc calls", std::to_string(start.device.pool_driver_allocations),
                          std::to_string(warm.device.pool_driver_allocations), std::to_string(end.device.pool_driver_allocations),
                          change(static_cast<double>(warm.device.pool_driver_allocations),
                                 static_cast<double>(end.device.pool_driver_allocations))});
    }
    report.table.add({"tracker ms/frame (median of 10 %)", "", format_double(first), format_double(last),
                      change(first, last) + " (" + format_double(first > 0 ? 100.0 * (last - first) / first : 0.0, 3) + " %)"});
    report.notes.push_back("Soak: " + std::to_string(frames) + " frames of " + std::to_string(o.width) + "x" +
                           std::to_string(o.height) + " synthetic scenes (" + std::to_string(scene_index + 1) +
                           " scene runs, one tracker, never reset) on " + tracker->backend_name() + ", " +
                           std::to_string(settings.search.particles) + " particles x " +
                           std::to_string(settings.search.generations) + " generations; " + std::to_string(detections) + " detections; " + format_double(wall_s) +
                           " s wall, " + format_double(frames / wall_s) + " frames/s including rendering. Peak RSS " +
                           format_double(peak_rss_mib()) + " MiB.");
    const double host_growth = end.rss - warm.rss;
    const double device_growth = end.device.available ? end.device_used() - warm.device_used() : 0.0;
    if (host_growth > k_allowed_growth_mib || device_growth > k_allowed_growth_mib) {
        report.failed = true;
        report.notes.push_back("FAIL: memory grew after the warm-up (host " + format_double(host_growth, 3) + " MiB, device " +
                               format_double(device_growth, 3) + " MiB; allowed " + format_double(k_allowed_growth_mib, 3) +
                               " MiB)");
    } else {
        report.notes.push_back("Memory flat after the warm-up (growth allowed: " + format_double(k_allowed_growth_mib, 3) +
                               " MiB).");
    }
    return report;
}

} // namespace app
