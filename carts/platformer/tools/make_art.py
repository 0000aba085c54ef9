#!/usr/bin/env python3
"""Generate the graphics and the first stage of Kairo's bundled platformer cart.

Outputs (paths relative to carts/platformer/):

  gfx/tiles.png    128x128, 4-bit indexed PNG.  16x16 metatiles, 8 per row, so
                   Tiled tile id k sits at x=(k%8)*16, y=(k//8)*16.  Loaded
                   into console palette 1.
  gfx/sprites.png  128x64, 4-bit indexed PNG.  16x16 sprites, 8 per row
                   (enemies, coin, heart, spark; slots 0-10 are left for the
                   hero).  Loaded into palette 2.  Every sprite faces right;
                   the console flips for left.
  gfx/hero.aseprite  the hero as an indexed Aseprite file: 11 frames of 16x16
                   with their durations, tags for each pose (idle, run, jump,
                   fall, climb, hurt) and a hidden hitbox guide layer.  Loaded
                   over sprite slots 0-10 (tile 256, tile_size 16, palette 2).
  maps/stage1.tmx  Tiled 1.10 map, 64x16 cells of 16x16, with an embedded
                   tileset (collision classes as tile properties), the layers
                   `background` and `terrain` (CSV) and the object layer
                   `objects`.

Map conventions: the CSV stores Tiled gids (local tile id + 1, 0 = empty).
`player_start` is a point at the hero's feet (bottom centre); `walker`,
`coin` and `goal` are rectangles in pixels (x, y = top-left).  The ladder's
top cell sits level with the one-way platform it leads to, so the ladder top
is flush with the plank surface.

Both PNGs have a 16-entry PLTE; index 0 is transparent on the console and is
stored as magenta (#ff00ff) so that stray transparent pixels show up in image
viewers.  Everything is drawn procedurally or from the ASCII pixel art below,
with no randomness, so re-running the script reproduces the files byte for
byte.  Python 3 standard library only.

Usage (from the repo root, or anywhere):  python3 carts/platformer/tools/make_art.py
"""

import os
import struct
import zlib

CART_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------------------
# PNG output
# ---------------------------------------------------------------------------

def hex_rgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def write_indexed_png(path, pixels, palette_hex):
    """Write `pixels` (rows of indices 0-15) as a 4-bit, colour type 3 PNG."""
    height, width = len(pixels), len(pixels[0])
    assert width % 2 == 0 and len(palette_hex) <= 16
    raw = bytearray()
    for row in pixels:
        assert len(row) == width and all(0 <= p < len(palette_hex) for p in row)
        raw.append(0)  # filter type: None
        for x in range(0, width, 2):
            raw.append((row[x] << 4) | row[x + 1])

    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 4, 3, 0, 0, 0)
    plte = b"".join(bytes(hex_rgb(c)) for c in palette_hex)
    trns = b"\x00"  # index 0 is transparent
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"PLTE", plte)
           + chunk(b"tRNS", trns)
           + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


def write_aseprite(path, frames, palette_hex, layers, tags):
    """Write an indexed Aseprite file (transparent index 0), as Aseprite 1.3 saves one.

    `frames`: durations in ms. `layers`: (name, visible, cels) from the bottom up, where
    `cels[f]` is a grid of indices, an int (a cel linked to that earlier frame) or None.
    `tags`: (name, from, to, direction 0-3). Format: Aseprite's docs/ase-file-specs.md.
    """
    first = next(c for _, _, cels in layers for c in cels if isinstance(c, list))
    height, width = len(first), len(first[0])

    def chunk(kind, data):
        return struct.pack("<IH", len(data) + 6, kind) + data

    def string(text):
        raw = text.encode()
        return struct.pack("<H", len(raw)) + raw

    body = []
    for f, duration in enumerate(frames):
        chunks = []
        if f == 0:
            chunks.append(chunk(0x2007, struct.pack("<HHI8x", 1, 0, 0)))  # sRGB
            entries = b"".join(struct.pack("<H4B", 0, *hex_rgb(c), 255) for c in palette_hex)
            chunks.append(chunk(0x2019, struct.pack("<III8x", len(palette_hex), 0,
                                                    len(palette_hex) - 1) + entries))
            for name, visible, _ in layers:
                flags = (1 if visible else 0) | 2
                chunks.append(chunk(0x2004, struct.pack("<HHHHHHB3x", flags, 0, 0, 0, 0, 0, 255)
                                    + string(name)))
            tag_data = struct.pack("<H8x", len(tags))
            for name, start, end, direction in tags:
                tag_data += struct.pack("<HHBH6x3Bx", start, end, direction, 0, 0, 0, 0) + string(name)
            chunks.append(chunk(0x2018, tag_data))
        for index, (_, _, cels) in enumerate(layers):
            cel = cels[f]
            head = struct.pack("<HhhBHh5x", index, 0, 0, 255, 1 if isinstance(cel, int) else 2, 0)
            if cel is None:
                continue
            if isinstance(cel, int):
                chunks.append(chunk(0x2005, head + struct.pack("<H", cel)))
            else:
                pixels = bytes(p for row in cel for p in row)
                chunks.append(chunk(0x2005, head + struct.pack("<HH", width, height)
                                    + zlib.compress(pixels, 9)))
        data = b"".join(chunks)
        body.append(struct.pack("<IHHH2xI", 16 + len(data), 0xF1FA, len(chunks), duration,
                                len(chunks)) + data)
    frames_data = b"".join(body)
    header = struct.pack("<IHHHHHIHII B3xHBBhhHH84x", 128 + len(frames_data), 0xA5E0,
                         len(frames), width, height, 8, 1, 100, 0, 0, 0, len(palette_hex),
                         1, 1, 0, 0, 16, 16)
    assert len(header) == 128
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(header + frames_data)


# ---------------------------------------------------------------------------
# Small pixel-grid toolkit (a grid is a list of rows of palette indices)
# ---------------------------------------------------------------------------

def blank(w=16, h=16, c=0):
    return [[c] * w for _ in range(h)]


def from_art(rows, key):
    """ASCII art -> grid.  `key` maps characters to palette indices."""
    assert len(rows) == 16, len(rows)
    for r in rows:
        assert len(r) == 16, (len(r), r)
    return [[key[ch] for ch in r] for r in rows]


def hflip(g):
    return [list(reversed(r)) for r in g]


def outline_inside(mask, solid_below=False):
    """Pixels of `mask` that touch a non-mask 4-neighbour (the shape's rim).

    With solid_below, the area under the cell counts as filled, so a shape
    resting on the bottom edge gets no outline there."""
    h, w = len(mask), len(mask[0])
    rim = set()
    for y in range(h):
        for x in range(w):
            if not mask[y][x]:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                if ny >= h and solid_below:
                    continue
                if not (0 <= nx < w and 0 <= ny < h) or not mask[ny][nx]:
                    rim.add((x, y))
                    break
    return rim


def circles_mask(circles, w=16, h=16, rect=None):
    """Union of circles (cx, cy, r) given in pixel-centre coordinates."""
    m = blank(w, h)
    for y in range(h):
        for x in range(w):
            for cx, cy, r in circles:
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    m[y][x] = 1
            if rect and rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]:
                m[y][x] = 1
    return m


# ---------------------------------------------------------------------------
# Tiles sheet (palette 1)
# ---------------------------------------------------------------------------

TILE_PALETTE = [
    "#ff00ff",  # 0  transparent
    "#1c1a2e",  # 1  outline (ink)
    "#5e3526",  # 2  earth dark
    "#94583a",  # 3  earth
    "#c8864e",  # 4  earth light / wood light / gold shade
    "#246238",  # 5  grass dark
    "#48a640",  # 6  grass
    "#9edc52",  # 7  grass light
    "#4a4f6a",  # 8  stone dark
    "#7f89a3",  # 9  stone
    "#bcc6d8",  # 10 stone light
    "#3a7fd4",  # 11 blue (water, ice edge)
    "#9cdcf6",  # 12 ice / pale blue
    "#f6f8fc",  # 13 white
    "#f8c838",  # 14 gold
    "#d8402c",  # 15 red
]

(CLEAR, INK, E_DK, E_MD, E_LT, G_DK, G_MD, G_LT,
 S_DK, S_MD, S_LT, BLUE, ICE, WHITE, GOLD, RED) = range(16)

# Earth texture, periodic over 16x16 so that every tile that shows earth
# (fill, grass top, slopes) lines up seamlessly.  '.' is plain earth.
EARTH = [
    "................",
    "..44.........2..",
    ".4432...........",
    "..222......44...",
    "..........4432..",
    "....2......222..",
    "................",
    ".......44.......",
    "2.....4432.....2",
    ".......222......",
    "..2.............",
    "............44..",
    "...44......4432.",
    "..4432......222.",
    "...222..2.......",
    "................",
]


def earth(x, y):
    ch = EARTH[y % 16][x % 16]
    return E_MD if ch == "." else int(ch)


# How far the dark grass hangs below the 3 px grass band, per column.  Zero at
# the cell edges so the band is shallowest where a slope foot meets flat ground.
GRASS_DRIP = [0, 1, 2, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 2, 1, 0]


def ground_pixel(x, y, depth):
    """Colour of the ground at (x, y), `depth` pixels below the surface.

    The band is: ink edge, light grass, grass, dark grass drips of varying
    length, a dark-earth shadow, then the shared earth texture."""
    drip = GRASS_DRIP[x % 16]
    if depth == 0:
        return INK
    if depth == 1:
        return G_LT
    if depth == 2:
        return G_LT if x % 4 == 1 else G_MD
    if depth < 3 + drip:
        return G_DK
    if depth == 3 + drip:
        return E_DK
    return earth(x, y)


def ground_tile(heights):
    """Solid ground whose surface in column x is heights[x] px above the bottom."""
    g = blank()
    for x, h in enumerate(heights):
        top = 16 - h
        for y in range(top, 16):
            g[y][x] = ground_pixel(x, y, y - top)
    return g


def tile_grass_top():
    return ground_tile([16] * 16)


def tile_earth():
    return [[earth(x, y) for x in range(16)] for y in range(16)]


def slope_heights(h_left, h_right):
    """Per-column floor heights for a slope from h_left to h_right (px).

    Column x gets the height at its right edge when rising and at its left
    edge when falling, so each column is drawn at least 1 px tall and the
    heights at the cell edges match the neighbouring cells exactly."""
    run = h_right - h_left
    out = []
    for x in range(16):
        if run >= 0:  # rising: sample at right edge, round up
            out.append(h_left + -(-run * (x + 1) // 16))
        else:          # falling: mirror of the rising case
            out.append(h_right + -(-(-run) * (16 - x) // 16))
    return out


BRICK_ART = [
    "oooooooooooooooo",
    "olllllllmllllllo",
    "olbbbbbbmlbbbbbo",
    "olbbbbbbmlbbbbdo",
    "olbbbbbdmlbbbbbo",
    "ommmmmmmmmmmmmmo",
    "olllmllllllllmlo",
    "olbbmlbbbbbbmlbo",
    "olbbmlbbbbbdmlbo",
    "olbdmlbbbbbbmlbo",
    "ommmmmmmmmmmmmmo",
    "olllllllmllllllo",
    "olbbbbbbmlbbbbbo",
    "olbbbdbbmlbbbbbo",
    "olbbbbbbmlbbbdbo",
    "oooooooooooooooo",
]


def tile_brick():
    return from_art(BRICK_ART, {"o": INK, "l": S_LT, "b": S_MD, "m": S_DK, "d": S_DK})


ICE_ART = [
    "oooooooooooooooo",
    "owwwwwwwwwwwwwwo",
    "owwiiiiiiwiiiiBo",
    "owiiiiiiwwiiiiBo",
    "owiiiiiwwiiiiiBo",
    "owiiiiwwiiiiiwBo",
    "owiiiwwiiiiiwwBo",
    "owiiwwiiiiiwwiBo",
    "owiwwiiiiiwwiiBo",
    "owiwiiiiiwwiiiBo",
    "owiiiiiiwwiiiiBo",
    "owiiiiiwwiiiiiBo",
    "owiiiiiwiiiiiwBo",
    "owiiiiiiiiiiwwBo",
    "oBBBBBBBBBBBBBBo",
    "oooooooooooooooo",
]


def tile_ice():
    return from_art(ICE_ART, {"o": INK, "w": WHITE, "i": ICE, "B": BLUE})


def tile_ladder():
    g = blank()
    for y in range(16):
        for x0 in (1, 11):          # two rails: ink, light, mid, ink
            g[y][x0] = INK
            g[y][x0 + 1] = E_LT
            g[y][x0 + 2] = E_MD
            g[y][x0 + 3] = INK
    for y0 in (3, 11):              # two rungs
        for x in range(5, 11):
            g[y0][x] = INK
            g[y0 + 1][x] = E_LT
            g[y0 + 2][x] = E_DK
            g[y0 + 3][x] = INK
        for x in (4, 11):           # rung runs into the rails
            g[y0 + 1][x] = E_LT
            g[y0 + 2][x] = E_DK
    return g


def tile_oneway():
    g = blank()
    for x in range(16):
        g[0][x] = INK
        g[1][x] = E_LT
        g[2][x] = E_MD
        g[3][x] = E_DK if x in (4, 5, 6, 10) else E_MD
        g[4][x] = INK
    for x in (2, 13):               # nails
        g[2][x] = S_LT
    g[1][15] = g[2][15] = g[3][15] = E_DK   # seam between planks
    for x0 in (3, 11):              # little brackets under the plank
        g[5][x0] = INK
        g[5][x0 + 1] = INK
        g[6][x0 + 1] = INK
    return g


def tile_spikes():
    g = blank()
    half = [1, 1, 1, 2, 2, 2, 3, 3]   # half-widths from the tip down
    mask = blank()
    for i in range(2):
        cx = 8 * i + 4                  # centre line between cx-1 and cx
        for k, hw in enumerate(half):
            y = 4 + k
            for x in range(cx - hw, cx + hw):
                mask[y][x] = 1
                g[y][x] = S_LT if x < cx else (S_MD if x < cx + hw - 1 or hw == 1 else S_DK)
    # outline drawn outside the spikes
    for y in range(16):
        for x in range(16):
            if mask[y][x]:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < 16 and 0 <= ny < 16 and mask[ny][nx]:
                    g[y][x] = INK
    # base plate
    for x in range(16):
        g[12][x] = INK
        g[13][x] = S_MD
        g[14][x] = S_DK
        g[15][x] = INK
    g[13][0] = g[13][8] = S_LT
    return g


FLAG_ART = [
    ".oo.............",
    "oyyo............",
    "oYYo............",
    ".oloooooooooo...",
    ".olrrrrrrrrrro..",
    ".olrrrrwrrrrrro.",
    ".olrrrwwwrrrro..",
    ".olrrrrwrrrrrro.",
    ".olrrrrrrrrrro..",
    ".oloooooooooo...",
    ".olo............",
    ".olo............",
    ".olo............",
    "ooloo...........",
    "oLLLLo..........",
    "oooooo..........",
]


def tile_flag():
    key = {".": CLEAR, "o": INK, "y": GOLD, "Y": E_LT, "l": S_LT, "r": RED,
           "w": WHITE, "L": S_MD}
    return from_art(FLAG_ART, key)


COIN_ART = [
    "................",
    "................",
    ".....oooooo.....",
    "....oyyyyyyo....",
    "...oywwyyyyYo...",
    "...oywyyyyyYo...",
    "...oyyyoYyyYo...",
    "...oyyyoYyyYo...",
    "...oyyyoYyyYo...",
    "...oyyyoYyyYo...",
    "...oyyyyyyyYo...",
    "...oyyyyyyYYo...",
    "....oYYYYYYo....",
    ".....oooooo.....",
    "................",
    "................",
]


def tile_coin():
    return from_art(COIN_ART, {".": CLEAR, "o": INK, "y": GOLD, "Y": E_LT, "w": WHITE})


def shaded_blob(circles, rect, base, light, dark, ink, solid_below):
    """A round shape lit from the top-left, with an ink rim."""
    mask = circles_mask(circles, rect=rect)
    g = blank()
    for y in range(16):
        for x in range(16):
            if not mask[y][x]:
                continue
            # nearest circle decides the local light direction
            cx, cy, r = min(circles, key=lambda c: (x - c[0]) ** 2 + (y - c[1]) ** 2 - c[2] ** 2)
            dx, dy = (x - cx) / r, (y - cy) / r
            if dx + dy < -0.75:
                g[y][x] = light
            elif dx + dy > 0.55 or y >= 14:
                g[y][x] = dark
            else:
                g[y][x] = base
    for x, y in outline_inside(mask, solid_below):
        g[y][x] = ink
    return g


def tile_bush():
    circles = [(4.0, 10.5, 4.0), (8.0, 7.5, 5.0), (12.0, 10.5, 4.0)]
    g = shaded_blob(circles, None, G_MD, G_LT, G_DK, INK, solid_below=True)
    for x, y in ((6, 6), (9, 9), (3, 10), (12, 11)):   # little leaf glints
        if g[y][x] == G_MD:
            g[y][x] = G_LT
    return g


def tile_cloud():
    circles = [(4.0, 10.0, 3.6), (8.5, 7.0, 5.0), (12.5, 9.5, 3.0)]
    mask = circles_mask(circles, rect=(1, 9, 14, 13))
    g = blank()
    for y in range(16):
        for x in range(16):
            if mask[y][x]:
                g[y][x] = ICE if y >= 12 or (x >= 11 and y >= 10) else WHITE
    for x, y in outline_inside(mask):
        g[y][x] = BLUE
    return g


def tile_hill():
    """Far hill: a low rounded mound whose foot spans the whole cell, so a
    row of them reads as a rolling ridge.  Softer (no ink) to sit back."""
    g = blank()
    mask = blank()
    for y in range(16):
        for x in range(16):
            u = (x - 7.5) / 8.0
            if y >= 4 + 11.5 * u * u:
                mask[y][x] = 1
    for y in range(16):
        for x in range(16):
            if mask[y][x]:
                g[y][x] = G_LT if (x - 5.5) ** 2 + 1.6 * (y - 7) ** 2 <= 7 else G_MD
    for x, y in ((9, 8), (11, 10), (12, 9), (4, 12), (8, 13), (5, 14), (11, 14), (13, 12)):
        g[y][x] = G_DK   # distant shrubs
    for x, y in outline_inside(mask, solid_below=True):
        g[y][x] = G_DK
    return g


def tile_water():
    crest = [2, 1, 1, 1, 2, 3, 3, 3, 2, 1, 1, 1, 2, 3, 3, 3]
    g = blank()
    for x in range(16):
        top = crest[x]
        for y in range(top, 16):
            d = y - top
            if d == 0:
                g[y][x] = WHITE
            elif d == 1:
                g[y][x] = ICE
            else:
                g[y][x] = BLUE
    for x0, y in ((2, 7), (10, 10), (5, 13)):   # glints
        g[y][x0] = g[y][x0 + 1] = ICE
    return g


def tile_crate():
    g = blank()
    for y in range(16):
        for x in range(16):
            if x in (0, 15) or y in (0, 15):
                c = INK
            elif x in (1, 2) or y in (1, 2) or x in (13, 14) or y in (13, 14):
                # frame: light on top/left, dark on bottom/right
                if y in (13, 14) or x in (13, 14):
                    c = E_DK if not (y <= 2 and x <= 13) else E_LT
                else:
                    c = E_LT
                if (x, y) in ((2, 2), (13, 2), (2, 13), (13, 13)):
                    c = S_LT  # nails
            else:
                c = E_MD
                if y in (6, 10):
                    c = E_DK  # plank gaps
                # diagonal brace from bottom-left to top-right
                d = (x - 3) - (12 - y)
                if d in (-1, 0, 1):
                    c = E_LT if d <= 0 else E_DK
                elif d == 2 or d == -2:
                    c = INK
            g[y][x] = c
    return g


TILE_MAKERS = {
    0: lambda: blank(),
    1: tile_grass_top,
    2: tile_earth,
    3: tile_brick,
    4: tile_ice,
    5: lambda: ground_tile(slope_heights(0, 16)),
    6: lambda: ground_tile(slope_heights(16, 0)),
    7: lambda: ground_tile(slope_heights(0, 8)),
    8: lambda: ground_tile(slope_heights(8, 16)),
    9: lambda: ground_tile(slope_heights(16, 8)),
    10: lambda: ground_tile(slope_heights(8, 0)),
    11: lambda: ground_tile(slope_heights(0, 4)),
    12: lambda: ground_tile(slope_heights(4, 8)),
    13: lambda: ground_tile(slope_heights(8, 12)),
    14: lambda: ground_tile(slope_heights(12, 16)),
    15: lambda: ground_tile(slope_heights(16, 12)),
    16: lambda: ground_tile(slope_heights(12, 8)),
    17: lambda: ground_tile(slope_heights(8, 4)),
    18: lambda: ground_tile(slope_heights(4, 0)),
    19: tile_ladder,
    20: tile_oneway,
    21: tile_spikes,
    22: tile_flag,
    23: tile_coin,
    24: tile_bush,
    25: tile_cloud,
    26: tile_hill,
    27: tile_water,
    28: tile_crate,
}


def vflip(g):
    return [list(r) for r in reversed(g)]


def tile_wall_bg():
    """Dark stone wall seen behind the tower's rooms (background layer)."""
    g = blank()
    for y in range(16):
        for x in range(16):
            row = y // 4
            shift = 4 if row % 2 else 0
            mortar = y % 4 == 3 or (x + shift) % 8 == 7
            g[y][x] = INK if mortar else (S_DK if (x + y) % 5 else S_MD)
    return g


def tile_window():
    """An arched window onto the dusk sky, in the tower wall."""
    g = tile_wall_bg()
    for y in range(3, 15):
        for x in range(4, 12):
            u = (x - 7.5) / 4.0
            if y >= 3 + 4 * u * u:
                g[y][x] = GOLD if y < 8 else (E_LT if y < 11 else RED)
    for y in range(3, 15):
        for x in range(3, 13):
            if g[y][x] not in (GOLD, E_LT, RED):
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                if g[ny][nx] not in (GOLD, E_LT, RED):
                    g[ny][nx] = S_LT
    for y in range(4, 15):
        g[y][7] = g[y][8] = S_LT if y < 5 else g[y][7]
    return g


def tile_torch():
    """A wall torch: a flame over a bracket, on the wall."""
    g = tile_wall_bg()
    flame = [(7, 3), (8, 3), (6, 4), (7, 4), (8, 4), (9, 4), (6, 5), (7, 5), (8, 5), (9, 5),
             (7, 6), (8, 6)]
    core = [(7, 4), (8, 5), (7, 5)]
    for x, y in flame:
        g[y][x] = RED
    for x, y in core:
        g[y][x] = GOLD
    for y in range(7, 12):
        g[y][7] = E_LT
        g[y][8] = E_MD
    for x in range(5, 11):
        g[12][x] = S_LT
    return g


def tile_flip_marker():
    """Upward chevrons marking a gravity-flip zone (background layer)."""
    g = blank()
    for k, y0 in enumerate((4, 10)):
        for i in range(5):
            for t in range(2):
                y = y0 + i + t
                if y < 16:
                    g[y][7 - i] = ICE if k == 0 else BLUE
                    g[y][8 + i] = ICE if k == 0 else BLUE
    return g


def tile_star():
    g = blank()
    for x, y, c in ((7, 6, WHITE), (7, 5, ICE), (7, 7, ICE), (6, 6, ICE), (8, 6, ICE),
                    (2, 12, ICE), (13, 2, ICE)):
        g[y][x] = c
    return g


def tile_pine():
    """A snowy fir for the far background of the last stage."""
    g = blank()
    for y in range(2, 15):
        half = (y - 1) // 2 if y < 14 else 1
        for x in range(8 - half, 8 + half):
            if 0 <= x < 16:
                g[y][x] = G_DK if (x + y) % 3 else G_MD
        if y % 4 == 1:
            for x in range(8 - half, 8 + half):
                if 0 <= x < 16:
                    g[y][x] = WHITE
    g[15][7] = g[15][8] = E_DK
    return g


# Ceiling versions of the ground slopes and floors: the same cells upside down, for the
# gravity-flip zone (collide as `ceiling_...` and `oneway_up`).
TILE_MAKERS.update({
    29: lambda: vflip(TILE_MAKERS[5]()),
    30: lambda: vflip(TILE_MAKERS[6]()),
    31: lambda: vflip(TILE_MAKERS[7]()),
    32: lambda: vflip(TILE_MAKERS[8]()),
    33: lambda: vflip(TILE_MAKERS[9]()),
    34: lambda: vflip(TILE_MAKERS[10]()),
    35: lambda: vflip(tile_oneway()),
    36: lambda: vflip(tile_grass_top()),
    37: tile_wall_bg,
    38: tile_window,
    39: tile_torch,
    40: tile_flip_marker,
    41: tile_star,
    42: tile_pine,
})


def build_sheet(width, height, makers):
    sheet = blank(width, height)
    cols = width // 16
    for slot, make in makers.items():
        g = make()
        ox, oy = (slot % cols) * 16, (slot // cols) * 16
        for y in range(16):
            for x in range(16):
                sheet[oy + y][ox + x] = g[y][x]
    return sheet


# ---------------------------------------------------------------------------
# Sprites sheet (palette 2)
# ---------------------------------------------------------------------------

SPRITE_PALETTE = [
    "#ff00ff",  # 0  transparent
    "#1a1424",  # 1  outline
    "#f8d0a0",  # 2  skin
    "#d0885a",  # 3  skin shade
    "#3a60d0",  # 4  tunic blue
    "#243a88",  # 5  tunic dark
    "#74a8f8",  # 6  tunic light
    "#d03828",  # 7  red
    "#f87858",  # 8  red light
    "#6c3c20",  # 9  brown (hair, boots)
    "#f8f8f8",  # 10 white
    "#f8d038",  # 11 gold
    "#c87818",  # 12 gold dark
    "#6c3c9c",  # 13 purple
    "#b070e0",  # 14 purple light
    "#8c1c34",  # 15 maroon
]

SPRITE_KEY = {".": 0, "o": 1, "s": 2, "k": 3, "b": 4, "d": 5, "l": 6, "r": 7,
              "R": 8, "h": 9, "w": 10, "y": 11, "g": 12, "p": 13, "P": 14, "m": 15}


def sprite(rows):
    return from_art(rows, SPRITE_KEY)


# The hero's head, rows 1-8, shared by most frames.
HERO_HEAD = [
    ".....oooooo.....",
    "....ohhhhhho....",
    "...ohhhhhhhho...",
    "..orrRRrrrrrro..",
    ".oohhsssssosso..",
    "orRohssssssosso.",
    "oRo.okssssssso..",
    ".o...okkkkkko...",
]


def overlay(grid, rows, y0=0):
    """Draw ASCII rows over `grid` from row y0; '.' leaves pixels alone."""
    for i, r in enumerate(rows):
        y = y0 + i
        for x, ch in enumerate(r):
            if ch != "." and 0 <= y < 16:
                grid[y][x] = SPRITE_KEY[ch]
    return grid


def hero(body, head_dy=0, head=HERO_HEAD, extra=None):
    """Compose a hero frame: 8 head rows (placed from row 1+head_dy) over
    the 7 body rows 9-15, then an optional overlay (e.g. a raised arm)."""
    assert len(body) == 7
    grid = sprite(["." * 16] * 9 + list(body))
    overlay(grid, head, 1 + head_dy)
    if extra:
        overlay(grid, extra)
    return grid


HERO_IDLE_BODY = [
    "....odbbbbbo....",
    "...odbbbllbbo...",
    "...odbbbbbsso...",
    "....oyyyyyyo....",
    "....oddddddo....",
    "....ohho.ohho...",
    "...ohhho.ohhho..",
]

HERO_IDLE_BODY_2 = [
    "................",
    "....odbbbbbo....",
    "...odbbbllbbo...",
    "...odbbbbbsso...",
    "....oyyyyyyo....",
    "....ohhooohho...",
    "...ohhho.ohhho..",
]

HERO_RUN_BODIES = [
    [   # contact: near leg forward, arm back
        "....odbbbbbo....",
        "..osdbbbllbbo...",
        "..ossbbbbbbbo...",
        "...ooyyyyyyo....",
        "...odddoodddo...",
        "..ohho....ohho..",
        ".ohhho....ohhho.",
    ],
    [   # passing: back foot kicks up
        "....odbbbbbo....",
        "...odbbbllbbo...",
        "...odbbbbbsso...",
        "....oyyyyyyo....",
        "..oohdddddo.....",
        "..ohho.ohho.....",
        "...oo..ohhho....",
    ],
    [   # contact: far leg forward, arm forward
        "....odbbbbbo....",
        "...odbbbllbbso..",
        "...odbbbbbbsso..",
        "....oyyyyyyoo...",
        "....odddodddo...",
        "...ohho..ohho...",
        "..ohhho..ohhho..",
    ],
    [   # passing: front knee up
        "....odbbbbbo....",
        "...odbbbllbbo...",
        "...odbbbbbsso...",
        "....oyyyyyyo....",
        "....odddddohho..",
        ".....ohhho.oo...",
        ".....ohhho......",
    ],
]

HERO_JUMP_BODY = [
    "..osodbbbbbosso.",
    "...oodbbllbbo...",
    "....odbbbbbbo...",
    "....oyyyyyyyo...",
    "...odddddddhho..",
    "..ohhho..ohhho..",
    "..oooo....ooo...",
]

HERO_FALL_BODY = [
    ".oso.odbbbbbooso",
    ".osoodbbllbbbos.",
    "..o.odbbbbbbo.o.",
    "....oyyyyyyyo...",
    "....odddddddo...",
    "...ohho...ohho..",
    "..ohhho...ohhho.",
]

# Climbing: seen from behind, so the head is all hair and band.
HERO_BACK_HEAD = [
    ".....oooooo.....",
    "....ohhhhhho....",
    "...ohhhhhhhho...",
    "..orrRRrrrrrro..",
    "..ohhhhhhhhhho..",
    "..ohhhhhhhhhho..",
    "..okhhhhhhhhko..",
    "...okkkkkkkko...",
]

HERO_CLIMB_BODY = [
    "..obdbbbbbbbo...",
    "...odbbbbbbbo...",
    "...odbbbbbbbso..",
    "...oyyyyyyyyoo..",
    "...odddddddo....",
    "...ohho..oddo...",
    "...ohho..ohho...",
]

# Left hand reaching up beside the head (drawn over the head).
HERO_CLIMB_ARM = [
    "................",
    "................",
    "................",
    ".o..............",
    "oso.............",
    "oso.............",
    "obo.............",
    "obo.............",
    "obo.............",
]

HERO_HURT_HEAD = [   # leaning back, eye squeezed shut, mouth open
    "....oooooo......",
    "...ohhhhhho.....",
    "..ohhhhhhhho....",
    ".orrRRrrrrrro...",
    ".ohhsssssosso...",
    ".ohsssssssosso..",
    ".okssssssosoo...",
    "..okkkkkkkko....",
]

HERO_HURT_BODY = [
    ".oso.odbbbbo....",
    "..osodbbllbbooso",
    "...oodbbbbbbbso.",
    "....oyyyyyyyo...",
    "...odddddddo....",
    "..ohho...ohho...",
    ".ohho.....ohho..",
]

WALKER_A = [
    "................",
    "................",
    "................",
    "......oooo......",
    "....ooPPPPoo....",
    "...oPPPPPPPPo...",
    "..oPPPPPwwPwwo..",
    "..oPPPPPwoPwoo..",
    ".oPPPPPPwoPwop..",
    ".opPPPPPPPPPPpo.",
    ".opppppppppppo..",
    "..oppppppppppo..",
    "...ommmmmmmmo...",
    "..ohhho..ohhho..",
    "..ohhhho.ohhhho.",
    "...oooo...oooo..",
]

WALKER_B = [
    "................",
    "................",
    "................",
    "................",
    "......oooo......",
    "....ooPPPPoo....",
    "...oPPPPPPPPo...",
    "..oPPPPPwwPwwo..",
    "..oPPPPPwoPwoo..",
    ".oPPPPPPwoPwopo.",
    ".opPPPPPPPPPPpo.",
    ".opppppppppppo..",
    "..oommmmmmmmo...",
    "...ohhho.ohhho..",
    "...ohhhhoohhhho.",
    "....oooo..oooo..",
]

FLYER_A = [
    "................",
    "...oo....oo.....",
    "..owwo..owwo....",
    "..owwwooowwo....",
    "...owwwowwo.....",
    "....ooooooo.....",
    "..ooyyoyyoyyo...",
    ".ogoyyoyyoywwo..",
    "ogooyyoyyoywoo..",
    ".ogoyyoyyoyyyyo.",
    "..ooggoggogggo..",
    "....ooooooooo...",
    "................",
    "................",
    "................",
    "................",
]

FLYER_B = [
    "................",
    "................",
    "................",
    "................",
    ".oooo..ooo......",
    "owwwwoowwwo.....",
    ".ooooooooooo....",
    "..ooyyoyyoyyo...",
    ".ogoyyoyyoywwo..",
    "ogooyyoyyoywoo..",
    ".ogoyyoyyoyyyyo.",
    "..ooggoggogggo..",
    "....ooooooooo...",
    "................",
    "................",
    "................",
]

COIN_A = [
    "................",
    "................",
    ".....oooooo.....",
    "....oyyyyyyo....",
    "...oywwyyyygo...",
    "...oywyyyyygo...",
    "...oyyyogyygo...",
    "...oyyyogyygo...",
    "...oyyyogyygo...",
    "...oyyyogyygo...",
    "...oyyyyyyygo...",
    "...oyyyyyyggo...",
    "....oggggggo....",
    ".....oooooo.....",
    "................",
    "................",
]

COIN_B = [
    "................",
    "................",
    ".......oo.......",
    "......oyyo......",
    "......owgo......",
    "......owgo......",
    "......oygo......",
    "......oygo......",
    "......oygo......",
    "......oygo......",
    "......oygo......",
    "......oygo......",
    "......oggo......",
    ".......oo.......",
    "................",
    "................",
]

HEART = [
    "................",
    "................",
    "................",
    "..oooo...oooo...",
    ".oRRrro.oRrrro..",
    "oRwRrrrorrrrrmo.",
    "oRRrrrrrrrrrrmo.",
    "orrrrrrrrrrrrmo.",
    ".orrrrrrrrrrmo..",
    "..orrrrrrrrmo...",
    "...orrrrrrmo....",
    "....orrrrmo.....",
    ".....ormmo......",
    "......oo........",
    "................",
    "................",
]

SPARK = [
    "................",
    "................",
    "................",
    ".......y........",
    ".......y........",
    "......ywy.......",
    "..y...ywy...y...",
    "...yyywwwyyy....",
    "......ywy.......",
    "..y...ywy...y...",
    "......ywy.......",
    ".......y........",
    ".......y........",
    "................",
    "................",
    "................",
]

LIFT_LEFT = [
    ".ooooooooooooooo",
    "oyyyyyyyyyyyyyyy",
    "oywyyyyyyyyyyyyy",
    "oygggggggggggggg",
    "oooooooooooooooo",
    ".ohhhoooohhhhooo",
    "..ooo....oooo...",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
]

ORB_A = [
    "................",
    ".....oooooo.....",
    "....olllllbo....",
    "...ollwwllbbo...",
    "..ollwwwwllbbo..",
    "..olwwlwwwlbbo..",
    "..ollwlllwllbo..",
    "..olllllllllbo..",
    "..obllwwwllbbo..",
    "..obblwwwlbbdo..",
    "...obbwwwbbdo...",
    "....obbbbbdo....",
    ".....oooooo.....",
    "................",
    "................",
    "................",
]


def orb_b():
    g = sprite(ORB_A)
    for y in range(16):
        for x in range(16):
            if g[y][x] == 6:      # light blue -> white shimmer
                g[y][x] = 10 if (x + y) % 3 == 0 else 6
    return g


# gfx/hero.aseprite: frames 0-10 (sprite slots 0-10 of the old sheet), their durations in
# ms, and the tags hero.lua plays with sheet_anim.
HERO_DURATIONS = [500, 500, 100, 100, 100, 100, 100, 100, 100, 100, 100]
HERO_TAGS = [("idle", 0, 1, 0), ("run", 2, 5, 0), ("jump", 6, 6, 0), ("fall", 7, 7, 0),
             ("climb", 8, 9, 0), ("hurt", 10, 10, 0)]


def hero_guide():
    """The hitbox (10 x 15 px from (3, 1)) outlined in red: a hidden layer the artist draws
    against, which the cart never shows."""
    g = blank(16, 16)
    for x in range(3, 13):
        g[1][x] = g[15][x] = 7
    for y in range(1, 16):
        g[y][3] = g[y][12] = 7
    return g


SPRITE_MAKERS = {
    0: lambda: hero(HERO_IDLE_BODY),
    1: lambda: hero(HERO_IDLE_BODY_2, head_dy=1),
    2: lambda: hero(HERO_RUN_BODIES[0]),
    3: lambda: hero(HERO_RUN_BODIES[1]),
    4: lambda: hero(HERO_RUN_BODIES[2]),
    5: lambda: hero(HERO_RUN_BODIES[3]),
    6: lambda: hero(HERO_JUMP_BODY),
    7: lambda: hero(HERO_FALL_BODY),
    8: lambda: hero(HERO_CLIMB_BODY, head=HERO_BACK_HEAD, extra=HERO_CLIMB_ARM),
    9: lambda: hflip(hero(HERO_CLIMB_BODY, head=HERO_BACK_HEAD, extra=HERO_CLIMB_ARM)),
    10: lambda: hero(HERO_HURT_BODY, head=HERO_HURT_HEAD),
    11: lambda: sprite(WALKER_A),
    12: lambda: sprite(WALKER_B),
    13: lambda: sprite(FLYER_A),
    14: lambda: sprite(FLYER_B),
    15: lambda: sprite(COIN_A),
    16: lambda: sprite(COIN_B),
    17: lambda: sprite(HEART),
    18: lambda: sprite(SPARK),
    19: lambda: sprite(LIFT_LEFT),
    20: lambda: hflip(sprite(LIFT_LEFT)),
    21: lambda: sprite(ORB_A),
    22: orb_b,
}


# ---------------------------------------------------------------------------
# Stage 1 (Tiled map)
# ---------------------------------------------------------------------------

MAP_W, MAP_H, CELL = 64, 16, 16

COLLIDE = {
    1: "solid", 2: "solid", 3: "solid", 28: "solid",
    4: "ice",
    5: "slope_1_1_up", 6: "slope_1_1_down",
    7: "slope_1_2_up_a", 8: "slope_1_2_up_b",
    9: "slope_1_2_down_a", 10: "slope_1_2_down_b",
    11: "slope_1_4_up_a", 12: "slope_1_4_up_b", 13: "slope_1_4_up_c", 14: "slope_1_4_up_d",
    15: "slope_1_4_down_a", 16: "slope_1_4_down_b", 17: "slope_1_4_down_c", 18: "slope_1_4_down_d",
    19: "ladder", 20: "oneway", 21: "hazard",
}

# Tile ids (local, as in tiles.png); the CSV stores gid = id + 1, 0 = empty.
EMPTY, GRASS, EARTH_T, BRICK, ICE_T = 0, 1, 2, 3, 4
SLOPE11_UP, SLOPE11_DN = 5, 6
SLOPE12_UP = (7, 8)
SLOPE12_DN = (9, 10)
SLOPE14_UP = (11, 12, 13, 14)
SLOPE14_DN = (15, 16, 17, 18)
LADDER, ONEWAY, SPIKES, FLAG, COIN_T, BUSH, CLOUD, HILL, WATER, CRATE = range(19, 29)

BASE = 12  # row of the normal ground surface


def build_stage():
    """Return (background, terrain, objects) for stage 1."""
    bg = blank(MAP_W, MAP_H)
    tr = blank(MAP_W, MAP_H)

    def column(x, surface_row, top_tile=GRASS):
        """Ground in column x whose top cell is at surface_row."""
        tr[surface_row][x] = top_tile
        for y in range(surface_row + 1, MAP_H):
            tr[y][x] = EARTH_T

    def slope(x, row, tile):
        """Slope cell at (x, row) with earth filled underneath."""
        tr[row][x] = tile
        for y in range(row + 1, MAP_H):
            tr[y][x] = EARTH_T

    # 0-7: flat start
    for x in range(0, 8):
        column(x, BASE)
    # 8-17: gentle 1:4 hill, one cell high
    for i, t in enumerate(SLOPE14_UP):
        slope(8 + i, BASE - 1, t)
    for x in (12, 13):
        column(x, BASE - 1)
    for i, t in enumerate(SLOPE14_DN):
        slope(14 + i, BASE - 1, t)
    # 18-21: flat (first walker)
    for x in range(18, 22):
        column(x, BASE)
    # 22-23: 1:2 rise onto a ledge, 24-25 ledge with a crate
    for i, t in enumerate(SLOPE12_UP):
        slope(22 + i, BASE - 1, t)
    for x in (24, 25):
        column(x, BASE - 1)
    tr[BASE - 2][24] = CRATE
    # 26-27: 45-degree slope down into the dip
    slope(26, BASE - 1, SLOPE11_DN)
    slope(27, BASE, SLOPE11_DN)
    # 28-32: the dip, with a ladder up to a one-way platform
    for x in range(28, 33):
        column(x, BASE + 1)
    for y in range(8, BASE + 1):
        tr[y][30] = LADDER
    for x in range(28, 35):
        if x != 30:
            tr[7][x] = ONEWAY
    tr[7][30] = LADDER
    # 33: 45-degree slope back up out of the dip
    slope(33, BASE, SLOPE11_UP)
    # 34: flat, 35-39: ice, 40-42: flat
    column(34, BASE)
    for x in range(35, 40):
        column(x, BASE, ICE_T)
    for x in range(40, 43):
        column(x, BASE)
    # 43-47: spike pit, brick-lined
    for x in (43, 47):
        tr[BASE][x] = BRICK
        tr[BASE + 1][x] = BRICK
        for y in range(BASE + 2, MAP_H):
            tr[y][x] = EARTH_T
    for x in range(44, 47):
        tr[BASE + 1][x] = SPIKES
        for y in range(BASE + 2, MAP_H):
            tr[y][x] = EARTH_T
    # 48-51: flat (second walker), floating bricks above
    for x in range(48, 52):
        column(x, BASE)
    for x in (49, 50):
        tr[9][x] = BRICK
    # 52-53: 1:2 rise, 54-56: top, 57-58: 1:2 fall
    for i, t in enumerate(SLOPE12_UP):
        slope(52 + i, BASE - 1, t)
    for x in range(54, 57):
        column(x, BASE - 1)
    for x in range(53, 56):
        tr[7][x] = BRICK
    for i, t in enumerate(SLOPE12_DN):
        slope(57 + i, BASE - 1, t)
    # 59-63: flat finish with the goal flag
    for x in range(59, 64):
        column(x, BASE)
    tr[BASE - 1][61] = FLAG

    # Background decoration (only where the terrain layer is empty).
    for x, y in ((3, 2), (4, 2), (13, 4), (21, 1), (22, 1), (23, 1), (35, 3), (36, 3),
                 (44, 1), (45, 1), (57, 3), (58, 3)):
        bg[y][x] = CLOUD
    for x in (4, 5, 6, 19, 20, 40, 41, 42, 49, 50, 51, 60):
        bg[BASE - 1][x] = HILL
    for x, y in ((1, BASE - 1), (7, BASE - 1), (12, BASE - 2), (18, BASE - 1),
                 (25, BASE - 2), (34, BASE - 1), (48, BASE - 1), (55, BASE - 2),
                 (62, BASE - 1)):
        bg[y][x] = BUSH
    for y in range(MAP_H):
        for x in range(MAP_W):
            if tr[y][x] in (GRASS, EARTH_T, BRICK, ICE_T, CRATE):
                bg[y][x] = EMPTY   # hidden behind an opaque cell anyway

    def obj(name, cx, cy, w=CELL, h=CELL):
        """Rectangle object covering the cells from (cx, cy), in pixels."""
        return {"name": name, "x": cx * CELL, "y": cy * CELL, "w": w, "h": h}

    objects = [
        {"name": "player_start", "x": 2 * CELL + 8, "y": BASE * CELL, "point": True},
        obj("walker", 20, BASE - 1),
        obj("walker", 50, BASE - 1),
        obj("coin", 12, BASE - 3), obj("coin", 13, BASE - 3),
        obj("coin", 29, 6), obj("coin", 31, 6), obj("coin", 33, 6),
        obj("coin", 37, BASE - 2),
        obj("coin", 45, BASE - 3),
        obj("coin", 49, 8), obj("coin", 50, 8),
        obj("coin", 54, 6),
        obj("goal", 61, BASE - 2, CELL, 2 * CELL),
    ]
    return bg, tr, objects


# ---------------------------------------------------------------------------

def main():
    tiles = build_sheet(128, 128, TILE_MAKERS)
    write_indexed_png(os.path.join(CART_DIR, "gfx", "tiles.png"), tiles, TILE_PALETTE)
    # The hero is an Aseprite file: its frames are sprite slots 0-10, its poses tags.
    others = {k: make for k, make in SPRITE_MAKERS.items() if k >= len(HERO_DURATIONS)}
    sprites = build_sheet(128, 64, others)
    write_indexed_png(os.path.join(CART_DIR, "gfx", "sprites.png"), sprites, SPRITE_PALETTE)
    hero_frames = [SPRITE_MAKERS[k]() for k in range(len(HERO_DURATIONS))]
    guide = [hero_guide()] + [0] * (len(HERO_DURATIONS) - 1)
    write_aseprite(os.path.join(CART_DIR, "gfx", "hero.aseprite"), HERO_DURATIONS,
                   SPRITE_PALETTE, [("hero", True, hero_frames), ("hitbox", False, guide)],
                   HERO_TAGS)
    import stages  # stages 2 and 3, and the Tiled writer all three share
    bg, tr, objects = build_stage()
    path = os.path.join(CART_DIR, "maps", "stage1.tmx")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write(stages.tmx_text(MAP_W, MAP_H, bg, tr, objects))
    stages.write_stages(CART_DIR)
    print("wrote gfx/tiles.png, gfx/sprites.png, gfx/hero.aseprite, maps/stage1-3.tmx under",
          CART_DIR)


if __name__ == "__main__":
    main()
