#!/usr/bin/env python3
"""The degraded copies of the GTSDB dev set's even-numbered frames (sorted, every second one: 233 frames, 346 signs)
scored in docs/benchmarks.md, "Real footage", robustness. Usage: make_sets.py DEV_DIR OUT_DIR; then for each set
`swarmtrack bench --suite real --data OUT_DIR/NAME --backend cuda`."""
import os, sys
import cv2
import numpy as np

src, out_root = sys.argv[1], sys.argv[2]
files = sorted(os.listdir(os.path.join(src, 'images')))[::2]
stems = {os.path.splitext(f)[0] for f in files}
SETS = [  # name, transform, JPEG quality of the copy
    ('q92', lambda i: i, 92),
    ('jpeg60', lambda i: i, 60),
    ('jpeg30', lambda i: i, 30),
    ('blur1', lambda i: cv2.GaussianBlur(i, (0, 0), 1.0), 92),
    ('dark', lambda i: np.clip(255 * (i / 255.0) ** 1.3 * 0.7, 0, 255).astype(np.uint8), 92),
    ('warm', lambda i: np.clip(i * np.array([0.8, 0.95, 1.1]), 0, 255).astype(np.uint8), 92),
]
for name, transform, quality in SETS:
    out = os.path.join(out_root, name)
    os.makedirs(os.path.join(out, 'images'), exist_ok=True)
    with open(os.path.join(src, 'labels.csv')) as labels, open(os.path.join(out, 'labels.csv'), 'w') as kept:
        kept.writelines(l for l in labels if l.split(';')[0] in stems)
    for f in files:
        img = cv2.imread(os.path.join(src, 'images', f))
        cv2.imwrite(os.path.join(out, 'images', f), transform(img), [cv2.IMWRITE_JPEG_QUALITY, quality])
