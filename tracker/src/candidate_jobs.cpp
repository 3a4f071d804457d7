#include "candidate_jobs.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tracker/eval.h"

namespace tracker {
namespace {

// A region is a sign's painted part: its centre is within a fifth of its size of the sign's, and its size
// within 30 % of the model's projection (a ring's region is the sign; a triangle's border region too).
constexpr double k_centre_slack = 0.2;
constexpr double k_centre_slack_px = 1.5;
constexpr double k_depth_factor = 1.3;
// best_jobs: probe boxes overlapping this much, and of about one size, are one place, searched by at most this many
// models at first. A box 1.25x another's width inside it is another guess: the whole sign around a part of it that
// probed better (a mandatory disc around its pictogram's half), which must get its own swarm.
constexpr double k_same_place_iou = 0.5;
constexpr double k_same_place_scale = 1.25;
constexpr int k_models_per_place = 2;

bool same_place(const cv::Rect2f& a, const cv::Rect2f& b) {
    const double small = std::min(a.area(), b.area()), large = std::max(a.area(), b.area());
    return box_iou(a, b) > k_same_place_iou && large <= k_same_place_scale * k_same_place_scale * small;
}

// best_jobs' reserve: up to `reserve` confirmed jobs that fitness left out, best probe first and one per place and
// model, take the slots of the last unconfirmed jobs kept.
void give_confirmed_their_slots(const std::vector<std::size_t>& order, const std::vector<ProbePlace>& places,
                                const std::vector<bool>& confirmed, int reserve, std::vector<std::size_t>& kept) {
    std::vector<bool> in(order.size(), false);
    for (std::size_t k : kept) {
        in[k] = true;
    }
    auto repeats = [&](std::size_t j, const std::vector<std::size_t>& jobs) {
        return std::any_of(jobs.begin(), jobs.end(), [&](std::size_t k) {
            return places[k].model == places[j].model && same_place(places[j].box, places[k].box);
        });
    };
    std::vector<std::size_t> extra;
    for (std::size_t j : order) {
        if (static_cast<int>(extra.size()) == reserve) {
            break;
        }
        if (!in[j] && confirmed[j] && !repeats(j, kept) && !repeats(j, extra)) {
            extra.push_back(j);
        }
    }
    std::size_t end = kept.size();
    for (std::size_t j : extra) {
        while (end > 0 && confirmed[kept[end - 1]]) {
            --end;
        }
        if (end == 0) {
            return;
        }
        kept[--end] = j;
    }
}

} // namespace

void narrow_job(SwarmJob& job, const std::vector<double>& centre, double share) {
    for (std::size_t d = 0; d < job.lower.size(); ++d) {
        const double half = 0.5 * share * (job.upper[d] - job.lower[d]);
        const double c = std::clamp(centre[d], job.lower[d] + half, job.upper[d] - half);
        job.lower[d] = c - half;
        job.upper[d] = c + half;
    }
}

std::vector<double> job_centre(const SwarmJob& job) {
    std::vector<double> centre(job.lower.size());
    for (std::size_t d = 0; d < centre.size(); ++d) {
        centre[d] = 0.5 * (job.lower[d] + job.upper[d]);
    }
    return centre;
}

bool region_frames_sign(const cv::Rect2f& region, const cv::Rect2f& sign) {
    const double dx = std::abs(region.x + 0.5 * region.width - sign.x - 0.5 * sign.width);
    const double dy = std::abs(region.y + 0.5 * region.height - sign.y - 0.5 * sign.height);
    const double ratio = std::sqrt(region.area() / std::max(sign.area(), 1.f));
    return dx <= k_centre_slack * region.width + k_centre_slack_px &&
           dy <= k_centre_slack * region.height + k_centre_slack_px && ratio >= 1 / k_depth_factor &&
           ratio <= k_depth_factor;
}

ColourClass rim_colour(const SignModel& model) {
    for (const auto& p : model.points) {
        if (p.role == PointRole::Rim) {
            return p.colour;
        }
    }
    return ColourClass::Other;
}

std::vector<SwarmJob> candidate_jobs(const std::vector<Candidate>& regions, const std::vector<SignModel>& models,
                                     const Camera& cam, const std::vector<double>& lower,
                                     const std::vector<double>& upper, double z_min, double z_max) {
    std::vector<SwarmJob> jobs;
    for (const auto& c : regions) {
        const double w = c.box.width, h = c.box.height;
        const double cu = (c.box.x + 0.5 * w - cam.cx) / cam.fx, cv_ = (c.box.y + 0.5 * h - cam.cy) / cam.fy;
        const double du = (k_centre_slack * w + k_centre_slack_px) / cam.fx;
        const double dv = (k_centre_slack * h + k_centre_slack_px) / cam.fy;
        for (std::size_t m = 0; m < models.size(); ++m) {
            if (rim_colour(models[m]) != c.colour) {
                continue;
            }
            const cv::Point2d size = models[m].extent();
            const double z = std::sqrt(cam.fx * size.x / w * cam.fy * size.y / h);
            SwarmJob j{lower, upper, {static_cast<int>(m), true}, {}, {}};
            j.lower[0] = std::max(lower[0], cu - du);
            j.upper[0] = std::min(upper[0], cu + du);
            j.lower[1] = std::max(lower[1], cv_ - dv);
            j.upper[1] = std::min(upper[1], cv_ + dv);
            j.lower[2] = std::max({lower[2], z_min, z / k_depth_factor});
            j.upper[2] = std::min({upper[2], z_max, z * k_depth_factor});
            const bool empty = j.upper[0] <= j.lower[0] || j.upper[1] <= j.lower[1] || j.upper[2] <= j.lower[2];
            if (!empty) {
                jobs.push_back(std::move(j));
            }
        }
    }
    return jobs;
}

std::vector<std::size_t> best_jobs(const std::vector<SwarmOutcome>& probe, const std::vector<ProbePlace>& places,
                                   int keep, const std::vector<bool>& confirmed, int reserve) {
    std::vector<std::size_t> order(probe.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return probe[a].fitness > probe[b].fitness; });
    const std::size_t wanted = keep >= 0 ? std::min(order.size(), static_cast<std::size_t>(keep)) : order.size();
    if (places.empty()) {
        order.resize(wanted);
        return order;
    }
    std::vector<std::size_t> kept, waiting;
    for (std::size_t j : order) {
        if (kept.size() == wanted) {
            break;
        }
        int others = 0;
        bool repeat = false;
        for (std::size_t k : kept) {
            if (same_place(places[j].box, places[k].box)) {
                repeat = repeat || places[j].model == places[k].model;
                ++others;
            }
        }
        (repeat || others >= k_models_per_place ? waiting : kept).push_back(j);
    }
    for (std::size_t i = 0; kept.size() < wanted && i < waiting.size(); ++i) {
        kept.push_back(waiting[i]);
    }
    if (reserve > 0 && !confirmed.empty()) {
        give_confirmed_their_slots(order, places, confirmed, reserve, kept);
    }
    return kept;
}

} // namespace tracker
