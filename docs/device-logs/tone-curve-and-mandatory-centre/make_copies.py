# The dev set's tone-curve copies (PNG, so no second JPEG generation unless asked):
#   darker: 255 (v/255)^1.3 x 0.7, as device-logs/degraded-frames/make_sets.py's "dark", also saved at JPEG quality 92;
#   gain:   v x 0.6 (a camera's shorter exposure, hue and saturation kept);
#   darker, then each frame whose mean of max(b, g, r) is under 100 scaled by 128 / that mean.
import cv2, numpy as np, os, shutil, sys
src = sys.argv[1] if len(sys.argv) > 1 else '../shared/data/gtsdb-dev'
sets = {'dark': '.png', 'darkq': '.jpg', 'gain': '.png', 'darkn': '.png'}
for s in sets:
    os.makedirs('/tmp/%s/images' % s, exist_ok=True)
    shutil.copy(src + '/labels.csv', '/tmp/%s/labels.csv' % s)
for f in sorted(os.listdir(src + '/images')):
    i = cv2.imread(src + '/images/' + f).astype(np.float32)
    stem = f[:-4]
    dark = np.clip(255 * (i / 255.0) ** 1.3 * 0.7, 0, 255).astype(np.uint8)
    cv2.imwrite('/tmp/dark/images/' + stem + '.png', dark)
    cv2.imwrite('/tmp/darkq/images/' + stem + '.jpg', dark, [cv2.IMWRITE_JPEG_QUALITY, 92])
    cv2.imwrite('/tmp/gain/images/' + stem + '.png', np.clip(i * 0.6 + 0.5, 0, 255).astype(np.uint8))
    d = dark.astype(np.float32)
    m = d.max(2).mean()
    if m < 100:
        d = d * (128.0 / m)
    cv2.imwrite('/tmp/darkn/images/' + stem + '.png', np.clip(d + 0.5, 0, 255).astype(np.uint8))
