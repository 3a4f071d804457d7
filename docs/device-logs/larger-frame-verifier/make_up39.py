# Every twelfth dev frame upscaled to 1,360 x 800 (bicubic), saved as JPEG quality 95 (swarmtrack-bench decodes JPEG
# only), its labels scaled alike: the GPU machine's 1360x800 set.  python3 make_up39.py OUT
import cv2, os, sys
src = '/work/shared/data/gtsdb-dev'; out = sys.argv[1]
os.makedirs(out + '/images', exist_ok=True)
files = sorted(os.listdir(src + '/images'))[::12]
keep = set()
for f in files:
    im = cv2.imread(f'{src}/images/{f}')
    cv2.imwrite(f'{out}/images/{f}', cv2.resize(im, (1360, 800), interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_JPEG_QUALITY, 95])
    keep.add(f[:-4])
s = 1360 / 816
rows = []
for line in open(src + '/labels.csv'):
    p = line.strip().split(';')
    if p[0] in keep:
        rows.append(';'.join([p[0]] + [str(round(int(v) * s)) for v in p[1:5]] + p[5:]))
open(out + '/labels.csv', 'w').write('\n'.join(rows) + '\n')
