# Every fourth dev frame upscaled to GTSDB's own 1,360 x 800 (bicubic, PNG), its labels scaled alike: frames of
# that size whose signs are all 15 px or more, as GTSDB labels them at that size.
# python3 make_upscaled.py OUT
import cv2, os, sys
src = '/work/shared/data/gtsdb-dev'; out = sys.argv[1]
os.makedirs(out + '/images', exist_ok=True)
files = sorted(os.listdir(src + '/images'))[::4]
keep = set()
for f in files:
    im = cv2.imread(f'{src}/images/{f}')
    cv2.imwrite(f'{out}/images/{f[:-4]}.png', cv2.resize(im, (1360, 800), interpolation=cv2.INTER_CUBIC))
    keep.add(f[:-4])
s = 1360 / 816
rows = []
for l in open(src + '/labels.csv'):
    p = l.strip().split(';')
    if p[0] in keep:
        rows.append(';'.join([p[0]] + [str(round(int(v) * s)) for v in p[1:5]] + p[5:]))
open(out + '/labels.csv', 'w').write('\n'.join(rows) + '\n')
