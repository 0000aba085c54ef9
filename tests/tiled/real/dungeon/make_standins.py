#!/usr/bin/env python3
"""Writes stand-in art for the SKTiled dungeon map: the licence of the original PNGs is not
stated, so these take their place at the same sizes. Each tile is one of 7 flat colours with a
darker 1 px border and a transparent corner, drawn in at most 4 colours (Pillow)."""
from PIL import Image
import colorsys, os

HERE = os.path.dirname(os.path.abspath(__file__))
for name, (w, h), (tw, th) in [("dungeon-16x16.png", (368, 384), (16, 16)),
                               ("dungeon-16x32.png", (80, 64), (16, 32)),
                               ("dungeon-32x32.png", (160, 32), (32, 32))]:
    im = Image.new("RGBA", (w, h))
    px = im.load()
    cols = w // tw
    for k in range((w // tw) * (h // th)):
        r, g, b = colorsys.hsv_to_rgb((k % 7) / 7, 0.6, 0.9)
        fill = (int(r * 255), int(g * 255), int(b * 255), 255)
        edge = tuple(c // 2 for c in fill[:3]) + (255,)
        x0, y0 = (k % cols) * tw, (k // cols) * th
        for y in range(th):
            for x in range(tw):
                if x < 3 and y < 3:
                    continue
                px[x0 + x, y0 + y] = edge if x in (0, tw - 1) or y in (0, th - 1) else fill
    im.save(os.path.join(HERE, name))
