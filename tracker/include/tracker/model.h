#pragma once
// Sign models loaded from data (assets/signs/*.json): planar 3-D point sets with expected colour classes.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/types.h"

namespace tracker {

// rim / interior: score the likelihood of `colour`; outside: score 1 - likelihood of `colour` (the ring
// just outside the sign contrasts with its rim); edge: outline points whose `normal` (outward, in the sign
// plane) should line up with the image gradient.
enum class PointRole { Rim = 0, Interior = 1, Outside = 2, Edge = 3 };

struct ModelPoint {
    cv::Point3f position; // metres, sign frame (x right, y down, z out of the sign towards the viewer is -z)
    ColourClass colour = ColourClass::Other;
    PointRole role = PointRole::Rim;
    cv::Point3f normal;   // edge points only
    // Whether the part must be there: a sign scores low for a model whose required parts it lacks (the
    // every-part floor, FitnessWeights::group_floor). Rim and interior parts are required unless the model
    // marks them optional (a pictogram that varies between signs of the category); contrast parts (scored as
    // outside points, 1 - likelihood of their colour, but on the sign: "not the disc's colour here") are.
    bool required = false;
    // Points of one role and colour but different parts score as separate groups, so each part must be there
    // on its own: a triangle's three rim sides, where the part of a sign beside its pictogram would otherwise
    // satisfy the rim as a whole with two sides of three.
    int part = 0;
    // Rim, interior and outside points: how far the point lies from the nearest change of paint (the layers' colours,
    // the background outside them), and from the nearest on the far side, in metres (FitnessSettings::paint_blur;
    // tracker/src/paint_reach.h). 0.5 m and more count as far.
    float reach_near = 0.5f;
    float reach_far = 0.5f;
};

// A painted polygon, used by the synthetic renderer (later layers on top).
struct ModelLayer {
    ColourClass colour = ColourClass::Other;
    std::vector<cv::Point3f> polygon;
};

struct SignModel {
    Category category = Category::Prohibitory;
    std::string description;
    std::string source;                // file it came from
    // Empty for a category's base model; otherwise the name of a second design of the category (the file's
    // "variant"): a sign whose face the base model's parts do not fit, such as the roundabout among the mandatory
    // signs, whose arrows lie where the base model needs blue. A variant is searched from candidate regions beside
    // the base model and reports the same category.
    std::string variant;
    std::vector<cv::Point3f> outline;  // closed polygon, sign frame
    std::vector<ModelLayer> layers;
    std::vector<ModelPoint> points;    // rim, interior, outside from the file; edge derived from the outline
                                       // (or from the file's optional "edge" polygon)
    float radius = 0;                  // largest distance of an outline vertex from the origin
    // The rim's floor for this model as a share of the settings' (FitnessSettings::rim_floor; the file's
    // "rim_floor_scale", default 1). A shape that clutter seldom makes can take a lower floor and so find the signs
    // whose rim haze, backlight or fading left faint: the give-way triangle (docs/benchmarks.md, "Real footage").
    float rim_floor_scale = 1.f;
    // The fitness from which the verifier's word admits a find of this model on a frame without history, as a share of
    // the settings' (FitnessSettings::verified_threshold; the file's "verified_threshold_scale", default 1). The
    // verifier tells a faded triangle from clutter far more surely than a faded disc: round red and dark things
    // (wheels, headlights, lamps) are everywhere, triangles of a sign's make are not (docs/benchmarks.md, "Real
    // footage").
    float verified_threshold_scale = 1.f;
    // The least fitness a find of this model needs whatever the verifier says (the file's "find_floor", default 0:
    // none). A variant whose parts at a small sign's size are only a coloured disc (the roundabout's blue disc and
    // blue centre, its arrows blurred) fits sky through foliage or a lamp, which the base model's harder parts do not
    // fit, and the verifier reads those as the category: its finds must carry themselves by their fit.
    float find_floor = 0.f;

    int count(PointRole role) const;
    // Width and height of the outline's bounding box, in metres.
    cv::Point2d extent() const;
    // The geometric mean of the extent: the size a region's box is matched to (candidate_jobs) and the
    // smallest model's sets how far candidate regions are searched (reaching_small_signs in tracker/pose.h).
    double size_m() const;
};

// Throws std::runtime_error "FILE: field 'F': reason" for a malformed file.
SignModel load_sign_model(const std::string& path);
// Every *.json in `dir` (empty: default_models_dir()), for each of `wanted` its base model and then its variants;
// throws when one is malformed, when a category has two base models, or when one of `wanted` has no base model.
std::vector<SignModel> load_sign_models(const std::string& dir, const std::vector<Category>& wanted);
// A category's base model among load_sign_models' result (the first of its category), or nullptr when it has none.
const SignModel* base_model(const std::vector<SignModel>& models, Category category);
// assets_dir()/signs (tracker/assets.h): the installed, or else the source tree's, sign models.
std::string default_models_dir();

// Outline edge points derived from the outline: `per_model` points evenly spaced with outward normals.
std::vector<ModelPoint> edge_points(const std::vector<cv::Point3f>& outline, int per_model);

} // namespace tracker
