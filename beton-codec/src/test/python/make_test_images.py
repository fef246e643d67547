"""Writes the small input images under src/test/resources/images/ (run with Debian's /usr/bin/python3 + python3-pil).

Every image is 64x48 with four flat quadrants (red, green, blue, grey) so tests can assert colours:
top-left (220,30,40), top-right (30,200,60), bottom-left (40,50,210), bottom-right (128,128,128).
"""
import io, os, sys
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'resources', 'images')
os.makedirs(OUT, exist_ok=True)
Q = [(220, 30, 40), (30, 200, 60), (40, 50, 210), (128, 128, 128)]

def quadrants(w=64, h=48):
    img = Image.new('RGB', (w, h))
    px = img.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = Q[(2 if y >= h // 2 else 0) + (1 if x >= w // 2 else 0)]
    return img

rgb = quadrants()
rgb.save(os.path.join(OUT, 'quad-420.jpg'), quality=95)
rgb.save(os.path.join(OUT, 'quad-444.jpg'), quality=95, subsampling=0)
rgb.save(os.path.join(OUT, 'quad-progressive.jpg'), quality=95, progressive=True)
rgb.convert('L').save(os.path.join(OUT, 'quad-gray.jpg'), quality=95)
rgb.convert('CMYK').save(os.path.join(OUT, 'quad-cmyk-adobe.jpg'), quality=95)  # PIL writes Adobe APP14, inverted
# EXIF orientation 6 (rotate 90 CW to display): store the image rotated 90 CCW
exif = Image.Exif()
exif[0x0112] = 6
rgb.transpose(Image.Transpose.ROTATE_90).save(os.path.join(OUT, 'quad-exif6.jpg'), quality=95, exif=exif.tobytes())
rgb.save(os.path.join(OUT, 'quad.png'))
rgb.quantize(8).save(os.path.join(OUT, 'quad-palette.png'))
rgba = rgb.copy()
rgba.putalpha(100)
rgba.save(os.path.join(OUT, 'quad-rgba.png'))
# 16-bit RGB PNG: PIL cannot write it from RGB, so build it by hand with zlib
import struct, zlib
raw = b''
for y in range(48):
    raw += b'\x00'
    for x in range(64):
        c = Q[(2 if y >= 24 else 0) + (1 if x >= 32 else 0)]
        raw += b''.join(struct.pack('>H', v * 257) for v in c)
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
png16 = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 64, 48, 16, 2, 0, 0, 0)) \
    + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
open(os.path.join(OUT, 'quad-16bit.png'), 'wb').write(png16)
rgb.convert('L').save(os.path.join(OUT, 'quad-gray.png'))
rgb.save(os.path.join(OUT, 'quad.tif'))
rgb.save(os.path.join(OUT, 'quad.bmp'))
frame2 = Image.new('RGB', (64, 48), (0, 0, 0))
rgb.save(os.path.join(OUT, 'quad.gif'), save_all=True, append_images=[frame2])
rgb.save(os.path.join(OUT, 'quad.webp'), lossless=True)
print('wrote', sorted(os.listdir(OUT)))

# Textured images (smooth waves + seeded grain) for decode-tolerance and region property tests.
import numpy as np
rng = np.random.default_rng(1234)
yy, xx = np.mgrid[0:251, 0:333].astype(np.float64)
tex = np.stack([
    128 + 90 * np.sin(xx / 17.0) * np.cos(yy / 23.0),
    128 + 90 * np.sin((xx + yy) / 29.0),
    128 + 90 * np.cos(xx / 11.0 - yy / 37.0),
], axis=-1) + rng.normal(0, 12, (251, 333, 3))
texture = Image.fromarray(np.clip(tex, 0, 255).astype(np.uint8), 'RGB')
texture.save(os.path.join(OUT, 'texture-420.jpg'), quality=90)
texture.save(os.path.join(OUT, 'texture-444.jpg'), quality=90, subsampling=0)
texture.save(os.path.join(OUT, 'texture-progressive.jpg'), quality=90, progressive=True)
texture.save(os.path.join(OUT, 'texture.png'))
print('textures written')
