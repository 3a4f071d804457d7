# The blur measure of every fifth frame of each named copy: python3 metric.py NAME... (copies under /tmp/sharp)
import cv2, os, numpy as np, sys
def blur_metric(img):
    y = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    out = []
    for axis in (0, 1):
        k = np.ones((9, 1) if axis == 0 else (1, 9), np.float32) / 9
        b = cv2.filter2D(y, -1, k, borderType=cv2.BORDER_REFLECT)
        d = np.abs(np.diff(y, axis=axis)); db = np.abs(np.diff(b, axis=axis))
        v = np.maximum(0, d - db)
        out.append((d.sum() - v.sum()) / max(d.sum(), 1e-6))
    return max(out)
for s in sys.argv[1:]:
    d = f'/tmp/sharp/{s}/images'
    vals = [blur_metric(cv2.imread(os.path.join(d, n))) for n in sorted(os.listdir(d))[::5]]
    print(s, 'min %.3f p10 %.3f median %.3f p90 %.3f max %.3f' % (min(vals), np.percentile(vals, 10), np.median(vals), np.percentile(vals, 90), max(vals)))
