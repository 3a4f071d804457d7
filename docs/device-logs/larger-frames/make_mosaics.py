# 2x2 mosaics where only one quadrant keeps its signs (the others' signs inpainted away): a frame twice as wide
# as the dev frames with one dev frame's signs, at their pixel size.
# python3 make_mosaics.py OUT: OUT/images + OUT/labels.csv (116 mosaics, 1632x960, PNG), and OUT_singles (the
# labelled frames themselves, linked) to compare with.
import cv2, os, sys, collections, numpy as np
src = '/work/shared/data/gtsdb-dev'
out = sys.argv[1]
os.makedirs(out + '/images', exist_ok=True)
files = sorted(f[:-4] for f in os.listdir(src + '/images'))
labels = collections.defaultdict(list)
for line in open(src + '/labels.csv'):
    p = line.strip().split(';')
    if len(p) >= 7: labels[p[0]].append(p)
def clean(f):
    im = cv2.imread(f'{src}/images/{f}.jpg')
    mask = np.zeros(im.shape[:2], np.uint8)
    for p in labels[f]:
        l, t, r, b = map(int, p[1:5]); m = max(3, (r - l) // 4)
        mask[max(0, t - m):b + m, max(0, l - m):r + m] = 255
    return cv2.inpaint(im, mask, 5, cv2.INPAINT_TELEA)
rows, singles = [], []
groups = [files[i:i + 4] for i in range(0, len(files) - 3, 4)]
for gi, g in enumerate(groups):
    k = gi % 4  # which quadrant keeps its signs
    ims = [cv2.imread(f'{src}/images/{f}.jpg') if j == k else clean(f) for j, f in enumerate(g)]
    h, w = ims[0].shape[:2]
    m = cv2.vconcat([cv2.hconcat([ims[0], ims[1]]), cv2.hconcat([ims[2], ims[3]])])
    name = f'{gi:05d}'
    cv2.imwrite(f'{out}/images/{name}.png', m)
    dx, dy = (k % 2) * w, (k // 2) * h
    singles.append(g[k])
    for p in labels[g[k]]:
        rows.append(f'{name};{int(p[1])+dx};{int(p[2])+dy};{int(p[3])+dx};{int(p[4])+dy};{p[5]};{p[6]}')
open(out + '/labels.csv', 'w').write('\n'.join(rows) + '\n')
os.makedirs(out + '_singles/images', exist_ok=True)
keep = set(singles)
for f in singles:
    d = f'{out}_singles/images/{f}.jpg'
    if not os.path.exists(d): os.symlink(f'{src}/images/{f}.jpg', d)
open(out + '_singles/labels.csv', 'w').writelines(l for l in open(src + '/labels.csv') if l.split(';')[0] in keep)
print(len(groups), 'mosaics', len(rows), 'labels')
