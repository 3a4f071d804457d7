# Makes the trial's copies of the even dev frames (PNG) and their labels under OUT: python3 make.py [SRC] [OUT]
import cv2, os, sys, numpy as np
src = sys.argv[1] if len(sys.argv) > 1 else '../shared/data/gtsdb-dev'
out = sys.argv[2] if len(sys.argv) > 2 else '/tmp/sharp'
even = [n for n in sorted(os.listdir(src + '/images')) if int(n[:5]) % 2 == 0]
labels = [l for l in open(src + '/labels.csv') if int(l.split(';')[0]) % 2 == 0]
def unsharp(img, sigma, amount):
    f = img.astype(np.float32)
    g = cv2.GaussianBlur(f, (0, 0), sigma)
    return np.clip(f + amount * (f - g), 0, 255).astype(np.uint8)
def blurred_resaved(img):
    ok, enc = cv2.imencode('.jpg', cv2.GaussianBlur(img, (0, 0), 1.0), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)
def copies(img):
    b = blurred_resaved(img)
    return {'orig': img, 'orig_s1': unsharp(img, 1.0, 1.0), 'blur': b, 'blur_s1': unsharp(b, 1.0, 1.0),
            'blur_s07': unsharp(b, 1.0, 0.6)}
for n in even:
    for name, copy in copies(cv2.imread(f'{src}/images/{n}')).items():
        os.makedirs(f'{out}/{name}/images', exist_ok=True)
        cv2.imwrite(f'{out}/{name}/images/{n[:5]}.png', copy)
for name in copies(np.zeros((8, 8, 3), np.uint8)):
    open(f'{out}/{name}/labels.csv', 'w').writelines(labels)
print(len(even), len(labels))
