#!/usr/bin/env python3
"""Renders Tiled's own picture of each tile layer of the maps the tests compare with
(`tmxrasterizer` from Debian's `tiled` 1.8.2, no smoothing, one layer at a time, visibility
ignored): `<folder>/reference/<map>-<n>.png` for the n-th tile layer in document order
(groups flattened). JSON maps (Tiled's format before 1.2 too) are rendered the same way. Run
from anywhere, optionally naming the folders to render; needs `tiled`."""
import json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAPS = [
    ("dottiled", "map-duplicate-object-id-bug.tmx"),
    ("roguelike", "roguelike-16x16.tmx"),
    ("infinite", "tiled_base64_zlib_infinite.tmx"),
    ("infinite-json", "orthogonal-infinite.tmx"),
    ("encodings", "tiled_csv.tmx"),
    ("tiled-1.1-platformer", "tilemaps/platformer.json"),
    ("tiled-1.0-excalibur", "test-v1.json"),
    ("tiled-1.0-excalibur", "test-v1-external.json"),
]

def json_layer_names(layers):
    names = []
    for layer in layers:
        if layer.get("type") == "tilelayer":
            names.append(layer["name"])
        names += json_layer_names(layer.get("layers", []))
    return names

def layer_names(tmx):
    text = open(tmx, encoding="utf-8").read()
    if text.lstrip().startswith("{"):
        return json_layer_names(json.loads(text)["layers"])
    names = re.findall(r'<layer\b[^>]*\bname="([^"]*)"', text)
    return [n.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') for n in names]

env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
for folder, name in MAPS:
    if len(sys.argv) > 1 and folder not in sys.argv[1:]:
        continue
    tmx = os.path.join(HERE, folder, name)
    out = os.path.join(HERE, folder, "reference")
    os.makedirs(out, exist_ok=True)
    for n, layer in enumerate(layer_names(tmx)):
        png = os.path.join(out, "%s-%d.png" % (os.path.splitext(os.path.basename(name))[0], n))
        subprocess.run(["tmxrasterizer", "--no-smoothing", "--ignore-visibility",
                        "--show-layer", layer, tmx, png], check=True, env=env,
                       capture_output=True)
        print(png)
