#!/usr/bin/env python3
"""Makes the test data of this folder from Tiled's `orthogonal-outside` example (../outside):

- `outdoor-banked.png`: buch-outdoor.png as an 8-bit indexed PNG whose 22 colours sit in
  banks of 16 palette entries, every 16 px tile within one bank (entries 16k+1..16k+15),
  transparent pixels on entry 0 (its tRNS alpha 0); entry 16k of the other banks is an
  opaque magenta no pixel uses;
- `outdoor-keyed.png`: the same art as an RGB PNG, transparent pixels in #ff00ff, which
  the `*-keyed.tmx` map makes transparent with Tiled's colour key (`trans="ff00ff"`);
- `outside-<encoding>.tmx`: the map with its tileset image replaced by outdoor-banked.png,
  its layers written in every encoding Tiled offers (csv, xml, base64, base64 + zlib, gzip,
  zstd), and `outside-keyed.tmx` (csv) using outdoor-keyed.png with `trans`;
- `outside-<encoding>.tmj`: each map re-saved as JSON by Tiled itself
  (`tiled --export-map json`), where its build writes that encoding;
- `reference-<layer>.png`: Tiled's own rendering (`tmxrasterizer`, Tiled 1.8.2) of the
  original map's Ground and Fringe layers, the pixel reference the tests compare with.

Needs Pillow, zstandard (pip) and Debian's `tiled` package. Run from anywhere; it writes
next to itself.
"""
import base64, gzip, os, re, struct, subprocess, zlib
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
OUTSIDE = os.path.join(HERE, "..", "outside")
TILE = 16

def banked_png():
    art = Image.open(os.path.join(OUTSIDE, "buch-outdoor.png")).convert("RGBA")
    w, h = art.size
    px = art.load()
    tiles = []
    for ty in range(h // TILE):
        for tx in range(w // TILE):
            colours = []
            for y in range(TILE):
                for x in range(TILE):
                    r, g, b, a = px[tx * TILE + x, ty * TILE + y]
                    if a >= 128 and (r, g, b) not in colours:
                        colours.append((r, g, b))
            tiles.append(colours)
    banks = []  # each a list of up to 15 colours
    tile_bank = [0] * len(tiles)
    order = sorted(range(len(tiles)), key=lambda k: (-len(tiles[k]), k))
    for k in order:
        for b, bank in enumerate(banks):
            union = bank + [c for c in tiles[k] if c not in bank]
            if len(union) <= 15:
                banks[b] = union
                tile_bank[k] = b
                break
        else:
            banks.append(list(tiles[k]))
            tile_bank[k] = len(banks) - 1
    assert len(banks) >= 2, "the art must need several banks"
    palette = []
    for b, bank in enumerate(banks):
        palette.append((0, 0, 0) if b == 0 else (255, 0, 255))
        palette += bank + [(255, 0, 255)] * (15 - len(bank))
    out = Image.new("P", (w, h))
    flat = [c for rgb in palette for c in rgb]
    out.putpalette(flat + [0] * (768 - len(flat)))
    data = out.load()
    cols = w // TILE
    for y in range(h):
        for x in range(w):
            r, g, b, a = px[x, y]
            bank = tile_bank[(y // TILE) * cols + x // TILE]
            data[x, y] = 0 if a < 128 else 16 * bank + 1 + banks[bank].index((r, g, b))
    trns = bytes([0] + [255] * (len(palette) - 1))
    out.save(os.path.join(HERE, "outdoor-banked.png"), transparency=trns, bits=8)
    keyed = Image.new("RGB", (w, h))
    kd = keyed.load()
    for y in range(h):
        for x in range(w):
            r, g, b, a = px[x, y]
            kd[x, y] = (255, 0, 255) if a < 128 else (r, g, b)
    keyed.save(os.path.join(HERE, "outdoor-keyed.png"))
    return len(banks)

def layer_gids(tmx):
    layers = []
    for m in re.finditer(r'<data encoding="base64" compression="zlib">\s*(.*?)\s*</data>', tmx, re.S):
        raw = zlib.decompress(base64.b64decode(m.group(1)))
        layers.append(list(struct.unpack("<%dI" % (len(raw) // 4), raw)))
    return layers

def encode(gids, encoding, width):
    raw = struct.pack("<%dI" % len(gids), *gids)
    if encoding == "csv":
        rows = [",".join(str(g) for g in gids[i:i + width]) for i in range(0, len(gids), width)]
        return ' encoding="csv"', "\n" + ",\n".join(rows) + "\n"
    if encoding == "xml":
        return "", "\n" + "".join('   <tile gid="%d"/>\n' % g if g else "   <tile/>\n" for g in gids) + "  "
    if encoding == "base64":
        return ' encoding="base64"', "\n   " + base64.b64encode(raw).decode() + "\n  "
    if encoding == "zlib":
        data = zlib.compress(raw)
    elif encoding == "gzip":
        data = gzip.compress(raw, mtime=0)
    else:
        import zstandard
        data = zstandard.ZstdCompressor().compress(raw)
    return ' encoding="base64" compression="%s"' % encoding, "\n   " + base64.b64encode(data).decode() + "\n  "

def maps():
    tmx = open(os.path.join(OUTSIDE, "orthogonal-outside.tmx"), encoding="utf-8").read()
    layers = iter(layer_gids(tmx))
    variants = {}
    for encoding in ["csv", "xml", "base64", "zlib", "gzip", "zstd"]:
        layers = iter(layer_gids(tmx))
        def data(m):
            attrs, body = encode(next(layers), encoding, 45)
            return "<data%s>%s</data>" % (attrs, body)
        text = re.sub(r'<data encoding="base64" compression="zlib">.*?</data>', data, tmx, flags=re.S)
        variants[encoding] = text.replace('source="buch-outdoor.png"', 'source="outdoor-banked.png"')
    layers = iter(layer_gids(tmx))
    keyed = re.sub(r'<data encoding="base64" compression="zlib">.*?</data>',
                   lambda m: "<data%s>%s</data>" % encode(next(layers), "csv", 45), tmx, flags=re.S)
    variants["keyed"] = keyed.replace('<image source="buch-outdoor.png"',
                                      '<image source="outdoor-keyed.png" trans="ff00ff"')
    for name, text in variants.items():
        path = os.path.join(HERE, "outside-%s.tmx" % name)
        open(path, "w", encoding="utf-8").write(text)
        if name not in ("keyed", "xml"):  # JSON writes xml layers as csv arrays
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
            subprocess.run(["tiled", "--export-map", "json", path, path[:-4] + ".tmj"],
                           check=True, env=env, capture_output=True)

def references():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    src = os.path.join(OUTSIDE, "orthogonal-outside.tmx")
    for layer in ["Ground", "Fringe"]:
        subprocess.run(["tmxrasterizer", "--no-smoothing", "--show-layer", layer, src,
                        os.path.join(HERE, "reference-%s.png" % layer.lower())],
                       check=True, env=env, capture_output=True)

print("banks:", banked_png())
maps()
references()
