#pragma once
// Detection swarms from candidate regions: each region paired with every model of its colour, searched in a
// small pose box that the region's position and size imply.
#include <vector>

#include "candidates.h"
#include "search_runner.h"
#include "tracker/camera.h"
#include "tracker/model.h"

namespace tracker {

// One swarm job per (region, model of the region's colour). `lower`/`upper`: the detection space's bounds
// (x/z, y/z, z first, then any searched angles, which keep these bounds); z_min/z_max: the frustum's depths.
std::vector<SwarmJob> candidate_jobs(const std::vector<Candidate>& regions, const std::vector<SignModel>& models,
                                     const Camera& camera, const std::vector<double>& lower,
                                     const std::vector<double>& upper, double z_min, double z_max);

// Where a probe search put a job's sign: the box of its model's outline at the probe's best pose, and the model.
struct ProbePlace {
    cv::Rect2f box;
    int model = 0;
};

// Indices of the `keep` jobs to search in full, best probe fitness first, spread over the frame's places. A lamp
// or a tail light makes several regions (its glow, its lens, its rim), each paired with every model of its colour,
// and their fits outrank a sign's first guess: so a job whose probe box is at the place of a kept job of the same
// model, or of two kept jobs of other models (IoU > 0.5 and widths within 1.25x), waits until every other job has
// had its turn.
// `places` is empty (no spreading) or one per job. `confirmed` (empty, or one per job; needs `places`): the jobs
// whose probe box the verifier takes for their model's category. Up to `reserve` of the kept slots go to confirmed
// jobs that fitness alone leaves out, in place of the last unconfirmed ones: a sign whose paint the light has
// faded (dusk, backlight, haze) probes under the clutter about it, but shows its shape.
std::vector<std::size_t> best_jobs(const std::vector<SwarmOutcome>& probe, const std::vector<ProbePlace>& places,
                                   int keep, const std::vector<bool>& confirmed = {}, int reserve = 0);

// Narrows each of a job's bounds to `share` of its width about `centre` (active pose dimensions; the narrowed
// bounds stay inside the old ones): a full search about a place that a probe and the verifier already found.
void narrow_job(SwarmJob& job, const std::vector<double>& centre, double share);

// The centre of a job's bounds (active pose dimensions): the pose its region implies.
std::vector<double> job_centre(const SwarmJob& job);

// Whether a region (pixels) frames a sign's box the way candidate_jobs searches around it: its centre within
// the job's slack of the sign's, its size within the job's depth factor of the sign's.
bool region_frames_sign(const cv::Rect2f& region, const cv::Rect2f& sign);

// The colour class of a model's rim points (the paint a candidate region of the model shows).
ColourClass rim_colour(const SignModel& model);

} // namespace tracker
