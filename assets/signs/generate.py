#!/usr/bin/env python3
"""Writes the sign model JSON files in this folder (run once; the JSON files are the data the tracker loads).

Each sign lies in its own plane z = 0, x right, y down, metres, centred on the origin. `layers` are painted
in order by the synthetic renderer; every model point takes the colour of the topmost layer under it, and
points closer than MARGIN to a layer boundary are dropped so no point sits on an ambiguous colour edge.
Roles: rim / interior score the likelihood of `colour`; outside scores 1 - likelihood of `colour`
(the ring just outside must contrast with the rim); contrast scores the same as outside, on the sign. Rim,
interior and contrast regions are required parts (all must be there) unless marked optional."""
import json, math

MARGIN = 0.02

def circle(r, n=48, phase=0.0):
    return [(r * math.cos(phase + 2 * math.pi * i / n), r * math.sin(phase + 2 * math.pi * i / n)) for i in range(n)]

def regular(n, circumradius, phase):
    return [(circumradius * math.cos(phase + 2 * math.pi * i / n), circumradius * math.sin(phase + 2 * math.pi * i / n))
            for i in range(n)]

def inside(poly, p):
    x, y = p; c = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[i - 1]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            c = not c
    return c

def seg_dist(p, a, b):
    ax, ay = a; bx, by = b; px, py = p
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)

def boundary_dist(poly, p):
    return min(seg_dist(p, poly[i - 1], poly[i]) for i in range(len(poly)))

def colour_at(layers, p):
    col = None
    for layer in layers:
        if inside(layer["polygon"], p):
            col = layer["colour"]
    return col

def near_edge(layers, p):
    return any(boundary_dist(l["polygon"], p) < MARGIN for l in layers)

def scaled(poly, s):
    return [(x * s, y * s) for x, y in poly]

def along(poly, n):
    """n points evenly spaced along a closed polygon."""
    lens = [math.dist(poly[i - 1], poly[i]) for i in range(len(poly))]
    total = sum(lens); out = []
    for k in range(n):
        d = total * k / n
        for i, l in enumerate(lens):
            if d <= l:
                a, b = poly[i - 1], poly[i]
                out.append((a[0] + (b[0] - a[0]) * d / l, a[1] + (b[1] - a[1]) * d / l)); break
            d -= l
    return out

def inset(poly, d):
    """Polygon offset inwards by d (convex, counter-clockwise or clockwise)."""
    n = len(poly); area = sum(poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1] for i in range(n))
    sgn = 1 if area > 0 else -1
    lines = []
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i - 1], poly[i]
        ex, ey = x2 - x1, y2 - y1; l = math.hypot(ex, ey)
        nx, ny = -ey / l * sgn, ex / l * sgn  # inward normal
        lines.append(((x1 + nx * d, y1 + ny * d), (ex, ey)))
    out = []
    for i in range(n):
        (p1, d1), (p2, d2) = lines[i], lines[(i + 1) % n]
        den = d1[0] * d2[1] - d1[1] * d2[0]
        t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
        out.append((p1[0] + d1[0] * t, p1[1] + d1[1] * t))
    return out

def grid(poly, step):
    xs = [p[0] for p in poly]; ys = [p[1] for p in poly]
    out = []; y = min(ys) + step / 2
    while y < max(ys):
        x = min(xs) + step / 2
        while x < max(xs):
            if inside(poly, (x, y)):
                out.append((x, y))
            x += step
        y += step
    return out

def model(category, description, outline, layers, rim_path, interior_area, outside_path, n_rim=40, n_out=40, step=0.07,
          edge=None, pictogram_radius=0.0, contrast_radius=0.0, plain_contrast=False, optional_colours=(), rim_sides=False,
          outside_required=False, rim_floor_scale=None, verified_threshold_scale=None):
    """Signs of a category whose pictograms vary: interior points within pictogram_radius of the centre are
    scored only where the model paints its pictogram, as an optional part; a required contrast part within
    contrast_radius says only "not the background colour here", which every pictogram is and a plain disc
    is not.

    plain_contrast: the interior's plain colour (a red-rimmed sign's white) is optional and the whole interior
    must instead contrast with the rim. Real white paint in shade, backlight or haze is grey, darker than the
    frame around it, so a required white fails exactly the signs a driver most needs found; "not the rim's
    colour inside the rim" still tells a ring from a red lamp or a solid red blob.

    optional_colours: interior colours that are optional parts (lettering that a small sign blurs away).

    rim_sides: each side of a polygonal rim is its own part, which must be there on its own: a triangle
    fitted to the half of a sign beside its pictogram, or to one red corner, has two of its three rim sides
    on the sign's red band and the third on its white, and would otherwise still pass the rim as a whole.

    outside_required: the ring just outside is written as a contrast part of its own (part 1), so it is required
    like the other parts instead of only counting in the fitness."""
    rim = [p for p in along(rim_path, n_rim) if not near_edge(layers, p)]
    interior = [p for p in grid(interior_area, step) if not near_edge(layers, p)]
    centre = [p for p in grid(interior_area, step) if math.hypot(*p) < contrast_radius]
    if plain_contrast:
        centre = interior
    outside = along(outside_path, n_out)
    rim_colour = colour_at(layers, rim[0])
    def pts(ps): return [[round(x, 4), round(y, 4), 0.0] for x, y in ps]
    if rim_sides:
        side = lambda p: min(range(len(rim_path)), key=lambda i: seg_dist(p, rim_path[i - 1], rim_path[i]))
        regions = [{"role": "rim", "colour": rim_colour, "part": k, "points": pts([p for p in rim if side(p) == k])}
                   for k in range(len(rim_path))]
    else:
        regions = [{"role": "rim", "colour": rim_colour, "points": pts(rim)}]
    by_colour, pictogram = {}, {}
    for p in interior:
        c = colour_at(layers, p)
        if math.hypot(*p) >= pictogram_radius:
            by_colour.setdefault(c, []).append(p)
        elif c != rim_colour:
            pictogram.setdefault(c, []).append(p)
    for c, ps in sorted(by_colour.items()):
        if plain_contrast or c in optional_colours:
            regions.append({"role": "interior", "colour": c, "optional": True, "points": pts(ps)})
        else:
            regions.append({"role": "interior", "colour": c, "points": pts(ps)})
    for c, ps in sorted(pictogram.items()):
        regions.append({"role": "interior", "colour": c, "optional": True, "points": pts(ps)})
    if centre:
        regions.append({"role": "contrast", "colour": rim_colour, "points": pts(centre)})
    if outside_required:
        regions.append({"role": "contrast", "colour": rim_colour, "part": 1, "points": pts(outside)})
    else:
        regions.append({"role": "outside", "colour": rim_colour, "points": pts(outside)})
    m = {"format": "swarmtrack-sign/1", "category": category, "description": description,
         "outline": pts(outline), "layers": [{"colour": l["colour"], "polygon": pts(l["polygon"])} for l in layers],
         "regions": regions}
    if rim_floor_scale is not None:  # the rim's floor as a share of the tracker's rim_floor setting
        m["rim_floor_scale"] = rim_floor_scale
    if verified_threshold_scale is not None:  # the verified find threshold's share (tracker's verified_threshold)
        m["verified_threshold_scale"] = verified_threshold_scale
    if edge is not None:  # the edge term's polygon, when the strongest contrast is not the outline
        m["edge"] = pts(edge)
    return m

def write(name, m):
    with open(name + ".json", "w") as f:
        json.dump(m, f, indent=1)
        f.write("\n")

# Prohibitory: 0.7 m disc, red ring 0.07 m wide, white disc. Its interior need only contrast with the ring
# (plain_contrast); the triangles keep a required white, which kept rendered non-signs out of the crowded scene.
# The outline is the outer edge of its white border (as for the mandatory disc below); the edge term follows the
# red's edge.
R = 0.35; ring = circle(R); red_disc = circle(R - 0.025); white = circle(R - 0.095)
write("prohibitory", model("prohibitory", "red ring in a white border, white disc, 0.7 m diameter", ring,
      [{"colour": "white", "polygon": ring}, {"colour": "red", "polygon": red_disc}, {"colour": "white", "polygon": white}],
      circle(R - 0.06, 40), circle(R - 0.115, 32), circle(R * 1.12, 40), plain_contrast=True, edge=red_disc))

# Mandatory: 0.7 m sign, a blue disc inside a white border, with a white arrow pointing up.
arrow = [(0.0, -0.22), (0.12, -0.08), (0.04, -0.08), (0.04, 0.2), (-0.04, 0.2), (-0.04, -0.08), (-0.12, -0.08)]
# Real mandatory signs carry many pictograms (arrows in every direction, a bicycle, a pedestrian): the model
# requires the blue annulus around them and something not blue at the centre, where the strokes of nearly all
# of them cross; the up arrow it paints is an optional part (it tells the roll of a sign that has it).
# The white border belongs to the sign (a labelled box includes it), so the outline is its outer edge; the blue
# it frames is blurred into it in a small sign (JPEG keeps colour at half resolution), and a disc's blue reads as
# blue only to about 0.8 of the sign's width. The edge term follows the blue's edge, the strongest contrast.
# The ring just outside is a required part (a contrast group of its own): a model two thirds the sign's size inside
# its disc has rim and interior on the blue and its centre on the pictogram's white, and with an optional ring
# passed for the sign; on real frames where a large pictogram covers the interior it outscored the whole sign.
# The ring sits at 1.06 of the outline, nearer than the red discs' 1.12: at 1.12 a sign against bright or bluish sky
# failed it at its true size, while a pose at 0.8 of the sign's size put it on the white border and won, a box too
# small to match the sign (docs/benchmarks.md, "Real footage").
blue_disc = circle(R - 0.04)
write("mandatory", model("mandatory", "blue disc in a white border, white arrow, 0.7 m diameter", ring,
      [{"colour": "white", "polygon": ring}, {"colour": "blue", "polygon": blue_disc},
       {"colour": "white", "polygon": arrow}],
      circle(R - 0.075, 40), circle(R - 0.09, 32), circle(R * 1.06, 40), step=0.05, pictogram_radius=0.2,
      contrast_radius=0.06, edge=blue_disc, outside_required=True))

# The roundabout (a mandatory sign): the same disc, its pictogram a ring of three white arrows about a blue centre.
# The arrows lie at 0.55-0.7 of the sign's radius, where the mandatory model needs blue, and its centre is blue where
# that model needs contrast, so the base model fits it only at a smaller pose inside the arrows. A variant of the
# category (searched beside the base model from blue regions): rim, blue centre and the ring outside required. The
# arrows' white is an optional part (at 15-20 px a sign's arrows blur into its blue, and their gaps and heads break
# the ring), but the ring they lie on is a required contrast part: "not blue here", which a plain blue disc, a dark
# window or a blue blob is not (made optional, the held-out frames gained one sign and four such false finds).
roundabout = model("mandatory", "roundabout: blue disc in a white border, a ring of white arrows about a blue centre, "
                   "0.7 m diameter", ring,
                   [{"colour": "white", "polygon": ring}, {"colour": "blue", "polygon": blue_disc},
                    {"colour": "white", "polygon": circle(0.25)}, {"colour": "blue", "polygon": circle(0.185)}],
                   circle(R - 0.075, 40), circle(R - 0.09, 32), circle(R * 1.06, 40), step=0.04, edge=blue_disc,
                   outside_required=True, optional_colours=("white",))
arrows_ring = {"role": "contrast", "colour": "blue", "part": 2,
               "points": [[round(x, 4), round(y, 4), 0.0] for x, y in circle(0.2175, 24)]}
roundabout["regions"].insert(-1, arrows_ring)  # before the ring outside, which model() writes last
roundabout["variant"] = "roundabout"
# Its finds need a fit of 0.6 whatever the verifier says: at 13-19 px the model is a blue disc with a blue centre, and
# sky through foliage, a dark box or a green lamp fitted it at 0.52-0.58 and read as mandatory to the verifier; the dev
# set's roundabouts found fit it at 0.63-0.78.
roundabout["find_floor"] = 0.6
write("mandatory-roundabout", roundabout)

# Danger: equilateral triangle apex up, 0.9 m side, red border 0.1 m, white inside. Its rim sides are parts of their
# own: a real danger sign's pictogram left room for a smaller triangle in its corner or beside the pictogram, two of
# whose sides lie on the red band, and that part fitted as well as the whole sign. Give-way keeps one rim group: its
# plain face leaves no such part, and split sides cost it real signs whose one side the light washes out.
side = 0.9; cr = side / math.sqrt(3)
# Both triangles' finds count from 0.6 of the verified threshold on a still when the verifier confirms them: the
# verifier tells a faded triangle from clutter far more surely than a faded disc (wheels, headlights and lamps are
# round), and dusk or backlit danger signs keep 0.15-0.25 of the fitness at best (docs/benchmarks.md, "Real footage").
TRIANGLE_VERIFIED = 0.6
tri_up = regular(3, cr, -math.pi / 2)
write("danger", model("danger", "red triangle apex up, 0.9 m side, white inside", tri_up,
      [{"colour": "red", "polygon": tri_up}, {"colour": "white", "polygon": inset(tri_up, 0.1)}],
      inset(tri_up, 0.05), inset(tri_up, 0.14), inset(tri_up, -0.05), step=0.05, rim_sides=True,
      verified_threshold_scale=TRIANGLE_VERIFIED))

# Give-way: equilateral triangle apex down, 0.9 m side, red border 0.1 m, white inside. Its rim takes 0.4 of the
# common rim floor: the signs it missed were those whose red haze, backlight or fading left faint, and an inverted
# triangle with a required white face is a shape clutter seldom makes, so the lower floor finds them without the
# small red blobs a lower floor finds for the discs.
tri_down = regular(3, cr, math.pi / 2)
write("give-way", model("give-way", "red triangle apex down, 0.9 m side, white inside", tri_down,
      [{"colour": "red", "polygon": tri_down}, {"colour": "white", "polygon": inset(tri_down, 0.1)}],
      inset(tri_down, 0.05), inset(tri_down, 0.14), inset(tri_down, -0.05), step=0.05, rim_floor_scale=0.4,
      verified_threshold_scale=TRIANGLE_VERIFIED))

# Stop: red octagon 0.75 m across flats, thin white border, white text band. The band stands for the letters,
# which cover about half of it and blur into the red on a small sign: an optional part.
oct_r = 0.375 / math.cos(math.pi / 8)
octagon = regular(8, oct_r, math.pi / 8)
band = [(-0.25, -0.07), (0.25, -0.07), (0.25, 0.07), (-0.25, 0.07)]
write("stop", model("stop", "red octagon 0.75 m across flats, white border and text band", octagon,
      [{"colour": "white", "polygon": octagon}, {"colour": "red", "polygon": inset(octagon, 0.02)},
       {"colour": "white", "polygon": band}],
      inset(octagon, 0.07), inset(octagon, 0.12), inset(octagon, -0.045), edge=inset(octagon, 0.02),
      optional_colours=("white",)))
