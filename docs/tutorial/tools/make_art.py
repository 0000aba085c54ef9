#!/usr/bin/env python3
"""Draws the tutorial's art and map (original to Kairo): `tiles.png`, sixteen 8x8 tiles in one
row, and `level.tmx`, a one-screen Tiled map of 32x32 cells using them. Every step of the
tutorial copies these two files; run this script to draw them again (needs Pillow)."""

import os
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))

# Colours by letter; "." is transparent.
COLOURS = {
    "g": (0x38, 0xB7, 0x64), "G": (0x25, 0x71, 0x79),  # grass, its shade
    "d": (0xA7, 0x5F, 0x3B), "D": (0x6E, 0x3B, 0x2A),  # dirt, its shade
    "b": (0x94, 0x96, 0xA8), "B": (0x56, 0x58, 0x6E),  # brick, mortar
    "w": (0xC8, 0x8A, 0x4E), "W": (0x7A, 0x4A, 0x2C),  # plank, its shade
    "y": (0xFF, 0xD8, 0x3A), "Y": (0xD0, 0x8A, 0x1C),  # coin, its rim
    "r": (0xE0, 0x40, 0x48), "k": (0x1A, 0x1C, 0x2C),  # hero's suit, outline
    "s": (0xF4, 0xC8, 0xA0), "e": (0xFF, 0xFF, 0xFF),  # skin, eye
}

TILES = [
    # 0: nothing
    ["........"] * 8,
    # 1: grass over dirt
    ["gggggggg", "gGgggGgg", "GdGdGGdG", "dddddddd", "ddDddddd", "dddddDdd", "dDdddddd", "ddddDddd"],
    # 2: dirt
    ["dddddddd", "ddDddddd", "dddddDdd", "dddddddd", "dDdddddd", "ddddddDd", "dddDdddd", "dddddddd"],
    # 3: brick
    ["bbbBbbbb", "bbbBbbbb", "BBBBBBBB", "bbbbbbbB", "bbbbbbbB", "BBBBBBBB", "bbbBbbbb", "bbbBbbbb"],
    # 4: plank (one-way floor)
    ["wwwwwwww", "WwwWwwwW", "WWWWWWWW", ".W....W.", ".W....W.", "........", "........", "........"],
    # 5: coin
    ["..YYYY..", ".YyyyyY.", "YyyYyyyY", "YyyYyyyY", "YyyYyyyY", "YyyYyyyY", ".YyyyyY.", "..YYYY.."],
    # 6: hero, standing
    ["..kkkk..", ".ksssk..", ".kseske.", ".kssssk.", "..krrk..", ".krrrrk.", "..krrk..", "..k..k.."],
    # 7: hero, walking
    ["..kkkk..", ".ksssk..", ".kseske.", ".kssssk.", "..krrk..", ".krrrrk.", "..krrk..", ".k....k."],
]


def draw_tiles(path):
    image = Image.new("RGBA", (128, 8), (0, 0, 0, 0))
    for n, rows in enumerate(TILES):
        for y, row in enumerate(rows):
            for x, c in enumerate(row):
                if c != ".":
                    image.putpixel((n * 8 + x, y), COLOURS[c] + (255,))
    image.save(path)


def level():
    """The map's cells (0 = empty, else tile + 1 as Tiled's gids) and its coins."""
    cells = [[0] * 32 for _ in range(32)]

    def put(x0, x1, y, tile):
        for x in range(x0, x1 + 1):
            cells[y][x] = tile + 1

    put(0, 31, 28, 1)
    for y in range(29, 32):
        put(0, 31, y, 2)
    put(4, 9, 25, 3)        # a brick ledge, three cells up
    put(12, 17, 22, 4)      # planks: jump through them from below
    put(20, 25, 19, 3)      # a high ledge
    for y in range(20, 28):  # a wall on the left
        put(0, 0, y, 3)
    coins = [(6, 23), (8, 23), (14, 20), (16, 20), (22, 17), (24, 17), (29, 27)]
    return cells, coins


def write_map(path):
    cells, coins = level()
    csv = ",\n".join(",".join(str(c) for c in row) for row in cells)
    solid = "".join(
        f'  <tile id="{t}">\n   <properties>\n    <property name="collide" value="{kind}"/>\n'
        f"   </properties>\n  </tile>\n"
        for t, kind in [(1, "solid"), (2, "solid"), (3, "solid"), (4, "oneway")]
    )
    objects = "".join(
        f'  <object id="{i + 2}" name="coin" x="{x * 8 + 4}" y="{y * 8 + 4}"><point/></object>\n'
        for i, (x, y) in enumerate(coins)
    )
    with open(path, "w") as out:
        out.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
            'renderorder="right-down" width="32" height="32" tilewidth="8" tileheight="8" '
            f'infinite="0" nextlayerid="3" nextobjectid="{len(coins) + 2}">\n'
            ' <tileset firstgid="1" name="tiles" tilewidth="8" tileheight="8" tilecount="16" '
            'columns="16">\n'
            '  <image source="tiles.png" width="128" height="8"/>\n'
            f"{solid}"
            " </tileset>\n"
            ' <layer id="1" name="ground" width="32" height="32">\n'
            f'  <data encoding="csv">\n{csv}\n</data>\n'
            " </layer>\n"
            ' <objectgroup id="2" name="things">\n'
            '  <object id="1" name="start" x="24" y="224"><point/></object>\n'
            f"{objects}"
            " </objectgroup>\n"
            "</map>\n"
        )


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "art")
    os.makedirs(out, exist_ok=True)
    draw_tiles(os.path.join(out, "tiles.png"))
    write_map(os.path.join(out, "level.tmx"))
