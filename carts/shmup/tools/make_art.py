#!/usr/bin/env python3
"""Generate every picture of the shmup cart (Nova Lance), and its space map.

Outputs (paths relative to carts/shmup/):

  gfx/stars.png     128x32   star tiles (8 px)               tile 0,    palette 1
  gfx/station.png   128x96   space-station metatiles (16 px) tile 64,   palette 2
  gfx/player.png    128x64   player ship, flame, shots, HUD  tile 256,  palette 3
  gfx/enemies.png   128x128  popcorn enemies and the gunship tile 384,  palette 4
  gfx/bosses.png    128x128  mid-boss and boss               tile 640,  palette 5
  gfx/bullets.png   128x32   enemy bullets                   tile 896,  palette 6
  gfx/fx.png        128x96   explosions, items, sparks       tile 960,  palette 7
  gfx/logo.png      128x64   the title logo                  tile 1152, palette 7
  gfx/nebula.png    128xN    nebula tiles (deduplicated)     tile 1280, palette 1
  maps/space.tmx    32x64 cells of 8 px: layers `stars` and `nebula`
  game/art.lua      the pattern tile of every picture, for the Lua code

Every PNG is a 4-bit indexed PNG with a 16-entry PLTE (index 0 is transparent on the
console; it is stored as magenta so stray transparent pixels show in image viewers).
Sprites are drawn from geometric shapes (polygons, ellipses) lit from the top-left by a
small "pillow" shader, then outlined and detailed by hand-placed pixels. The nebula is
periodic value noise. Nothing is random: running the script again rewrites the same bytes.
Python 3 standard library only.

Usage (from anywhere):  python3 carts/shmup/tools/make_art.py
"""

import math
import os
import struct
import zlib

CART_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------------------
# Palettes (index 0 is never loaded: colour 0 is transparent)
# ---------------------------------------------------------------------------

MAGENTA = "#ff00ff"

# Palette 1: deep space. Nebula ramps (violet and blue) and star colours.
PAL_SPACE = [MAGENTA,
             "#120d2c", "#1d1645", "#2b1f62", "#3d2a80", "#56379a",   # 1-5 violet nebula
             "#142650", "#1d3c74", "#2c5a9a",                          # 6-8 blue nebula
             "#4a4e80", "#8a92c8", "#e6eaff",                          # 9-11 star grey ramp
             "#ffd79a", "#9ed8ff", "#ffffff", "#c49ae8"]               # 12-15 star tints

# Palette 2: the space station (cold steel, dark so bullets stand out, a few lights).
PAL_STATION = [MAGENTA,
               "#0a0c18", "#161b2e", "#212a42", "#2e3a58", "#42506f",  # 1-5 steel ramp
               "#62708f", "#8c9ab6",                                   # 6-7 highlights
               "#ff6a3a", "#e8b030",                                   # 8-9 warning orange, stripe
               "#1fc8b0", "#13605e",                                   # 10-11 teal light, teal dark
               "#3a2620", "#6a4028",                                   # 12-13 rust
               "#0c1626", "#58d8ff"]                                   # 14-15 window dark, lit

# Palette 3: the player (white-blue hull, red trim, flame, shots).
PAL_PLAYER = [MAGENTA,
              "#0a0e1e", "#1c3468", "#2a5aa8", "#4a98e0", "#9cd8ff", "#ffffff",  # 1-6
              "#3c4458", "#7c8aa4", "#c4d0e6",                                  # 7-9 grey
              "#ff3c5a", "#ffa030", "#fff0a0",                                  # 10-12 red, flame
              "#40ffc0", "#b8ffe8", "#ff7ad0"]                                  # 13-15 shot tints

# Palette 4: enemies (crimson fighters, olive pods, steel gunship, yellow eyes).
PAL_ENEMY = [MAGENTA,
             "#12081a", "#3c1232", "#6e1c44", "#a82e54", "#e0546c", "#ff9c9c",   # 1-6 crimson
             "#26301e", "#48602c", "#7a9640", "#bcd468",                          # 7-10 olive
             "#ffd23a", "#ff8a20",                                                # 11-12 eye, glow
             "#343c5c", "#66749e", "#a8b6dc"]                                     # 13-15 steel

# Palette 5: the bosses (violet armour, steel, a red core, cyan vents).
PAL_BOSS = [MAGENTA,
            "#0e0a16", "#2a1a40", "#46286c", "#6a3c9a", "#9a5ccc", "#d296f4",     # 1-6 violet
            "#222c3a", "#44566c", "#7a90aa", "#c2d2e4",                           # 7-10 steel
            "#ff2c48", "#ff9a40", "#fff070",                                      # 11-13 core
            "#40e0ff", "#ffffff"]                                                 # 14-15 glow

# Palette 6: enemy bullets (bright rims, white cores, a dark edge).
PAL_BULLET = [MAGENTA,
              "#ff2c7c", "#ff94c8",      # 1-2 pink
              "#2c78ff", "#94ccff",      # 3-4 blue
              "#ffb82c", "#fff09c",      # 5-6 amber
              "#2cff8c", "#a8ffd0",      # 7-8 green
              "#a044ff", "#dcaaff",      # 9-10 violet
              "#ffffff", "#280818",      # 11 white, 12 dark edge
              "#ff3434", "#ff9c3c", "#ffe4f4"]  # 13-15 red, orange, pale

# Palette 7: fire, smoke and items (shared by the title logo).
PAL_FX = [MAGENTA,
          "#1e0a08", "#5a1a10", "#a8321a", "#e8602a", "#ffa040", "#ffe080", "#ffffff",  # 1-7
          "#3a3444", "#6a6078",                                                          # 8-9
          "#1a8a4a", "#4aff8a", "#c4ffd4",                                               # 10-12
          "#2a6aff", "#8ad0ff", "#ffd23a"]                                               # 13-15

# ---------------------------------------------------------------------------
# PNG output
# ---------------------------------------------------------------------------


def hex_rgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def png_bytes(width, height, color_type, bit_depth, raw_rows, plte=None):
    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in raw_rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth,
                                                           color_type, 0, 0, 0))
    if plte is not None:
        out += chunk(b"PLTE", plte)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def write_indexed_png(path, img, palette):
    """Write an Img (indices 0-15) as a 4-bit, colour type 3 PNG."""
    assert img.w % 8 == 0 and img.h % 8 == 0 and len(palette) == 16
    rows = []
    for row in img.px:
        assert all(0 <= p < 16 for p in row)
        rows.append(bytes((row[x] << 4) | row[x + 1] for x in range(0, img.w, 2)))
    plte = b"".join(bytes(hex_rgb(c)) for c in palette)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png_bytes(img.w, img.h, 3, 4, rows, plte))


# ---------------------------------------------------------------------------
# Pixel toolkit
# ---------------------------------------------------------------------------


class Img:
    """A grid of palette indices; 0 is transparent."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [[0] * w for _ in range(h)]

    def get(self, x, y):
        return self.px[y][x] if 0 <= x < self.w and 0 <= y < self.h else 0

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y][x] = c

    def blit(self, other, ox, oy):
        for y in range(other.h):
            for x in range(other.w):
                c = other.px[y][x]
                if c:
                    self.set(ox + x, oy + y, c)


class Mask:
    """A set of pixels on a w x h canvas."""

    def __init__(self, w, h, pixels=()):
        self.w, self.h = w, h
        self.on = set(pixels)

    def __contains__(self, p):
        return p in self.on

    def __or__(self, other):
        return Mask(self.w, self.h, self.on | other.on)

    def __sub__(self, other):
        return Mask(self.w, self.h, self.on - other.on)

    def __and__(self, other):
        return Mask(self.w, self.h, self.on & other.on)

    def mirrored(self):
        """Union with its left-right mirror image (symmetric ships)."""
        return Mask(self.w, self.h, self.on | {(self.w - 1 - x, y) for x, y in self.on})


def poly(w, h, pts, mirror=False):
    """Pixels whose centre lies inside the polygon `pts` (even-odd rule)."""
    on = set()
    n = len(pts)
    for y in range(h):
        for x in range(w):
            px, py = x + 0.5, y + 0.5
            inside = False
            for i in range(n):
                x0, y0 = pts[i]
                x1, y1 = pts[(i + 1) % n]
                if (y0 > py) != (y1 > py):
                    xc = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
                    if px < xc:
                        inside = not inside
            if inside:
                on.add((x, y))
    m = Mask(w, h, on)
    return m.mirrored() if mirror else m


def ellipse(w, h, cx, cy, rx, ry, mirror=False):
    on = {(x, y) for y in range(h) for x in range(w)
          if ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1.0}
    m = Mask(w, h, on)
    return m.mirrored() if mirror else m


def rect(w, h, x0, y0, x1, y1, mirror=False):
    """Pixels x0..x1, y0..y1 inclusive."""
    m = Mask(w, h, {(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)
                    if 0 <= x < w and 0 <= y < h})
    return m.mirrored() if mirror else m


LIGHT = (-0.45, -0.62, 0.64)


def distance_field(mask):
    """Chamfer distance (in px) from every mask pixel to the nearest pixel outside it."""
    INF = 1e9
    w, h = mask.w, mask.h
    d = [[(INF if (x, y) in mask else 0.0) for x in range(w)] for y in range(h)]
    diag = math.sqrt(2)

    def at(x, y):
        return d[y][x] if 0 <= x < w and 0 <= y < h else 0.0

    for y in range(h):
        for x in range(w):
            if d[y][x]:
                d[y][x] = min(d[y][x], at(x - 1, y) + 1, at(x, y - 1) + 1,
                              at(x - 1, y - 1) + diag, at(x + 1, y - 1) + diag)
    for y in range(h - 1, -1, -1):
        for x in range(w - 1, -1, -1):
            if d[y][x]:
                d[y][x] = min(d[y][x], at(x + 1, y) + 1, at(x, y + 1) + 1,
                              at(x + 1, y + 1) + diag, at(x - 1, y + 1) + diag)
    return d


def shade(img, mask, ramp, radius=2.5, light=LIGHT, lo=-0.25, hi=0.95, dome=0.0):
    """Paint `mask` into `img` with colours from `ramp` (dark to light), lit like a pillow:
    a rounded bevel `radius` px wide whose normals are dotted with the light. `dome` adds a
    broad curve over the whole shape, so big flat plates get a gradient too."""
    d = distance_field(mask)
    big = max(max(r) for r in d) if mask.on else 1.0

    def height(x, y):
        if not (0 <= x < mask.w and 0 <= y < mask.h):
            return 0.0
        t = min(d[y][x], radius) / radius
        hgt = radius * math.sqrt(max(0.0, 1.0 - (1.0 - t) ** 2))
        if dome:
            u = d[y][x] / big
            hgt += dome * big * math.sqrt(max(0.0, 1.0 - (1.0 - u) ** 2))
        return hgt

    for (x, y) in mask.on:
        nx = height(x - 1, y) - height(x + 1, y)
        ny = height(x, y - 1) - height(x, y + 1)
        nz = 2.0
        ln = math.sqrt(nx * nx + ny * ny + nz * nz)
        i = (nx * light[0] + ny * light[1] + nz * light[2]) / ln
        t = (i - lo) / (hi - lo)
        k = max(0, min(len(ramp) - 1, int(t * len(ramp))))
        img.set(x, y, ramp[k])


def outline(img, mask, ink, diagonal=False):
    """Draw `ink` on the pixels just outside `mask`."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    for (x, y) in mask.on:
        for dx, dy in steps:
            p = (x + dx, y + dy)
            if p not in mask and 0 <= p[0] < img.w and 0 <= p[1] < img.h:
                img.set(p[0], p[1], ink)


def paint(img, mask, c):
    for (x, y) in mask.on:
        img.set(x, y, c)


def art(img, rows, key, ox=0, oy=0):
    """Draw ASCII pixel art; '.' leaves the pixel alone."""
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                img.set(ox + x, oy + y, key[ch])


def hash2(x, y, seed=0):
    """A deterministic hash of integer coordinates to [0, 1)."""
    h = (x * 374761393 + y * 668265263 + seed * 2246822519) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    h ^= h >> 16
    return (h & 0xFFFFFF) / float(1 << 24)


def value_noise(x, y, cell, px, py, seed):
    """Smooth value noise with lattice `cell` px, periodic over px x py lattice cells."""
    gx, gy = x / cell, y / cell
    x0, y0 = int(math.floor(gx)), int(math.floor(gy))
    fx, fy = gx - x0, gy - y0
    fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)

    def v(i, j):
        return hash2(i % px, j % py, seed)

    a = v(x0, y0) + (v(x0 + 1, y0) - v(x0, y0)) * fx
    b = v(x0, y0 + 1) + (v(x0 + 1, y0 + 1) - v(x0, y0 + 1)) * fx
    return a + (b - a) * fy




# ---------------------------------------------------------------------------
# Sheets and the index of every picture
# ---------------------------------------------------------------------------

INDEX = {}  # name -> first pattern tile (written to game/art.lua)


class Sheet:
    def __init__(self, name, tile, w, h, palette_no, palette):
        self.name, self.tile, self.palette_no, self.palette = name, tile, palette_no, palette
        self.img = Img(w, h)

    def put(self, key, img, x, y):
        """Place `img` with its top-left at sheet pixel (x, y) (multiples of 8)."""
        assert x % 8 == 0 and y % 8 == 0 and x + img.w <= self.img.w and y + img.h <= self.img.h
        self.img.blit(img, x, y)
        if key:
            INDEX[key] = self.tile + (y // 8) * 16 + x // 8

    def save(self):
        write_indexed_png(os.path.join(CART_DIR, "gfx", self.name + ".png"), self.img, self.palette)


# ---------------------------------------------------------------------------
# Player sheet (palette 3)
# ---------------------------------------------------------------------------

P_HULL = [2, 3, 4, 5, 6]
P_GREY = [7, 8, 9, 6]


def player_ship(bank):
    """The 16x16 fighter; bank -1 / 0 / 1 squeezes one wing to fake a roll."""
    img = Img(16, 16)

    def sx(x, side):
        # Wings on the side we roll toward look shorter.
        k = 1.0
        if bank != 0:
            k = 0.72 if side == bank else 1.08
        return 8 + (x - 8) * k

    def wing(side):
        pts = [(8 + side * 1, 6), (8 + side * 7.6, 12.2), (8 + side * 7.6, 14.2), (8 + side * 1, 13.5)]
        return poly(16, 16, [(sx(x, side), y) for x, y in pts])

    body = poly(16, 16, [(8, 0.2), (10.2, 5), (10.2, 13), (9.2, 15.2), (8, 15.2)], mirror=True)
    wings = wing(-1) | wing(1)
    canards = poly(16, 16, [(sx(10, 1), 5), (sx(12.6, 1), 8.4), (sx(10, 1), 8.6)]) | \
        poly(16, 16, [(sx(6, -1), 5), (sx(3.4, -1), 8.4), (sx(6, -1), 8.6)])
    shade(img, wings | canards, P_GREY, radius=1.6)
    shade(img, body, P_HULL, radius=2.2)
    outline(img, body | wings | canards, 1)
    # Cockpit: a cyan canopy with a glint.
    for y, (a, b) in zip(range(3, 8), [(7, 8), (7, 8), (6, 9), (6, 9), (7, 8)]):
        for x in range(a, b + 1):
            img.set(x, y, 4 if y > 5 else 5)
    img.set(7, 4, 6)
    img.set(7, 5, 6)
    # Red trim on the wing tips and an engine bell at the tail.
    for x in range(16):
        for y in range(11, 15):
            if img.get(x, y) in P_GREY and (x <= 2 or x >= 13):
                img.set(x, y, 10)
    for x in (7, 8):
        img.set(x, 14, 7)
        img.set(x, 15, 1)
    return img


def flame(n):
    """8x8 engine flame below the ship, two flickering frames."""
    img = Img(8, 8)
    length = 6 if n == 0 else 4
    for y in range(length):
        half = 1.6 - y * (1.4 / length)
        for x in range(8):
            dx = abs(x + 0.5 - 4)
            if dx <= half + 0.3:
                img.set(x, y, 12 if dx < half * 0.5 else (11 if y < length - 2 else 10))
    return img


def player_shot(core, rim):
    """8x8 shot: a bright bolt 3 px wide."""
    img = Img(8, 8)
    for y in range(8):
        for x in (3, 4):
            img.set(x, y, core)
        if 1 <= y <= 6:
            img.set(2, y, rim)
            img.set(5, y, rim)
    return img


def hud_life():
    img = Img(8, 8)
    art(img, ["...11...",
              "..1551..",
              "..1451..",
              ".134431.",
              "13344331",
              "1a3443a1",
              "11.11.11",
              "........"], {"1": 1, "3": 3, "4": 4, "5": 5, "a": 10})
    return img


def hud_bomb():
    img = Img(8, 8)
    art(img, ["....1c..",
              "...1b1..",
              "..1111..",
              ".133331.",
              ".134431.",
              ".133331.",
              "..1111..",
              "........"], {"1": 1, "3": 10, "4": 12, "b": 11, "c": 12})
    return img


def hitbox_dot():
    """The focus-mode marker of the player's hit box."""
    img = Img(8, 8)
    art(img, ["........",
              "........",
              "...ee...",
              "..e66e..",
              "..e66e..",
              "...ee...",
              "........",
              "........"], {"e": 10, "6": 6})
    return img


def build_player():
    s = Sheet("player", 256, 128, 64, 3, PAL_PLAYER)
    s.put("ship", player_ship(0), 0, 0)
    s.put("ship_left", player_ship(-1), 16, 0)
    s.put("ship_right", player_ship(1), 32, 0)
    s.put("flame", flame(0), 48, 0)
    s.put("flame2", flame(1), 56, 0)
    s.put("shot", player_shot(6, 4), 48, 8)
    s.put("shot_focus", player_shot(14, 13), 56, 8)
    s.put("life", hud_life(), 64, 0)
    s.put("bomb", hud_bomb(), 72, 0)
    s.put("hitbox", hitbox_dot(), 64, 8)
    return s


# ---------------------------------------------------------------------------
# Enemies sheet (palette 4)
# ---------------------------------------------------------------------------

E_RED = [2, 3, 4, 5, 6]
E_OLIVE = [7, 8, 9, 10]
E_STEEL = [1, 13, 14, 15]


def dart(frame):
    """A crimson dart that dives nose-down; two frames of engine glow."""
    img = Img(16, 16)
    body = poly(16, 16, [(8, 15.5), (9.6, 10), (9.6, 2), (8, 1)], mirror=True)
    wings = poly(16, 16, [(9, 9), (15.5, 2.5), (15.5, 0.6), (13, 0.6), (9, 4)], mirror=True)
    shade(img, wings, E_RED[:4], radius=1.5)
    shade(img, body, E_RED, radius=2.0)
    outline(img, body | wings, 1)
    for y in (9, 10, 11):
        img.set(7, y, 11)
        img.set(8, y, 11 if y != 11 else 12)
    glow = 12 if frame == 0 else 11
    img.set(7, 0, glow)
    img.set(8, 0, glow)
    return img


def saucer(frame):
    """An olive saucer with running lights that chase round its rim (4 frames)."""
    img = Img(16, 16)
    disc = ellipse(16, 16, 8, 9, 7.6, 4.6)
    dome = ellipse(16, 16, 8, 6.5, 3.6, 3.6)
    shade(img, disc, E_OLIVE, radius=2.2)
    shade(img, dome, [13, 14, 15, 15], radius=2.0)
    outline(img, disc | dome, 1)
    lights = [(2, 9), (5, 11), (8, 12), (11, 11), (13, 9)]
    for i, (x, y) in enumerate(lights):
        img.set(x, y, 11 if (i + frame) % 4 == 0 else 12 if (i + frame) % 4 == 2 else 7)
    return img


def pod(frame):
    """An armoured steel pod with a red eye that opens and closes (2 frames)."""
    img = Img(16, 16)
    shell = ellipse(16, 16, 8, 8, 7.2, 7.2)
    fins = poly(16, 16, [(13, 3), (15.8, 1), (15.8, 6), (14, 7)], mirror=True)
    shade(img, fins, E_RED[:4], radius=1.2)
    shade(img, shell, E_STEEL[1:] + [15], radius=3.0)
    outline(img, shell | fins, 1)
    eye = ellipse(16, 16, 8, 9, 3.2, 2.4 if frame == 0 else 1.2)
    paint(img, eye, 3)
    paint(img, ellipse(16, 16, 8, 9, 1.6, 1.6 if frame == 0 else 0.8), 11)
    img.set(7, 8, 6)
    for x in range(4, 12):
        if img.get(x, 4) in (13, 14, 15):
            img.set(x, 4, 1 if x % 2 else 13)
    return img


def spinner(frame):
    """A four-bladed spinner, drawn at four rotations (the Lua code cycles them)."""
    img = Img(16, 16)
    a0 = frame * math.pi / 8
    blades = Mask(16, 16)
    for k in range(4):
        a = a0 + k * math.pi / 2
        ca, sa = math.cos(a), math.sin(a)
        pts = [(8 + ca * 7.5 - sa * 1.5, 8 + sa * 7.5 + ca * 1.5),
               (8 + ca * 7.5 + sa * 0.2, 8 + sa * 7.5 - ca * 0.2),
               (8 - sa * 2.6, 8 + ca * 2.6),
               (8 + sa * 1.2, 8 - ca * 1.2)]
        blades = blades | poly(16, 16, pts)
    hub = ellipse(16, 16, 8, 8, 3.4, 3.4)
    shade(img, blades, E_RED[:4], radius=1.3)
    shade(img, hub, E_STEEL[1:] + [15], radius=2.0)
    outline(img, blades | hub, 1)
    img.set(7, 7, 11)
    img.set(8, 8, 12)
    img.set(8, 7, 11)
    img.set(7, 8, 11)
    return img


def gunship():
    """The 32x32 gunship: a steel hull, crimson wings and two amber turrets."""
    img = Img(32, 32)
    hull = poly(32, 32, [(16, 31), (20, 25), (20.5, 6), (18, 1), (16, 1)], mirror=True)
    wings = poly(32, 32, [(19, 8), (31.5, 14), (31.5, 20), (27, 21), (19, 20)], mirror=True)
    pods = ellipse(32, 32, 25.5, 17, 3.2, 5.5, mirror=True)
    shade(img, wings, E_RED, radius=2.2)
    shade(img, hull, E_STEEL[1:] + [15], radius=3.2)
    shade(img, pods, [13, 14, 15], radius=2.0)
    outline(img, hull | wings | pods, 1)
    # Panel lines and a glowing intake.
    for y in (10, 16, 22):
        for x in range(13, 19):
            if img.get(x, y) in (13, 14, 15):
                img.set(x, y, 1)
    paint(img, ellipse(32, 32, 16, 14, 2.2, 3.2), 12)
    paint(img, ellipse(32, 32, 16, 14, 1.0, 2.0), 11)
    for x in (25, 6):
        img.set(x, 21, 11)
        img.set(x, 22, 12)
    return img


def build_enemies():
    s = Sheet("enemies", 384, 128, 128, 4, PAL_ENEMY)
    for f in range(2):
        s.put("dart" if f == 0 else None, dart(f), f * 16, 0)
    for f in range(4):
        s.put("saucer" if f == 0 else None, saucer(f), 32 + f * 16, 0)
    for f in range(2):
        s.put("pod" if f == 0 else None, pod(f), 96 + f * 16, 0)
    for f in range(4):
        s.put("spinner" if f == 0 else None, spinner(f), f * 16, 16)
    s.put("gunship", gunship(), 0, 32)
    return s


# ---------------------------------------------------------------------------
# Bosses sheet (palette 5)
# ---------------------------------------------------------------------------

B_VIOLET = [2, 3, 4, 5, 6]
B_STEEL = [7, 8, 9, 10]


def midboss_half():
    """The left half (32x32) of the 64x32 mid-boss; the right half is this, flipped."""
    img = Img(32, 32)
    # Canvas x 32 is the centre line.
    hull = poly(32, 32, [(32, 2), (25, 4), (19, 12), (18, 22), (24, 30), (32, 31)])
    claw = poly(32, 32, [(20, 10), (6, 6), (1, 12), (1.5, 25), (5, 31), (9, 30), (7, 22), (10, 16), (19, 19)])
    cannon = rect(32, 32, 9, 24, 13, 31)
    shade(img, claw, B_VIOLET, radius=2.6)
    shade(img, cannon, B_STEEL, radius=1.5)
    shade(img, hull, B_STEEL + [10], radius=3.4)
    outline(img, hull | claw | cannon, 1)
    # Armour seams, vents and the half of the red core on the centre line.
    for y in range(8, 28, 5):
        for x in range(20, 32):
            if img.get(x, y) in B_STEEL:
                img.set(x, y, 7)
    core = ellipse(32, 32, 32, 16, 5.5, 6.5)
    shade(img, core, [11, 12, 13, 15], radius=2.8)
    for y in (13, 16, 19):
        for x in (3, 4, 5):
            img.set(x, y, 14)
    img.set(11, 31, 13)
    return img


def line_px(img, x0, y0, x1, y1, c, only=None):
    """A straight line of pixels; with `only`, it only paints over those colours."""
    steps = max(abs(x1 - x0), abs(y1 - y0), 1)
    for i in range(steps + 1):
        x = round(x0 + (x1 - x0) * i / steps)
        y = round(y0 + (y1 - y0) * i / steps)
        if only is None or img.get(x, y) in only:
            img.set(x, y, c)


def boss_core():
    """The 64x64 boss body, nose down: a steel keel, angular violet armour plates on both
    sides (each shaded and outlined on its own, so the seams read), engines at the top,
    cannons below and a red core in the middle."""
    img = Img(64, 64)
    W = 64

    def half(pts):
        return poly(W, W, [(32 + x, y) for x, y in pts], mirror=True)

    keel = half([(0, 0.5), (6, 3), (9, 14), (9, 46), (5, 58), (0, 63)])
    shoulder = half([(10, 5), (22, 2), (31.5, 11), (31.5, 23), (22, 27), (10, 23)])
    flank = half([(10, 28), (25, 29), (31, 37), (27, 47), (15, 51), (10, 46)])
    engines = half([(13, 0), (19, 0), (19, 5), (13, 5)])
    guns = half([(17, 46), (20, 46), (20, 59), (17, 59)])
    shade(img, engines, [7, 8, 9], radius=1.2)
    shade(img, guns, B_STEEL, radius=1.4)
    shade(img, shoulder, B_VIOLET, radius=3.0, dome=0.25)
    shade(img, flank, B_VIOLET, radius=3.0, dome=0.25)
    shade(img, keel, B_STEEL + [10], radius=3.0, dome=0.2)
    outline(img, keel | shoulder | flank | engines | guns, 1)
    # Engine glow (the boss flies nose down, so its engines face up).
    for x in list(range(46, 50)) + list(range(14, 18)):
        img.set(x, 0, 15)
        img.set(x, 1, 14)
    # Seams and vents on the armour.
    for sx in (1, -1):
        def X(hx):
            return 32 + hx if sx > 0 else 31 - hx
        line_px(img, X(12), 15, X(28), 13, 2, B_VIOLET)
        line_px(img, X(13), 38, X(28), 40, 2, B_VIOLET)
        for k in range(4):
            for y in range(18, 22):
                img.set(X(14 + k * 3), y, 14 if y < 21 else 1)
        for y in range(31, 35):
            img.set(X(26), y, 11)
        img.set(X(18), 59, 13)
        img.set(X(19), 59, 12)
    # Keel: panel lines and running lights.
    for y in (10, 22, 46, 52):
        line_px(img, 26, y, 37, y, 7, B_STEEL + [10])
    for y in range(6, 20, 4):
        img.set(31, y, 14)
        img.set(32, y, 14)
    # The core: a red eye in a steel ring.
    ring = ellipse(W, W, 32, 33, 9.5, 9.5)
    eye = ellipse(W, W, 32, 33, 7.0, 7.0)
    shade(img, ring - eye, B_STEEL + [10], radius=2.5)
    shade(img, eye, [11, 11, 12, 13, 15], radius=4.5)
    outline(img, ring, 1)
    return img


def boss_wing():
    """A 32x32 weapon pod bolted on each side of the boss (the left one; flip for right):
    an angular shell, a cyan sensor lens and two barrels."""
    img = Img(32, 32)
    shell = poly(32, 32, [(31.5, 4), (20, 1.5), (8, 3), (1.5, 12), (2, 22), (9, 28), (24, 28), (31.5, 22)])
    barrel = rect(32, 32, 8, 24, 11, 31) | rect(32, 32, 19, 24, 22, 31)
    shade(img, barrel, B_STEEL, radius=1.4)
    shade(img, shell, B_VIOLET, radius=2.8, dome=0.25)
    outline(img, shell | barrel, 1)
    line_px(img, 4, 18, 30, 18, 2, B_VIOLET)
    line_px(img, 12, 4, 12, 17, 2, B_VIOLET)
    lens = ellipse(32, 32, 21, 10, 4.5, 4.5)
    shade(img, lens, [7, 14, 14, 15], radius=2.6)
    outline(img, lens, 1)
    for x in range(4, 10, 2):
        for y in range(20, 25):
            img.set(x, y, 14 if y < 24 else 1)
    img.set(9, 31, 13)
    img.set(20, 31, 13)
    return img


def build_bosses():
    s = Sheet("bosses", 640, 128, 128, 5, PAL_BOSS)
    s.put("midboss", midboss_half(), 0, 0)
    s.put("boss_wing", boss_wing(), 32, 0)
    s.put("boss", boss_core(), 0, 32)
    return s


# ---------------------------------------------------------------------------
# Bullets sheet (palette 6)
# ---------------------------------------------------------------------------


def round_bullet(size, r, rim, body, core=11, edge=12):
    img = Img(size, size)
    c = size / 2
    for y in range(size):
        for x in range(size):
            d = math.hypot(x + 0.5 - c, y + 0.5 - c)
            if d <= r - 1.4:
                img.set(x, y, core)
            elif d <= r - 0.6:
                img.set(x, y, body)
            elif d <= r:
                img.set(x, y, rim)
            elif d <= r + 0.9:
                img.set(x, y, edge)
    return img


def long_bullet(rim, body):
    """A rice grain pointing up/down (used only by shots that fall mostly downward)."""
    img = Img(8, 8)
    for y in range(8):
        for x in range(8):
            dx, dy = (x + 0.5 - 4) / 2.3, (y + 0.5 - 4) / 4.0
            d = math.sqrt(dx * dx + dy * dy)
            if d <= 0.45:
                img.set(x, y, 11)
            elif d <= 0.8:
                img.set(x, y, body)
            elif d <= 1.0:
                img.set(x, y, rim)
    return img


def build_bullets():
    s = Sheet("bullets", 896, 128, 32, 6, PAL_BULLET)
    small = [("b_pink", 1, 2), ("b_blue", 3, 4), ("b_amber", 5, 6), ("b_green", 7, 8), ("b_violet", 9, 10)]
    for i, (key, rim, body) in enumerate(small):
        s.put(key, round_bullet(8, 3.4, rim, body), i * 8, 0)
    s.put("l_pink", long_bullet(1, 2), 40, 0)
    s.put("l_blue", long_bullet(3, 4), 48, 0)
    s.put("l_amber", long_bullet(5, 6), 56, 0)
    big = [("big_red", 13, 14), ("big_blue", 3, 4), ("big_violet", 9, 10), ("big_pink", 1, 2)]
    for i, (key, rim, body) in enumerate(big):
        s.put(key, round_bullet(16, 6.6, rim, body, core=15), i * 16, 16)
    return s


# ---------------------------------------------------------------------------
# FX sheet (palette 7): explosions, items, sparks
# ---------------------------------------------------------------------------

FIRE = [7, 6, 5, 4, 3, 2]  # hottest first


def explosion(size, frame, frames, seed):
    """Frame `frame` of a fireball that grows, cools and breaks into smoke."""
    img = Img(size, size)
    c = size / 2
    t = frame / (frames - 1)
    radius = c * (0.35 + 0.6 * math.sqrt(t))
    heat = t * 1.25                      # 0 = white hot, >1 = smoke
    hole = max(0.0, t - 0.35) * 1.3      # how much of the ball has broken up
    for y in range(size):
        for x in range(size):
            dx, dy = x + 0.5 - c, y + 0.5 - c
            d = math.hypot(dx, dy) / radius
            n = value_noise(x * 8 / size, y * 8 / size, 1.7, 64, 64, seed + frame)
            if d > 1.0 + (n - 0.5) * 0.5:
                continue
            if hole > 0 and n < hole * (0.6 + 0.6 * d):
                continue
            v = d * 0.7 + heat + (n - 0.5) * 0.5
            if v < 0.25:
                col = 7
            elif v < 0.45:
                col = 6
            elif v < 0.7:
                col = 5
            elif v < 0.95:
                col = 4
            elif v < 1.2:
                col = 3
            elif v < 1.45:
                col = 9 if n > 0.5 else 2
            else:
                col = 8
            img.set(x, y, col)
    return img


def item_star(frame):
    """The gold score chip that cancelled bullets turn into (2 twinkle frames)."""
    img = Img(8, 8)
    rows = (["...f....",
             "..f7f...",
             ".f777f..",
             "f77777f.",
             ".f777f..",
             "..f7f...",
             "...f....",
             "........"] if frame == 0 else
            ["........",
             "...f....",
             "..f7f...",
             ".f777f..",
             "..f7f...",
             "...f....",
             "........",
             "........"])
    art(img, rows, {"7": 6, "f": 15})
    if frame == 0:
        img.set(3, 2, 7)
    return img


def item_gem(frame):
    """The blue point gem enemies drop."""
    img = Img(8, 8)
    art(img, ["...d....",
              "..ded...",
              ".dedde..",
              "deddde.." if frame == 0 else "deeede..",
              ".dedde..",
              "..ded...",
              "...d....",
              "........"], {"d": 13, "e": 14})
    if frame == 1:
        img.set(3, 1, 7)
    return img


def spark(frame):
    """A small hit spark (3 frames)."""
    img = Img(8, 8)
    r = [1.2, 2.6, 3.4][frame]
    for y in range(8):
        for x in range(8):
            dx, dy = x + 0.5 - 4, y + 0.5 - 4
            if abs(dx) < 0.6 or abs(dy) < 0.6 or abs(abs(dx) - abs(dy)) < 0.5:
                d = math.hypot(dx, dy)
                if d <= r:
                    img.set(x, y, 7 if d < r * 0.5 else (6 if frame < 2 else 5))
    return img


def build_fx():
    s = Sheet("fx", 960, 128, 96, 7, PAL_FX)
    for f in range(6):
        s.put("boom" if f == 0 else None, explosion(16, f, 6, 11), f * 16, 0)
    for f in range(4):
        s.put("bigboom" if f == 0 else None, explosion(32, f, 4, 29), f * 32, 16)
    s.put("star", item_star(0), 96, 0)
    s.put(None, item_star(1), 104, 0)
    s.put("gem", item_gem(0), 112, 0)
    s.put(None, item_gem(1), 120, 0)
    for f in range(3):
        s.put("spark" if f == 0 else None, spark(f), 96 + f * 8, 8)
    return s


# ---------------------------------------------------------------------------
# Title logo (palette 7)
# ---------------------------------------------------------------------------

FONT = {
    "N": ["X...X", "XX..X", "XX..X", "X.X.X", "X..XX", "X..XX", "X...X"],
    "O": [".XXX.", "X...X", "X...X", "X...X", "X...X", "X...X", ".XXX."],
    "V": ["X...X", "X...X", "X...X", "X...X", ".X.X.", ".X.X.", "..X.."],
    "A": [".XXX.", "X...X", "X...X", "XXXXX", "X...X", "X...X", "X...X"],
    "L": ["X....", "X....", "X....", "X....", "X....", "X....", "XXXXX"],
    "C": [".XXXX", "X....", "X....", "X....", "X....", "X....", ".XXXX"],
    "E": ["XXXXX", "X....", "X....", "XXXX.", "X....", "X....", "XXXXX"],
}


def logo_line(text, scale, width, height):
    """Big letters: a fire gradient from white-hot at the top to red at the bottom,
    a dark outline and a drop shadow."""
    img = Img(width, height)
    cw = 5 * scale + scale          # glyph plus gap
    total = len(text) * cw - scale
    ox, oy = (width - total) // 2, (height - 7 * scale) // 2 - 1
    m = Mask(width, height)
    for i, ch in enumerate(text):
        for gy, row in enumerate(FONT[ch]):
            for gx, v in enumerate(row):
                if v == "X":
                    for yy in range(scale):
                        for xx in range(scale):
                            m.on.add((ox + i * cw + gx * scale + xx, oy + gy * scale + yy))
    shadow = Mask(width, height, {(x + 2, y + 2) for x, y in m.on if x + 2 < width and y + 2 < height})
    paint(img, shadow - m, 1)
    ramp = [7, 6, 6, 5, 5, 4, 3]
    for (x, y) in m.on:
        t = (y - oy) / (7 * scale)
        img.set(x, y, ramp[min(len(ramp) - 1, int(t * len(ramp)))])
    # A highlight along the top-left edges of every stroke.
    for (x, y) in m.on:
        if (x - 1, y) not in m or (x, y - 1) not in m:
            if img.get(x, y) not in (7,):
                img.set(x, y, 6 if img.get(x, y) in (5, 4) else 7)
    outline(img, m, 1, diagonal=True)
    return img


def build_logo():
    s = Sheet("logo", 1152, 128, 64, 7, PAL_FX)
    s.put("logo1", logo_line("NOVA", 4, 128, 32), 0, 0)
    s.put("logo2", logo_line("LANCE", 3, 128, 32), 0, 32)
    return s


# ---------------------------------------------------------------------------
# Stars (palette 1): 8 px tiles for the far layer
# ---------------------------------------------------------------------------


def build_stars():
    s = Sheet("stars", 0, 128, 32, 1, PAL_SPACE)
    k = 1
    # Tile 0 stays empty (empty map cells show it). Tiles 1-31: stars of a few kinds at
    # different places inside the tile so the field does not look like a grid.
    kinds = [("dot", 9), ("dot", 10), ("dot", 11), ("dot", 13), ("dot", 12), ("dot", 15),
             ("big", 11), ("big", 13), ("cross", 11), ("cross", 14), ("cross", 12)]
    for i in range(31):
        img = Img(8, 8)
        kind, col = kinds[i % len(kinds)]
        x = 1 + int(hash2(i, 1, 5) * 6)
        y = 1 + int(hash2(i, 2, 5) * 6)
        if kind == "dot":
            img.set(x, y, col)
        elif kind == "big":
            img.set(x, y, col)
            img.set(x + 1, y, 10)
            img.set(x, y + 1, 10)
            img.set(x + 1, y + 1, 9)
        else:
            x, y = min(max(x, 1), 6), min(max(y, 1), 6)
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                img.set(x + dx, y + dy, 10)
            img.set(x, y, col)
        s.put(None, img, (k % 16) * 8, (k // 16) * 8)
        k += 1
    INDEX["stars"] = 0
    return s


# ---------------------------------------------------------------------------
# Nebula (palette 1): a periodic cloud image cut into unique 8 px tiles
# ---------------------------------------------------------------------------

NEB_W, NEB_H = 256, 512


def nebula_pixel(x, y):
    """Banded clouds: three octaves of periodic noise cut into flat colour bands, with a
    one-pixel checker dither on the edge of each band (flat bands keep the tile count low).
    The outermost band is a checkerboard haze."""
    n, amp, total = 0.0, 1.0, 0.0
    for octave, cell in enumerate((128, 64, 32)):
        n += amp * value_noise(x, y, cell, NEB_W // cell, NEB_H // cell, 40 + octave)
        total += amp
        amp *= 0.5
    n /= total
    hue = value_noise(x, y, 128, NEB_W // 128, NEB_H // 128, 77)
    level = (n - 0.48) * 9.6              # < 0: empty space
    if level <= 0:
        return 0
    ramp = [1, 2, 3, 4, 5] if hue < 0.5 else [1, 6, 7, 8]
    i = int(level)
    if level - i < 0.12 and (x + y) % 2 == 0:
        i -= 1
    if i < 0:
        return 0
    if i == 0:
        # The outermost band is a thin haze (half its pixels), so stars show through.
        return ramp[0] if (x + y) % 2 == 0 else 0
    return ramp[min(i, len(ramp) - 1)]


def build_nebula():
    pic = [[nebula_pixel(x, y) for x in range(NEB_W)] for y in range(NEB_H)]
    tiles = {}        # tile bytes -> index (0 = empty)
    order = []
    cells = []
    empty = tuple([0] * 64)
    for cy in range(NEB_H // 8):
        row = []
        for cx in range(NEB_W // 8):
            t = tuple(pic[cy * 8 + y][cx * 8 + x] for y in range(8) for x in range(8))
            if t == empty:
                row.append(None)
                continue
            if t not in tiles:
                tiles[t] = len(order)
                order.append(t)
            row.append(tiles[t])
        cells.append(row)
    rows = (len(order) + 15) // 16
    assert rows * 16 <= 768, "nebula has %d tiles, more than fit" % len(order)
    s = Sheet("nebula", 1280, 128, max(8, rows * 8), 1, PAL_SPACE)
    for i, t in enumerate(order):
        img = Img(8, 8)
        img.px = [list(t[y * 8:(y + 1) * 8]) for y in range(8)]
        s.put(None, img, (i % 16) * 8, (i // 16) * 8)
    INDEX["nebula"] = 1280
    return s, cells, len(order)


def star_cells():
    """A sparse star field for the far layer: about one cell in seven holds a star."""
    rows = []
    for cy in range(NEB_H // 8):
        row = []
        for cx in range(NEB_W // 8):
            h = hash2(cx, cy, 123)
            row.append(1 + int(hash2(cx, cy, 321) * 31) if h < 0.15 else 0)
        rows.append(row)
    return rows


def write_space_map(stars, neb_cells, neb_count, neb_sheet_h):
    w, h = NEB_W // 8, NEB_H // 8
    neb_first = 1 + 64
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
           'renderorder="right-down" width="%d" height="%d" tilewidth="8" tileheight="8" '
           'infinite="0" nextlayerid="3" nextobjectid="1">' % (w, h),
           ' <tileset firstgid="1" name="stars" tilewidth="8" tileheight="8" '
           'tilecount="64" columns="16">',
           '  <image source="../gfx/stars.png" width="128" height="32"/>',
           ' </tileset>',
           ' <tileset firstgid="%d" name="nebula" tilewidth="8" tileheight="8" '
           'tilecount="%d" columns="16">' % (neb_first, (neb_sheet_h // 8) * 16),
           '  <image source="../gfx/nebula.png" width="128" height="%d"/>' % neb_sheet_h,
           ' </tileset>']
    layers = [(1, "stars", [[(t + 1 if t else 0) for t in r] for r in stars]),
              (2, "nebula", [[(t + neb_first if t is not None else 0) for t in r] for r in neb_cells])]
    for lid, name, grid in layers:
        out.append(' <layer id="%d" name="%s" width="%d" height="%d">' % (lid, name, w, h))
        out.append('  <data encoding="csv">')
        out.append(",\n".join(",".join(str(g) for g in r) for r in grid))
        out.append('</data>')
        out.append(' </layer>')
    out.append('</map>')
    path = os.path.join(CART_DIR, "maps", "space.tmx")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(out) + "\n")


# ---------------------------------------------------------------------------
# Space station (palette 2): 16 px metatiles for the near layer
# ---------------------------------------------------------------------------
#
# Hull metatile m (0-15) is a hull cell whose four neighbours are filled as the bits of m
# say: 1 up, 2 right, 4 down, 8 left. Open sides get a bevelled rim and an outline; a
# corner where both sides are open is cut at 45 degrees. Metatiles 16-23 are interior
# variants (all four neighbours filled), 24-27 girder pieces.

S_UP, S_RIGHT, S_DOWN, S_LEFT = 1, 2, 4, 8


def hull_cell(m, seed=0):
    img = Img(16, 16)
    open_up, open_right = not (m & S_UP), not (m & S_RIGHT)
    open_down, open_left = not (m & S_DOWN), not (m & S_LEFT)
    inside = set()
    for y in range(16):
        for x in range(16):
            cut = 4
            if open_up and open_left and x + y < cut:
                continue
            if open_up and open_right and (15 - x) + y < cut:
                continue
            if open_down and open_left and x + (15 - y) < cut:
                continue
            if open_down and open_right and (15 - x) + (15 - y) < cut:
                continue
            if open_up and y < 1 or open_down and y > 14 or open_left and x < 1 or open_right and x > 14:
                continue
            inside.add((x, y))
    mask = Mask(16, 16, inside)
    # Flat plate colour with seams on the cell grid, then bevel the open edges.
    for (x, y) in inside:
        c = 3
        if (x == 0 and not open_left) or (y == 0 and not open_up):
            c = 2                                  # seam between plates
        if (x + y * 3 + seed) % 11 == 0 and c == 3 and 2 < x < 13 and 2 < y < 13:
            c = 4
        img.set(x, y, c)
    d = distance_field(mask)
    for (x, y) in inside:
        if d[y][x] <= 2.2:
            # Which open side is nearest decides light or shadow.
            near_top = open_up and y <= 2
            near_left = open_left and x <= 2
            near_bottom = open_down and y >= 13
            near_right = open_right and x >= 13
            if near_top or near_left:
                img.set(x, y, 6 if d[y][x] <= 1.2 else 5)
            elif near_bottom or near_right:
                img.set(x, y, 1 if d[y][x] <= 1.2 else 2)
            else:
                # a cut corner: lit if it faces up-left
                img.set(x, y, 5 if (x + y) < 16 else 2)
    outline(img, mask, 1)
    # Rivets at the plate corners.
    for (x, y) in ((3, 3), (12, 3), (3, 12), (12, 12)):
        if (x, y) in inside and d[y][x] > 2.2:
            img.set(x, y, 5)
            img.set(x + 1, y + 1, 1)
    return img


def interior(kind):
    img = hull_cell(15, kind)
    if kind == 0:          # vent grille
        for y in range(4, 12):
            for x in range(4, 12):
                img.set(x, y, 1 if y % 2 == 0 else 2)
        for x in range(4, 12):
            img.set(x, 3, 5)
    elif kind == 1:        # lit windows
        for x in range(2, 14, 3):
            for y in range(5, 11):
                img.set(x, y, 14)
                img.set(x + 1, y, 15 if y < 8 else 14)
            img.set(x, 11, 5)
            img.set(x + 1, 11, 5)
    elif kind == 2:        # pipe running down the plate
        for y in range(16):
            for x, c in ((6, 1), (7, 5), (8, 6), (9, 4), (10, 1)):
                img.set(x, y, c)
        for x in range(6, 11):
            img.set(x, 7, 7 if x == 8 else 2)
    elif kind == 3:        # warning stripes
        for y in range(3, 13):
            for x in range(3, 13):
                img.set(x, y, 9 if (x + y) % 6 < 3 else 1)
    elif kind == 4:        # teal light panel
        for y in range(5, 11):
            for x in range(5, 11):
                img.set(x, y, 10 if 6 <= x <= 9 and 6 <= y <= 9 else 11)
        img.set(6, 6, 15)
    elif kind == 5:        # rust patch
        for y in range(16):
            for x in range(16):
                if hash2(x, y, 9) < 0.35 and 2 < x < 14 and 2 < y < 14:
                    img.set(x, y, 12 if hash2(x, y, 10) < 0.6 else 13)
    elif kind == 6:        # orange warning lamp
        for y in range(6, 10):
            for x in range(6, 10):
                img.set(x, y, 8)
        img.set(6, 6, 9)
        for x in range(5, 11):
            img.set(x, 10, 1)
    return img


def girder(piece):
    """A truss between the walls: piece 0 is a middle span, 1 a left end, 2 a right end."""
    img = Img(16, 16)
    for x in range(16):
        for y, c in ((4, 1), (5, 6), (6, 4), (7, 1), (10, 1), (11, 5), (12, 3), (13, 1)):
            img.set(x, y, c)
    for x in range(16):
        # diagonal braces between the rails
        y1 = 8 + (x % 8) // 4
        if (x % 8) in (1, 2, 5, 6):
            img.set(x, 8 if (x % 8) < 4 else 9, 4)
            img.set(x, 9 if (x % 8) < 4 else 8, 2)
    if piece == 1:
        for y in range(2, 16):
            for x in range(0, 3):
                img.set(x, y, [1, 5, 3][x] if 2 < y < 15 else 1)
    if piece == 2:
        for y in range(2, 16):
            for x in range(13, 16):
                img.set(x, y, [3, 2, 1][x - 13] if 2 < y < 15 else 1)
    # blinking-light spot on the middle span
    if piece == 0:
        img.set(7, 5, 10)
        img.set(8, 5, 10)
    return img


def build_station():
    s = Sheet("station", 64, 128, 96, 2, PAL_STATION)
    slots = [hull_cell(m) for m in range(16)] + [interior(k) for k in range(7)] + \
        [girder(p) for p in range(3)]
    for i, img in enumerate(slots):
        s.put(None, img, (i % 8) * 16, (i // 8) * 16)
    INDEX["station"] = 64
    return s


# ---------------------------------------------------------------------------


def write_index():
    lines = ["-- Generated by tools/make_art.py: the first pattern tile of every picture.",
             "-- Do not edit by hand; run the script again after changing the art.",
             "return {"]
    for k in sorted(INDEX):
        lines.append("  %s = %d," % (k, INDEX[k]))
    lines.append("}")
    path = os.path.join(CART_DIR, "game", "art.lua")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def main():
    sheets = [build_stars(), build_station(), build_player(), build_enemies(), build_bosses(),
              build_bullets(), build_fx(), build_logo()]
    neb_sheet, neb_cells, neb_count = build_nebula()
    sheets.append(neb_sheet)
    for s in sheets:
        s.save()
    write_space_map(star_cells(), neb_cells, neb_count, neb_sheet.img.h)
    write_index()
    print("wrote %d sheets (%d nebula tiles), maps/space.tmx and game/art.lua under %s"
          % (len(sheets), neb_count, CART_DIR))


if __name__ == "__main__":
    main()
