#!/usr/bin/env python3
"""A trial roundabout model (not shipped): the mandatory disc with its pictogram drawn as a white annulus (the three
arrows' ring, gaps ignored) about a blue centre, built with assets/signs/generate.py's own functions. Written over a
copy of the shipped models as mandatory.json, for diagnose_real --oracle-only --config {"models_dir": ...}."""
import json, sys
src = open(sys.argv[1] if len(sys.argv) > 1 else "assets/signs/generate.py").read()
g = {}
exec(src[:src.index("# Prohibitory: 0.7 m disc")], g)  # the helpers only, not the shipped models' writes
R = 0.35
ring, blue_disc = g["circle"](R), g["circle"](R - 0.04)
outer, inner = g["circle"](0.165), g["circle"](0.095)
m = g["model"]("mandatory", "roundabout: blue disc in a white border, a ring of white arrows, 0.7 m diameter", ring,
               [{"colour": "white", "polygon": ring}, {"colour": "blue", "polygon": blue_disc},
                {"colour": "white", "polygon": outer}, {"colour": "blue", "polygon": inner}],
               g["circle"](R - 0.075, 40), g["circle"](R - 0.09, 32), g["circle"](R * 1.06, 40), step=0.04,
               edge=blue_disc, outside_required=True)
json.dump(m, open(sys.argv[2] if len(sys.argv) > 2 else "mandatory.json", "w"), indent=1)
