import cv2, os, sys, numpy as np
src = '/work/shared/data/gtsdb-dev'
names = sorted(os.listdir(src + '/images'))
even = [n for n in names if int(n[:5]) % 2 == 0]
labels = [l for l in open(src + '/labels.csv') if int(l.split(';')[0]) % 2 == 0]
def unsharp(img, sigma, amount):
    f = img.astype(np.float32)
    g = cv2.GaussianBlur(f, (0, 0), sigma)
    return np.clip(f + amount * (f - g), 0, 255).astype(np.uint8)
sets = {
  'orig': lambda i: i,
  'orig_s1': lambda i: unsharp(i, 1.0, 1.0),
  'blur': None,
  'blur_s1': None,
  'blur_s07': None,
}
for s in sets:
    os.makedirs(f'/tmp/sharp/{s}/images', exist_ok=True)
    open(f'/tmp/sharp/{s}/labels.csv', 'w').writelines(labels)
for n in even:
    img = cv2.imread(f'{src}/images/{n}')
    stem = n[:5]
    cv2.imwrite(f'/tmp/sharp/orig/images/{stem}.png', img)
    cv2.imwrite(f'/tmp/sharp/orig_s1/images/{stem}.png', unsharp(img, 1.0, 1.0))
    b = cv2.GaussianBlur(img, (0, 0), 1.0)
    ok, enc = cv2.imencode('.jpg', b, [cv2.IMWRITE_JPEG_QUALITY, 92])
    b = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    cv2.imwrite(f'/tmp/sharp/blur/images/{stem}.png', b)
    cv2.imwrite(f'/tmp/sharp/blur_s1/images/{stem}.png', unsharp(b, 1.0, 1.0))
    cv2.imwrite(f'/tmp/sharp/blur_s07/images/{stem}.png', unsharp(b, 1.0, 0.6))
print(len(even), len(labels))
