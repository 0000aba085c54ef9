#!/usr/bin/env python3
"""Stages 2 and 3 of the bundled platformer, drawn as ASCII and written as Tiled maps.

Stage 1 comes from make_art.py (its own generator). These two are laid out character by
character below, so a designer can read and change them directly; `make_art.py` calls
`write_stages()` after drawing the tile sheet. Each map has the layers `background`
and `terrain` and the object layer `objects`:

  player_start   point at the hero's feet
  coin, walker   16x16 rectangles; walker may have property gravity=up
  bee            16x16 rectangle; properties range (px) and speed (px/frame)
  lift           32x8 platform; properties axis (x|y), range (px), speed (px/frame)
  flip           rectangle where gravity points up
  goal           the flag's rectangle

Terrain characters (tile ids from make_art.py):

  #  brick (solid)       G  grass top (solid)   E  earth (solid)      I  ice
  /  45 up               \\  45 down
  (  1:2 up, low half    )  1:2 up, high half   [  1:2 down, high     ]  1:2 down, low
  1234  1:4 up (a-d)     5678  1:4 down (a-d)
  Y  ceiling 45 up       V  ceiling 45 down     {}  ceiling 1:2 up    <>  ceiling 1:2 down
  T  hanging grass (solid, upside-down grass)   ~  one-way floor for upside-down bodies
  H  ladder              =  one-way floor       ^  spikes (hazard)    F  goal flag
  C  crate (solid)

Object characters (the cell stays empty): s start, o coin, w walker, m walker on the
ceiling (gravity up), b bee.  Lifts, flip zones and the goal are listed per stage.
"""

import os

import make_art as art

CELL = 16

TERRAIN = {
    ".": 0, "#": art.BRICK, "G": art.GRASS, "E": art.EARTH_T, "I": art.ICE_T,
    "/": art.SLOPE11_UP, "\\": art.SLOPE11_DN,
    "(": art.SLOPE12_UP[0], ")": art.SLOPE12_UP[1],
    "[": art.SLOPE12_DN[0], "]": art.SLOPE12_DN[1],
    "1": art.SLOPE14_UP[0], "2": art.SLOPE14_UP[1], "3": art.SLOPE14_UP[2],
    "4": art.SLOPE14_UP[3],
    "5": art.SLOPE14_DN[0], "6": art.SLOPE14_DN[1], "7": art.SLOPE14_DN[2],
    "8": art.SLOPE14_DN[3],
    "Y": 29, "V": 30, "{": 31, "}": 32, "<": 33, ">": 34, "~": 35, "T": 36,
    "H": art.LADDER, "=": art.ONEWAY, "^": art.SPIKES, "F": art.FLAG, "C": art.CRATE,
}
OBJECT_CHARS = {"s", "o", "w", "m", "b"}

# Collision classes of the tiles added for these stages.
COLLIDE_EXTRA = {
    29: "ceiling_1_1_up", 30: "ceiling_1_1_down",
    31: "ceiling_1_2_up_a", 32: "ceiling_1_2_up_b",
    33: "ceiling_1_2_down_a", 34: "ceiling_1_2_down_b",
    35: "oneway_up", 36: "solid",
}
WALL_BG, WINDOW, TORCH, FLIP_MARK, STAR, PINE = 37, 38, 39, 40, 41, 42

# ---------------------------------------------------------------------------
# Stage 2: the tower, 20 x 40 cells (taller than the screen), climbed from the bottom.
# Floors every 4 rows, joined by ladders (the top rung is flush with the floor above, so
# the hero stands on it and climbs down from it), one-way steps, a vertical and a
# horizontal lift; a 1:2 bump, a 45-degree peak and valley, ice, spikes, walkers.
# ---------------------------------------------------------------------------

TOWER = [
    "####################",  # 0
    "#..................#",  # 1
    "#..................#",  # 2
    "#..............o...#",  # 3
    "#...............F..#",  # 4
    "#.............######",  # 5  F5: the goal floor (cols 14-18)
    "#..................#",  # 6
    "#..........==......#",  # 7  step up to F5
    "#..o..o.o..........#",  # 8
    "#H#######\\/##......#",  # 9  F9: ladder top at col 1, a 45-degree valley at cols 9-10
    "#H.......##........#",  # 10
    "#H...w...o.........#",  # 11
    "#H.................#",  # 12
    "###############H####",  # 13 F13; the ladder at col 15 comes up from F17
    "#..............H...#",  # 14
    "#..............H...#",  # 15
    "#..............H...#",  # 16
    "#............#######",  # 17 F17 (cols 13-18)
    "#..................#",  # 18
    "#==................#",  # 19 step up to the horizontal lift
    "#.o/\\..............#",  # 20 a 45-degree peak on F21
    "######IIIIH........#",  # 21 F21: ice, ladder top at col 10
    "##########H........#",  # 22
    "#.........H.....o..#",  # 23
    "#.........H.()##[]w#",  # 24 a 1:2 bump on F25
    "#.........##########",  # 25 F25 (cols 10-18)
    "#..................#",  # 26
    "#..o.o.............#",  # 27
    "#..................#",  # 28
    "########...........#",  # 29 F29 (cols 1-7); the vertical lift rides cols 8-9
    "#..................#",  # 30
    "#........==........#",  # 31 step up from F33 (clear of F29, so the hero can jump)
    "#..................#",  # 32
    "#..........#######H#",  # 33 F33 (cols 11-18), ladder top at col 18
    "#.................H#",  # 34
    "#.................H#",  # 35
    "#.s..........w....H#",  # 36
    "#GGGGG..GGGGGGGGGGG#",  # 37 ground, with a spike pit at cols 6-7
    "#EEEEE^^EEEEEEEEEEE#",  # 38
    "####################",  # 39
]

TOWER_OBJECTS = [
    # The vertical lift rides cols 8-9 from the F29 floor (top y 464) up to F25 (y 400).
    {"name": "lift", "x": 8 * CELL, "y": 29 * CELL, "w": 32, "h": 8,
     "props": {"axis": "y", "range": "-64", "speed": "0.5"}},
    # The horizontal lift crosses from above the step (col 2) to F17 (col 13) at F17's level.
    {"name": "lift", "x": 2 * CELL, "y": 17 * CELL, "w": 32, "h": 8,
     "props": {"axis": "x", "range": "144", "speed": "0.75"}},
    {"name": "goal", "x": 16 * CELL, "y": 3 * CELL, "w": CELL, "h": 2 * CELL},
]

# ---------------------------------------------------------------------------
# Stage 3: the frozen ridge, 96 x 18 cells (wider and a little taller than the screen).
# Every seam of the slope catalogue (flat to 1:4 to 1:2 to 45, peaks and valleys of each),
# ice runs, lifts over spike pits, bees, and a gravity-flip zone where the hero walks the
# ceiling (ceiling slopes and an upside-down one-way floor) over a long spike pit.
# ---------------------------------------------------------------------------

RIDGE_W, RIDGE_H = 96, 18


def build_ridge():
    """Terrain and objects of stage 3, built along the ground profile."""
    t = art.blank(RIDGE_W, RIDGE_H)
    objects = []

    def ground(x, surface, top=art.GRASS):
        t[surface][x] = top
        for y in range(surface + 1, RIDGE_H):
            t[y][x] = art.EARTH_T

    def slope(x, row, tile):
        t[row][x] = tile
        for y in range(row + 1, RIDGE_H):
            t[y][x] = art.EARTH_T

    def thing(name, cx, cy, **props):
        objects.append({"name": name, "x": cx * CELL, "y": cy * CELL, "w": CELL, "h": CELL,
                        "props": {k: str(v) for k, v in props.items()}})

    # The ground profile: (kind, cells). "up"/"down" segments climb or fall one row.
    surface = 14
    x = 0
    profile = [
        ("flat", 6),
        ("up14", 4), ("up12", 2), ("up11", 1),        # flat -> 1:4 -> 1:2 -> 45
        ("flat", 3),
        ("down11", 1), ("down12", 2), ("down14", 4),  # 45 -> 1:2 -> 1:4 -> flat
        ("flat", 2),
        ("up11", 1), ("down11", 1),                   # a 45-degree peak
        ("down11", 1), ("up11", 1),                   # a 45-degree valley
        ("up12", 2), ("down12", 2),                   # a 1:2 peak
        ("down12", 2), ("up12", 2),                   # a 1:2 valley
        ("up14", 4), ("down14", 4),                   # a 1:4 peak
        ("ice", 6),
        ("pit", 6),                                   # crossed on a lift
        ("flat", 3),
        ("pit", 18),                                  # under the gravity-flip zone
        ("flat", 6),
        ("flat", 2),                                  # the vertical lift's foot
        ("cliff", 6),                                 # the goal plateau
        ("flat", 4),
    ]
    tiles = {"up11": (art.SLOPE11_UP,), "down11": (art.SLOPE11_DN,),
             "up12": art.SLOPE12_UP, "down12": art.SLOPE12_DN,
             "up14": art.SLOPE14_UP, "down14": art.SLOPE14_DN}
    for kind, n in profile:
        if kind in ("flat", "ice"):
            for i in range(n):
                ground(x + i, surface, art.ICE_T if kind == "ice" else art.GRASS)
        elif kind == "pit":
            for i in range(n):
                t[RIDGE_H - 2][x + i] = art.SPIKES
                t[RIDGE_H - 1][x + i] = art.EARTH_T
        elif kind == "cliff":
            for i in range(n):
                ground(x + i, 9)
        elif kind.startswith("up"):
            for i, tile in enumerate(tiles[kind]):
                slope(x + i, surface - 1, tile)
            surface -= 1
        else:
            for i, tile in enumerate(tiles[kind]):
                slope(x + i, surface, tile)
            surface += 1
        x += n
    assert x == RIDGE_W and surface == 14, (x, surface)

    # The ceiling course over the second pit (cols 58-79): solid rock down to row 3, whose
    # underside has a 45-degree bump, a 1:2 bump and an upside-down one-way ledge.
    for cx in range(58, 80):
        for y in range(0, 3):
            t[y][cx] = art.EARTH_T
        t[3][cx] = 36
    for cx, tile in ((63, 29), (64, 36), (65, 36), (66, 30),
                     (69, 31), (70, 32), (71, 36), (72, 33), (73, 34)):
        t[4][cx] = tile
    for cx in (75, 76, 77):
        t[5][cx] = 35

    objects.append({"name": "player_start", "x": 2 * CELL + 8, "y": 14 * CELL, "point": True})
    for cx, cy in ((7, 11), (8, 11), (11, 9), (14, 9), (25, 11), (30, 11), (38, 11),
                   (39, 11), (46, 12), (48, 12), (53, 11), (62, 6), (67, 6), (76, 6),
                   (77, 6), (81, 12), (87, 7), (88, 7), (90, 7)):
        thing("coin", cx, cy)
    thing("walker", 23, 13)
    thing("walker", 42, 12)
    thing("walker", 71, 4, gravity="up")
    thing("walker", 81, 13)
    thing("bee", 33, 9, range=40, speed=0.05)
    thing("bee", 47, 9, range=32, speed=0.06)
    t[8][89] = art.FLAG
    objects += [
        # Across the first pit (cols 51-56), at ground level.
        {"name": "lift", "x": 51 * CELL, "y": 14 * CELL, "w": 32, "h": 8,
         "props": {"axis": "x", "range": "64", "speed": "0.75"}},
        # Gravity points up over the second pit: walk the ceiling from col 59 to col 77.
        {"name": "flip", "x": 59 * CELL, "y": 0, "w": 19 * CELL, "h": 14 * CELL},
        # Up the cliff to the goal plateau (top row 9).
        {"name": "lift", "x": 84 * CELL, "y": 14 * CELL, "w": 32, "h": 8,
         "props": {"axis": "y", "range": "-80", "speed": "0.5"}},
        {"name": "goal", "x": 89 * CELL, "y": 7 * CELL, "w": CELL, "h": 2 * CELL},
    ]
    return t, objects


def parse(rows, width, height):
    """ASCII rows -> (terrain grid, object list)."""
    assert len(rows) == height, (len(rows), height)
    terrain = art.blank(width, height)
    objects = []
    for y, row in enumerate(rows):
        assert len(row) == width, ("row", y, len(row), width)
        for x, ch in enumerate(row):
            if ch in OBJECT_CHARS:
                if ch == "s":
                    objects.append({"name": "player_start", "x": x * CELL + 8,
                                    "y": (y + 1) * CELL, "point": True})
                else:
                    name = {"o": "coin", "w": "walker", "m": "walker", "b": "bee"}[ch]
                    props = {"gravity": "up"} if ch == "m" else {}
                    if ch == "b":
                        props = {"range": "40", "speed": "0.05"}
                    objects.append({"name": name, "x": x * CELL, "y": y * CELL,
                                    "w": CELL, "h": CELL, "props": props})
            else:
                terrain[y][x] = TERRAIN[ch]
    return terrain, objects


def tmx_text(width, height, background, terrain, objects):
    collide = dict(art.COLLIDE)
    collide.update(COLLIDE_EXTRA)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
           'renderorder="right-down" width="%d" height="%d" tilewidth="%d" tileheight="%d" '
           'infinite="0" nextlayerid="4" nextobjectid="%d">'
           % (width, height, CELL, CELL, len(objects) + 1),
           ' <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" '
           'tilecount="64" columns="8">',
           '  <image source="../gfx/tiles.png" width="128" height="128"/>']
    for tid in sorted(collide):
        out += ['  <tile id="%d">' % tid,
                '   <properties>',
                '    <property name="collide" value="%s"/>' % collide[tid],
                '   </properties>',
                '  </tile>']
    out.append(' </tileset>')
    for lid, name, grid in ((1, "background", background), (2, "terrain", terrain)):
        out.append(' <layer id="%d" name="%s" width="%d" height="%d">'
                   % (lid, name, width, height))
        out.append('  <data encoding="csv">')
        out.append(",\n".join(",".join(str(t + 1 if t else 0) for t in row) for row in grid))
        out.append('</data>')
        out.append(' </layer>')
    out.append(' <objectgroup id="3" name="objects">')
    for i, o in enumerate(objects, start=1):
        head = '  <object id="%d" name="%s" type="%s" x="%d" y="%d"' % (
            i, o["name"], o["name"], o["x"], o["y"])
        if o.get("point"):
            out += [head + '>', '   <point/>', '  </object>']
            continue
        head += ' width="%d" height="%d"' % (o["w"], o["h"])
        props = o.get("props") or {}
        if not props:
            out.append(head + '/>')
            continue
        out.append(head + '>')
        out.append('   <properties>')
        for k, v in props.items():
            out.append('    <property name="%s" value="%s"/>' % (k, v))
        out.append('   </properties>')
        out.append('  </object>')
    out.append(' </objectgroup>')
    out.append('</map>')
    return "\n".join(out) + "\n"


def tower_background(terrain, width, height):
    bg = art.blank(width, height)
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            if terrain[y][x] in (0, art.LADDER, art.ONEWAY, art.FLAG, art.SPIKES):
                bg[y][x] = WALL_BG
    for x, y in ((4, 2), (14, 2), (9, 6), (3, 15), (8, 15), (15, 20), (5, 26), (13, 30),
                 (8, 34), (14, 34)):
        if bg[y][x] == WALL_BG:
            bg[y][x] = WINDOW
    for x, y in ((2, 6), (17, 6), (10, 11), (6, 14), (12, 19), (17, 23), (2, 24), (15, 27),
                 (4, 31), (10, 35)):
        if bg[y][x] == WALL_BG:
            bg[y][x] = TORCH
    return bg


def ridge_background(terrain, width, height, flip_cols):
    bg = art.blank(width, height)
    for x, y in ((3, 1), (11, 0), (19, 2), (27, 1), (35, 0), (43, 2), (51, 1), (77, 1),
                 (85, 0), (93, 2), (15, 4), (31, 5), (47, 3), (82, 4), (90, 5), (7, 6)):
        bg[y][x] = STAR
    for x in range(0, width, 3):
        for y in range(height):
            if terrain[y][x] != 0:
                if y - 1 >= 0 and terrain[y - 1][x] == 0 and (x * 7) % 5 < 3:
                    bg[y - 1][x] = PINE
                break
    for x in flip_cols:
        for y in (6, 9, 12):
            if terrain[y][x] == 0 and x % 2 == 0:
                bg[y][x] = FLIP_MARK
    return bg


def write_stages(cart_dir):
    terrain, objects = parse(TOWER, 20, 40)
    objects += TOWER_OBJECTS
    background = tower_background(terrain, 20, 40)
    with open(os.path.join(cart_dir, "maps", "stage2.tmx"), "w", newline="\n") as f:
        f.write(tmx_text(20, 40, background, terrain, objects))

    terrain, objects = build_ridge()
    flip = next(o for o in objects if o["name"] == "flip")
    flip_cols = range(flip["x"] // CELL, (flip["x"] + flip["w"]) // CELL)
    background = ridge_background(terrain, RIDGE_W, RIDGE_H, flip_cols)
    with open(os.path.join(cart_dir, "maps", "stage3.tmx"), "w", newline="\n") as f:
        f.write(tmx_text(RIDGE_W, RIDGE_H, background, terrain, objects))
