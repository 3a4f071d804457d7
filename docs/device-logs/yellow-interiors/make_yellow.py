#!/usr/bin/env python3
"""Dev frames with the white faces of their red-rimmed signs painted yellow, as Nordic and Polish danger,
prohibitory and give-way signs are (and temporary signs elsewhere): a construction for measuring the tracker on
such signs, which the dev set does not have. Inside each danger, prohibitory and give-way label box, pixels that
read white (saturation under 0.25, brightness over 0.45 of the box's brightest) take a yellow of their own
brightness, blended by a softened mask so the edge is a camera's, not a cut-out's. Writes PNG (no second JPEG pass).

usage: make_yellow.py DATA OUT [--every K] [--control]
  --control: the same frames, unpainted, also as PNG (the baseline of the same decode)
"""
import argparse
import csv
import os

import cv2
import numpy as np

YELLOW_BGR = np.array([0.05, 0.80, 1.0])  # a sign yellow (RGB about 255, 204, 13) per unit of brightness

ap = argparse.ArgumentParser()
ap.add_argument("data")
ap.add_argument("out")
ap.add_argument("--every", type=int, default=2)
ap.add_argument("--control", action="store_true")
a = ap.parse_args()

rows = [r for r in csv.reader(open(os.path.join(a.data, "labels.csv")), delimiter=";") if r and r[1].isdigit()]
files = sorted({r[0] for r in rows} | {os.path.splitext(f)[0] for f in os.listdir(os.path.join(a.data, "images"))})
files = [f for i, f in enumerate(files) if i % a.every == 0]
os.makedirs(os.path.join(a.out, "images"), exist_ok=True)
painted = 0
for f in files:
    im = cv2.imread(os.path.join(a.data, "images", f + ".jpg"))
    if not a.control:
        for r in rows:
            if r[0] != f or r[6] not in ("danger", "prohibitory", "giveway"):
                continue
            x0, y0, x1, y1 = map(int, r[1:5])
            box = im[y0:y1 + 1, x0:x1 + 1].astype(np.float32)
            hsv = cv2.cvtColor(box.astype(np.uint8), cv2.COLOR_BGR2HSV).astype(np.float32)
            v = hsv[..., 2]
            white = ((hsv[..., 1] < 0.25 * 255) & (v > 0.45 * v.max())).astype(np.float32)
            mask = cv2.GaussianBlur(white, (3, 3), 0.6)[..., None]
            yellow = v[..., None] * YELLOW_BGR[None, None, :]
            im[y0:y1 + 1, x0:x1 + 1] = np.clip(mask * yellow + (1 - mask) * box, 0, 255).astype(np.uint8)
            painted += 1
    cv2.imwrite(os.path.join(a.out, "images", f + ".png"), im)
with open(os.path.join(a.out, "labels.csv"), "w") as out:
    for r in rows:
        if r[0] in set(files):
            out.write(";".join(r) + "\n")
print(f"{len(files)} frames, {painted} signs painted -> {a.out}")
