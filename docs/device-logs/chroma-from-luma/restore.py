import cv2, numpy as np, sys
def box(x, r): return cv2.boxFilter(x, -1, (2*r+1, 2*r+1), borderType=cv2.BORDER_REFLECT)
def restore(bgr, r=2, eps=25.0):
    ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb).astype(np.float32)
    Y = ycc[..., 0]
    mY = box(Y, r); vY = box(Y*Y, r) - mY*mY
    out = ycc.copy()
    for c in (1, 2):
        C = ycc[..., c]
        mC = box(C, r); cov = box(Y*C, r) - mY*mC
        a = cov / (vY + eps); b = mC - a*mY
        out[..., c] = box(a, r)*Y + box(b, r)
    return cv2.cvtColor(np.clip(out, 0, 255).round().astype(np.uint8), cv2.COLOR_YCrCb2BGR)
if __name__ == '__main__':
    src, dst = sys.argv[1], sys.argv[2]; r = int(sys.argv[3]); eps = float(sys.argv[4])
    import os, shutil
    os.makedirs(dst + '/images', exist_ok=True)
    shutil.copy(src + '/labels.csv', dst + '/labels.csv')
    for f in sorted(os.listdir(src + '/images')):
        im = cv2.imread(src + '/images/' + f)
        cv2.imwrite(dst + '/images/' + f[:-4] + '.png', restore(im, r, eps))
