#!/usr/bin/env python3
"""Renders Tiled's own picture of each tile layer of the maps the tests compare with
(`tmxrasterizer` from Debian's `tiled` 1.8.2, no smoothing, one layer at a time, visibility
ignored): `<folder>/reference/<map>-<n>.png` for the n-th tile layer in document order
(groups flattened). Run from anywhere; needs `tiled` and Pillow."""
import os, re, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
MAPS = [
    ("dottiled", "map-duplicate-object-id-bug.tmx"),
    ("roguelike", "roguelike-16x16.tmx"),
    ("infinite", "tiled_base64_zlib_infinite.tmx"),
    ("infinite-json", "orthogonal-infinite.tmx"),
    ("encodings", "tiled_csv.tmx"),
]

def layer_names(tmx):
    text = open(tmx, encoding="utf-8").read()
    names = re.findall(r'<layer\b[^>]*\bname="([^"]*)"', text)
    return [n.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') for n in names]

env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
for folder, name in MAPS:
    tmx = os.path.join(HERE, folder, name)
    out = os.path.join(HERE, folder, "reference")
    os.makedirs(out, exist_ok=True)
    for n, layer in enumerate(layer_names(tmx)):
        png = os.path.join(out, "%s-%d.png" % (name[:-4], n))
        subprocess.run(["tmxrasterizer", "--no-smoothing", "--ignore-visibility",
                        "--show-layer", layer, tmx, png], check=True, env=env,
                       capture_output=True)
        print(png)
