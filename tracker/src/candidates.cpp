#include "candidates.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <opencv2/core/utility.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include "common/colour_math.h"
#include "preprocess.h"
#include "tracker/eval.h"
#include "tracker/region_ranker.h"

namespace tracker {
namespace {

// The paint ratio of a clear sign colour is 0.15-0.4; x3 spreads it over the 8-bit range.
constexpr float k_map_gain = 3.f * 255.f;
// A merged pair keeps the larger box: a ring's outer region is the sign, the inner one its disc.
constexpr double k_merge_iou = 0.5;
constexpr float k_dark_floor = 90.f; // b + g + r: about a sum of 30 a channel
constexpr int k_search_width = 832;
constexpr double k_pixels_per_stripe = 32768; // paint maps: one thread's share of a frame, at the least

// Whether box b lies wholly inside a frame of this size.
bool inside_frame(const cv::Rect& b, const cv::Size& frame) {
    return (b & cv::Rect(cv::Point(), frame)) == b;
}

// Signs mounted one above the other (a triangle over a disc, two discs) touch or nearly touch, and their rims
// become one region of paint, too tall for either sign. Such a region's two ends, squares of its width, are
// where its signs are (side by side likewise). Regions from 1.5 to k_max_stack times as long as wide are split;
// up to twice as long they stay candidates themselves too (a sign with a bit of its post or a neighbour's rim).
constexpr int k_max_stack = 4;
constexpr double k_same_end_iou = 0.8;
std::vector<cv::Rect> stack_ends(const cv::Rect& b) {
    const int side = std::min(b.width, b.height), length = std::max(b.width, b.height);
    if (2 * length < 3 * side) {
        return {};
    }
    if (b.height > b.width) {
        return {cv::Rect(b.x, b.y, side, side), cv::Rect(b.x, b.y + b.height - side, side, side)};
    }
    return {cv::Rect(b.x, b.y, side, side), cv::Rect(b.x + b.width - side, b.y, side, side)};
}

// Signs share posts: a danger triangle over a speed limit is the commonest stack. Where the upper sign's rim is
// weak (dusk, backlight, faded paint) or runs into clutter beside it, it makes no region of its own, while the
// lower sign's closed ring often does. So each square-ish red region (of paint or a hole in it) and the sign about
// each hole also propose the square standing on their top, 1.5 times their width: a triangle over a disc in
// Germany's standard sizes (900 mm against 600 mm); the depth range a region's job searches
// (candidate_jobs.cpp, k_depth_factor) covers other ratios. A long region is a stack already (stack_ends).
constexpr double k_above_scale = 1.5;
template <typename PaintOf>
void add_sign_above(const cv::Rect& sign, const CandidateOptions& o, const cv::Size& frame, const PaintOf& paint_of,
                    std::vector<Candidate>& around) {
    if (!o.above) {
        return;
    }
    const int side = cvRound(k_above_scale * sign.width);
    const cv::Rect above(sign.x + sign.width / 2 - side / 2, sign.y - side, side, side);
    if (inside_frame(above, frame)) {
        around.push_back({above, ColourClass::Red, paint_of(above)});
    }
}

// A red-rimmed sign's interior (the white disc inside a red ring, the white triangle inside a red border) is a
// region of the paint map too, a hole in it; on a small sign it is often the only one, as a rim a pixel or two wide
// merges with the reddish clutter around it before it closes. (A blue sign is paint throughout: its holes are
// pictograms, not the sign's interior.) Interiors measure 0.55-0.75 of their sign's width, so the sign
// is the box k_hole_scale times a hole's size about it. A region is a hole when the band between it and that box
// holds k_hole_contrast more paint than the region's middle.
constexpr double k_hole_scale = 1.5;
// Band paint over the middle's paint, in [0, 1] paint units. A hazy, backlit or dusk sign's rim, or a small sign's
// blurred one, holds only 0.1-0.25 more paint than its interior; the ranker, not this test, tells such holes from
// clutter's (docs/benchmarks.md, "Real footage").
constexpr float k_hole_contrast = 0.1f;
// A hole painted in the other sign colour is a blue sign or lamp against red clutter, not a white interior.
constexpr float k_hole_other = 0.15f;

// A sign's white face is also a region of the brightness alone, brighter than the rim and the surroundings about
// it. At dusk, against the light or with faded paint, the rim holds too little paint to enclose a hole in the paint
// map, or its paint runs into reddish foliage or a board beside it; the face still stands out. Faces give the
// sign's box as holes do (k_hole_scale), and only when the face's middle is painted in neither colour. Only the
// faces of upright triangles (danger signs) count: a triangle fills about half its box (less its pictogram) and its
// centroid sits a sixth of its height below the box's middle, where a disc's, a board's or a lamp's sits in the
// middle. Round faces are left to the holes, as bright round things (headlights, hubs, windows) are everywhere; and
// inverted ones too, as they brought more clutter (gables, the sky between branches) than give-way signs
// (docs/benchmarks.md, "Real footage").
constexpr float k_face_paint = 0.15f;
constexpr double k_face_min_fill = 0.25, k_face_max_fill = 0.7;
constexpr double k_face_min_offset = 0.08; // the centroid's offset from the box's middle, in box heights

cv::Rect scaled_about_centre(const cv::Rect& b, double scale) {
    const double w = scale * b.width, h = scale * b.height;
    const double x = b.x + 0.5 * b.width - 0.5 * w, y = b.y + 0.5 * b.height - 0.5 * h;
    return {cvRound(x), cvRound(y), cvRound(w), cvRound(h)};
}

// Boxes by the cells of a coarse grid they cover, to find the boxes overlapping a box without comparing it with
// every one: a cluttered frame has thousands of regions, and comparing all pairs cost as much as the region search.
// Two boxes that share a pixel share that pixel's cell, so every box of positive overlap is found.
// `bounds` holds every box that will be added or looked for (bounds_of).
class OverlapIndex {
public:
    explicit OverlapIndex(const cv::Rect& bounds) : m_bounds(bounds) {
        m_columns = m_bounds.width / k_cell + 1;
        m_cells.resize(static_cast<std::size_t>(m_columns * (m_bounds.height / k_cell + 1)));
    }
    void add(const cv::Rect& box, int index) {
        for_cells(box, [&](std::size_t cell) { m_cells[cell].push_back(index); });
    }
    // The smallest index added whose box (box_of(index)) overlaps `box` by more than `iou`, or -1.
    template <class BoxOf>
    int first_over(const cv::Rect& box, double iou, const BoxOf& box_of) const {
        int first = -1;
        for_cells(box, [&](std::size_t cell) {
            for (int i : m_cells[cell]) {
                if ((first < 0 || i < first) && box_iou(cv::Rect2f(box_of(i)), cv::Rect2f(box)) > iou) {
                    first = i;
                }
            }
        });
        return first;
    }

private:
    static constexpr int k_cell = 16;
    template <class Visit>
    void for_cells(const cv::Rect& box, const Visit& visit) const {
        const cv::Rect b = box & m_bounds;
        if (b.empty()) {
            return;
        }
        const int x0 = (b.x - m_bounds.x) / k_cell, x1 = (b.x + b.width - 1 - m_bounds.x) / k_cell;
        const int y0 = (b.y - m_bounds.y) / k_cell, y1 = (b.y + b.height - 1 - m_bounds.y) / k_cell;
        for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) {
                visit(static_cast<std::size_t>(y * m_columns + x));
            }
        }
    }
    cv::Rect m_bounds;
    int m_columns = 0;
    std::vector<std::vector<int>> m_cells;
};

cv::Rect bounds_of(const std::vector<Candidate>& found) {
    cv::Rect bounds;
    for (const auto& c : found) {
        bounds |= c.box;
    }
    return bounds;
}

} // namespace

std::vector<Candidate> merge_overlaps(std::vector<Candidate> found, double iou) {
    std::sort(found.begin(), found.end(),
              [](const Candidate& a, const Candidate& b) { return a.box.area() > b.box.area(); });
    std::vector<Candidate> kept;
    OverlapIndex index(bounds_of(found));
    for (const auto& c : found) {
        const int same = index.first_over(c.box, iou, [&](int i) { return kept[static_cast<std::size_t>(i)].box; });
        if (same < 0) {
            index.add(c.box, static_cast<int>(kept.size()));
            kept.push_back(c);
        } else {
            kept[static_cast<std::size_t>(same)].score = std::max(kept[static_cast<std::size_t>(same)].score, c.score);
        }
    }
    return kept;
}

namespace {

// A box's mean over a map in [0, 1], from the map's integral image (O(1) a box).
float mean_over(const cv::Mat& sums, const cv::Rect& b) {
    const double sum = sums.at<double>(b.y + b.height, b.x + b.width) - sums.at<double>(b.y, b.x + b.width) -
                       sums.at<double>(b.y + b.height, b.x) + sums.at<double>(b.y, b.x);
    return static_cast<float>(sum / (255.0 * b.area()));
}

// The mean paint (sums: a paint map's integral) of the band between region b and the larger box `sign` about it.
float band_paint_between(const cv::Rect& b, const cv::Rect& sign, const cv::Mat& sums) {
    return static_cast<float>((mean_over(sums, sign) * sign.area() - mean_over(sums, b) * b.area()) /
                              (sign.area() - b.area()));
}

// The middle of a region's box (half its size), which a round or triangular region fills.
cv::Rect middle_of(const cv::Rect& b) {
    return {b.x + b.width / 4, b.y + b.height / 4, std::max(1, b.width / 2), std::max(1, b.height / 2)};
}

// Whether region b is a hole in the paint (sums: the paint map's integral) inside the box `sign` about it, and not
// painted in the other colour (other_sums); band_paint: the mean paint between b and `sign`. The hole is judged by
// the middle of its box (half its size): the corners of a round or triangular hole's box are the rim's.
bool is_hole(const cv::Rect& b, const cv::Rect& sign, const cv::Mat& sums, const cv::Mat& other_sums,
             float& band_paint) {
    const cv::Rect middle = middle_of(b);
    band_paint = band_paint_between(b, sign, sums);
    return band_paint >= mean_over(sums, middle) + k_hole_contrast && mean_over(other_sums, middle) < k_hole_other;
}

// The sign about region b of the red paint map when b is its interior, a hole: inside the frame and of a sign's size.
std::optional<Candidate> sign_around_hole(const cv::Rect& b, const cv::Mat& sums, const cv::Mat& other_sums,
                                          const cv::Size& frame, int min_side, int max_side) {
    const cv::Rect sign = scaled_about_centre(b, k_hole_scale);
    const int side = std::min(sign.width, sign.height);
    float band_paint = 0;
    if (side < min_side || side > max_side || !inside_frame(sign, frame) ||
        !is_hole(b, sign, sums, other_sums, band_paint)) {
        return std::nullopt;
    }
    return Candidate{sign, ColourClass::Red, band_paint};
}

// The signs about the bright stable regions (faces) of the brightness map; red_sums, blue_sums: the paint maps'
// integral images. A face's sign is scored by the red paint of the band about the face, as a hole's is.
std::vector<Candidate> signs_about_faces(const std::vector<cv::Rect>& faces, const cv::Mat& red_sums,
                                         const cv::Mat& blue_sums, const cv::Size& frame, int min_side, int max_side) {
    std::vector<Candidate> signs;
    for (const cv::Rect& b : faces) {
        const int side = std::min(b.width, b.height), length = std::max(b.width, b.height);
        const cv::Rect sign = scaled_about_centre(b, k_hole_scale);
        const int sign_side = std::min(sign.width, sign.height);
        if (length > 2 * side || sign_side < min_side || std::max(sign.width, sign.height) > max_side ||
            !inside_frame(sign, frame)) {
            continue;
        }
        const cv::Rect middle = middle_of(b);
        if (mean_over(red_sums, middle) >= k_face_paint || mean_over(blue_sums, middle) >= k_face_paint) {
            continue;
        }
        signs.push_back({sign, ColourClass::Red, band_paint_between(b, sign, red_sums)});
    }
    return signs;
}

int max_region_side(const CandidateOptions& o, int rows) {
    return std::max(o.min_side_px + 1, static_cast<int>(o.max_side_share * rows));
}

// The maximally stable regions brighter than their surroundings in an 8-bit map, of a sign's size: their pixels and
// boxes.
void bright_stable_regions(const cv::Mat& map, const CandidateOptions& o, std::vector<std::vector<cv::Point>>& regions,
                           std::vector<cv::Rect>& boxes) {
    const int max_side = max_region_side(o, map.rows);
    // delta 4: a faded 15 px ring is stable over only a few levels; the area bounds follow the side bounds.
    auto mser = cv::MSER::create(4, std::max(5, o.min_side_px * o.min_side_px / 3), max_side * max_side, 0.5);
    mser->setPass2Only(true); // the one way: regions brighter than their surroundings
    mser->detectRegions(map, regions, boxes);
}

// The maximally stable extremal regions of a paint map, one way: regions of paint (brighter in the map than their
// surroundings), or with `holes` regions without paint inside paint (a red sign's interior). The two ways are two
// independent searches, so the two maps' four run in parallel; paint then holes is the order of OpenCV's two-way
// search of the inverted map.
std::vector<cv::Rect> stable_regions(const cv::Mat& map, bool holes, const CandidateOptions& o) {
    std::vector<std::vector<cv::Point>> regions;
    std::vector<cv::Rect> boxes;
    bright_stable_regions(holes ? cv::Mat(255 - map) : map, o, regions, boxes);
    return boxes;
}

// The boxes of the bright stable regions of a brightness map that are shaped as an upright triangle.
std::vector<cv::Rect> upright_triangle_faces(const cv::Mat& grey, const CandidateOptions& o) {
    std::vector<std::vector<cv::Point>> regions;
    std::vector<cv::Rect> boxes, faces;
    bright_stable_regions(grey, o, regions, boxes);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const cv::Rect& b = boxes[i];
        const double fill = static_cast<double>(regions[i].size()) / b.area();
        double rows = 0;
        for (const cv::Point& p : regions[i]) {
            rows += p.y;
        }
        const double offset = (rows / regions[i].size() - (b.y + 0.5 * (b.height - 1))) / b.height;
        if (fill >= k_face_min_fill && fill <= k_face_max_fill && offset >= k_face_min_offset) {
            faces.push_back(b);
        }
    }
    return faces;
}

// map: the paint map of `colour`, boxes its stable regions (paint, then holes), sums its integral image;
// other_sums: the other colour's map's integral image (a sign's white interior is not painted in it).
// around: signs found about other regions (faces), which join the holes' and the stacks' ends.
void regions_of(const cv::Mat& map, const std::vector<cv::Rect>& boxes, const cv::Mat& sums, const cv::Mat& other_sums,
                ColourClass colour, const CandidateOptions& o, std::vector<Candidate> around, std::vector<Candidate>& out) {
    const int max_side = max_region_side(o, map.rows);
    const auto paint_of = [&](const cv::Rect& b) { return mean_over(sums, b); };
    std::vector<Candidate> whole;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const cv::Rect& b = boxes[i];
        const int side = std::min(b.width, b.height), length = std::max(b.width, b.height);
        if (length > max_side || length > k_max_stack * side) {
            continue;
        }
        if (colour == ColourClass::Red && length <= 2 * side) {
            if (auto sign = sign_around_hole(b, sums, other_sums, map.size(), o.min_side_px, max_side)) {
                around.push_back(*sign);
                add_sign_above(sign->box, o, map.size(), paint_of, around);
            }
        }
        if (colour == ColourClass::Red && 4 * length <= 5 * side && side >= o.min_side_px) {
            add_sign_above(b, o, map.size(), paint_of, around);
        }
        if (side < o.min_side_px) {
            continue;
        }
        if (length <= 2 * side) {
            whole.push_back({b, colour, paint_of(b)});
        }
        for (const cv::Rect& end : stack_ends(b)) {
            around.push_back({end, colour, paint_of(end)});
        }
    }
    std::vector<Candidate> kept = merge_overlaps(std::move(whole), k_merge_iou);
    // An end inside its own region overlaps it by up to 2/3, and the sign about a hole holds the hole at 1 / 2.25
    // of its area, either of which the merge would fold back into the region.
    const std::vector<Candidate> extras = merge_overlaps(std::move(around), k_merge_iou);
    OverlapIndex kept_index(bounds_of(kept) | bounds_of(extras));
    for (std::size_t i = 0; i < kept.size(); ++i) {
        kept_index.add(kept[i].box, static_cast<int>(i));
    }
    for (const auto& extra : extras) {
        const auto box_of = [&](int i) { return kept[static_cast<std::size_t>(i)].box; };
        if (kept_index.first_over(extra.box, k_same_end_iou, box_of) < 0) {
            kept_index.add(extra.box, static_cast<int>(kept.size()));
            kept.push_back(extra);
        }
    }
    out.insert(out.end(), kept.begin(), kept.end());
}

} // namespace

cv::Vec3f frame_balance(const cv::Mat& bgr) {
    const cv::Scalar sums = cv::sum(bgr);
    const math::ChannelGains g = math::grey_world_gains(sums[0], sums[1], sums[2], static_cast<double>(bgr.total()));
    return {g.b, g.g, g.r};
}

namespace {

// One row of paint_maps; gain: the row's exposure gains, or null.
void paint_row(const cv::Vec3b* px, const float* gain, int cols, const cv::Vec3f& balance, std::uint8_t* r_out,
               std::uint8_t* b_out) {
    for (int x = 0; x < cols; ++x) {
        const float b = balance[0] * px[x][0], g = balance[1] * px[x][1], r = balance[2] * px[x][2];
        // Near black the ratio is sensor noise: the brightness it is taken against has a floor. The ratio
        // itself does not change with exposure; the floor does, so a sign in the shade of a dark
        // neighbourhood, exposed up, keeps its colour.
        const float lit = gain != nullptr ? gain[x] : 1.f;
        const float inv = k_map_gain * lit / std::max(lit * (b + g + r), k_dark_floor);
        // Blue paint is often greenish-blue under daylight: green counts less against it. Red is read in the
        // sun and in the shade (common/colour_math.h, classify), as the fitness reads it. In the shade reading
        // a grey turns orange (blue is scaled down most), which is not red: green above blue counts against it.
        const float sun_red = std::min(r - g, r - b);
        const float shade_b = math::k_shade_blue * b, shade_g = math::k_shade_green * g;
        const float shade_red = std::min(r - shade_g, r - shade_b) - std::max(0.f, shade_g - shade_b);
        const float redness = std::max(sun_red, shade_red) * inv, blueness = std::min(b - r, b - 0.9f * g) * inv;
        r_out[x] = cv::saturate_cast<std::uint8_t>(redness);
        b_out[x] = cv::saturate_cast<std::uint8_t>(blueness);
    }
}

} // namespace

void paint_maps(const cv::Mat& bgr, cv::Mat& red, cv::Mat& blue, const cv::Vec3f& balance, const cv::Mat& exposure) {
    CV_Assert(bgr.type() == CV_8UC3);
    CV_Assert(exposure.empty() || (exposure.type() == CV_32F && exposure.size() == bgr.size()));
    red.create(bgr.size(), CV_8UC1);
    blue.create(bgr.size(), CV_8UC1);
    // Rows are independent: a frame's are split over the threads, a crop's stay on the caller's.
    const double stripes = std::max(1.0, static_cast<double>(bgr.total()) / k_pixels_per_stripe);
    cv::parallel_for_(
        cv::Range(0, bgr.rows),
        [&](const cv::Range& rows) {
            for (int y = rows.start; y < rows.end; ++y) {
                paint_row(bgr.ptr<cv::Vec3b>(y), exposure.empty() ? nullptr : exposure.ptr<float>(y), bgr.cols, balance,
                          red.ptr<std::uint8_t>(y), blue.ptr<std::uint8_t>(y));
            }
        },
        stripes);
}

double region_search_scale(int cols) {
    return cols > 0 ? std::min(1.0, static_cast<double>(k_search_width) / cols) : 1.0;
}

std::vector<Candidate> find_candidates(const cv::Mat& bgr, const CandidateOptions& o) {
    std::vector<Candidate> all;
    if (o.max_candidates <= 0 || bgr.empty()) {
        return all;
    }
    const double scale = region_search_scale(bgr.cols);
    cv::Mat small;
    if (scale < 1.0) {
        cv::resize(bgr, small, cv::Size(), scale, scale, cv::INTER_AREA);
    }
    cv::Mat red, blue;
    const cv::Mat& search = scale < 1.0 ? small : bgr;
    paint_maps(search, red, blue, frame_balance(search), exposure_gains(search));
    // Nested regions share their pixels, so summing each region's own pixels costs far more than the search;
    // the paint over the region's box (an integral image, O(1) a region) ranks them as well.
    cv::Mat red_sums, blue_sums;
    cv::integral(red, red_sums, CV_64F);
    cv::integral(blue, blue_sums, CV_64F);
    // The region searches are the pass's cost and single-threaded, and independent of each other: the four (five with
    // faces) run in parallel, and the result is the same in any order.
    cv::Mat grey;
    if (o.faces) {
        cv::cvtColor(search, grey, cv::COLOR_BGR2GRAY);
    }
    const cv::Mat* maps[5] = {&red, &red, &blue, &blue, &grey};
    std::vector<cv::Rect> boxes[5]; // red paint, red holes, blue paint, blue holes, upright triangle faces
    cv::parallel_for_(cv::Range(0, 5), [&](const cv::Range& r) {
        for (int i = r.start; i < r.end; ++i) {
            if (i < 4) {
                boxes[i] = stable_regions(*maps[i], i % 2 == 1, o);
            } else if (o.faces) {
                boxes[i] = upright_triangle_faces(*maps[i], o);
            }
        }
    });
    const cv::Mat* sums[2] = {&red_sums, &blue_sums};
    const ColourClass colours[2] = {ColourClass::Red, ColourClass::Blue};
    for (int c = 0; c < 2; ++c) {
        std::vector<cv::Rect>& paint_then_holes = boxes[2 * c];
        paint_then_holes.insert(paint_then_holes.end(), boxes[2 * c + 1].begin(), boxes[2 * c + 1].end());
        std::vector<Candidate> faces;
        if (colours[c] == ColourClass::Red) {
            faces = signs_about_faces(boxes[4], red_sums, blue_sums, red.size(), o.min_side_px,
                                      max_region_side(o, red.rows));
        }
        regions_of(*maps[2 * c], paint_then_holes, *sums[c], *sums[1 - c], colours[c], o, std::move(faces), all);
    }
    if (scale < 1.0) {
        const cv::Rect frame(0, 0, bgr.cols, bgr.rows);
        for (auto& c : all) {
            const cv::Point tl(cvFloor(c.box.x / scale), cvFloor(c.box.y / scale));
            const cv::Point br(cvCeil((c.box.x + c.box.width) / scale), cvCeil((c.box.y + c.box.height) / scale));
            c.box = cv::Rect(tl, br) & frame;
        }
    }
    const auto by_score = [](const Candidate& a, const Candidate& b) { return a.score > b.score; };
    std::stable_sort(all.begin(), all.end(), by_score);
    if (o.ranker != nullptr) {
        if (static_cast<int>(all.size()) > o.rank_pool) {
            all.resize(static_cast<std::size_t>(std::max(0, o.rank_pool)));
        }
        std::vector<cv::Rect2f> regions;
        for (const Candidate& c : all) {
            regions.emplace_back(c.box);
        }
        const std::vector<float> scores = o.ranker->scores(bgr, regions);
        for (std::size_t i = 0; i < all.size(); ++i) {
            all[i].score = scores[i];
        }
        std::stable_sort(all.begin(), all.end(), by_score);
    }
    if (static_cast<int>(all.size()) > o.max_candidates) {
        all.resize(static_cast<std::size_t>(o.max_candidates));
    }
    return all;
}

} // namespace tracker
