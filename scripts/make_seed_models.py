#!/usr/bin/env python3
"""Writes the models of examples/seeds/: two buildings as binary glTF (bank.glb, seed 004's station model, and
house.glb) and seed 001's WFC tile meshes as OBJ (tiles/*.obj; scripts/obj2fbx.c turns them into the .fbx files
the seed's tileset names), and the scatter example's forest_density.png. Boxes and a gable roof in metres (1 m = 1 block at scale 1), one material per part.
Deterministic: running it again writes the same bytes.

    python3 scripts/make_seed_models.py [OUT_DIR=examples/seeds]
"""
import json
import math
import os
import struct
import sys
import zlib


def box(x0, y0, z0, x1, y1, z1):
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    f = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (3, 7, 6), (3, 6, 2), (0, 4, 7), (0, 7, 3),
         (1, 2, 6), (1, 6, 5)]
    return v, f


def gable(x0, x1, y0, y1, z0, z1):
    """A roof prism along x: ridge at the middle of z."""
    zm = (z0 + z1) / 2
    v = [(x0, y0, z0), (x0, y0, z1), (x0, y1, zm), (x1, y0, z0), (x1, y0, z1), (x1, y1, zm)]
    f = [(0, 1, 2), (3, 5, 4), (0, 2, 5), (0, 5, 3), (1, 4, 5), (1, 5, 2), (0, 3, 4), (0, 4, 1)]
    return v, f


def merge(parts):
    vs, fs = [], []
    for v, f in parts:
        base = len(vs)
        vs += v
        fs += [(a + base, b + base, c + base) for a, b, c in f]
    return vs, fs


def walls(x0, z0, x1, z1, h, t, door=None):
    """Four walls of thickness t; door = (side, lo, hi, top) cuts an opening in the -z ('front') wall."""
    b = 1   # on the floor slab
    parts = [box(x0, b, z1 - t, x1, h, z1), box(x0, b, z0, x0 + t, h, z1), box(x1 - t, b, z0, x1, h, z1)]
    if door:
        lo, hi, top = door
        parts += [box(x0, b, z0, lo, h, z0 + t), box(hi, b, z0, x1, h, z0 + t), box(lo, top, z0, hi, h, z0 + t)]
    else:
        parts.append(box(x0, b, z0, x1, h, z0 + t))
    return parts


def glb(path, prims):
    """prims: list of (rgb, (vertices, faces)). One mesh, one primitive and material per part."""
    bin_ = b""
    views, accessors, materials, primitives = [], [], [], []
    for i, (rgb, (vs, fs)) in enumerate(prims):
        pos = b"".join(struct.pack("<3f", *p) for p in vs)
        idx = b"".join(struct.pack("<3H", *f) for f in fs)
        idx += b"\0" * (-len(idx) % 4)
        views.append({"buffer": 0, "byteOffset": len(bin_), "byteLength": len(pos), "target": 34962})
        bin_ += pos
        views.append({"buffer": 0, "byteOffset": len(bin_), "byteLength": 6 * len(fs), "target": 34963})
        bin_ += idx
        mn = [min(p[k] for p in vs) for k in range(3)]
        mx = [max(p[k] for p in vs) for k in range(3)]
        accessors.append({"bufferView": 2 * i, "componentType": 5126, "count": len(vs), "type": "VEC3", "min": mn, "max": mx})
        accessors.append({"bufferView": 2 * i + 1, "componentType": 5123, "count": 3 * len(fs), "type": "SCALAR"})
        materials.append({"pbrMetallicRoughness": {"baseColorFactor": list(rgb) + [1.0], "metallicFactor": 0.0}})
        primitives.append({"attributes": {"POSITION": 2 * i}, "indices": 2 * i + 1, "material": i})
    doc = {"asset": {"version": "2.0", "generator": "strata scripts/make_seed_models.py"}, "scene": 0,
           "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": primitives}],
           "materials": materials, "accessors": accessors, "bufferViews": views,
           "buffers": [{"byteLength": len(bin_)}]}
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(bin_))
    out += struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(bin_), 0x004E4942) + bin_
    with open(path, "wb") as f:
        f.write(out)


def obj(path, vs, fs):
    with open(os.path.join(os.path.dirname(path), "tiles.mtl"), "w") as f:
        f.write("# strata scripts/make_seed_models.py\nnewmtl dungeon_stone\nKd 0.38 0.38 0.38\n")
    with open(path, "w") as f:
        f.write("# strata scripts/make_seed_models.py\nmtllib tiles.mtl\nusemtl dungeon_stone\n")
        for p in vs:
            f.write("v %g %g %g\n" % p)
        for a, b, c in fs:
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))


SAND, PLANK, BRICK, STONE, DARK = (0.86, 0.78, 0.55), (0.66, 0.50, 0.30), (0.65, 0.42, 0.36), (0.5, 0.5, 0.5), (0.3, 0.22, 0.15)


def house():
    return [(STONE, box(0, 0, 0, 9, 1, 7)),
            (PLANK, merge(walls(0, 0, 9, 7, 5, 1, door=(4, 5, 4)))),
            (BRICK, gable(0, 9, 5, 8, 0, 7))]


def bank():
    cols = [box(x, 1, 0, x + 1, 7, 1) for x in (0, 2, 8, 10)]
    return [(STONE, box(0, 0, 0, 11, 1, 10)),
            (SAND, merge(walls(0, 1, 11, 10, 7, 1, door=(4, 7, 5)) + cols)),
            (SAND, box(0, 7, 1, 11, 8, 10)),
            (BRICK, gable(0, 11, 8, 10, 1, 10))]


def tile(sockets, size=(6, 5, 6)):
    """A dungeon tile: a floor, a ceiling and a wall on every side; an open_door side has a doorway."""
    sx, sy, sz = size
    parts = [box(0, 0, 0, sx, 1, sz), box(0, sy - 1, 0, sx, sy, sz)]
    h = sy - 1
    for side, s in sockets.items():
        spans = [(0, 2), (4, 6)] if s == "open_door" else [(0, 6)]
        for lo, hi in spans:
            if side == "-z":
                parts.append(box(lo, 1, 0, hi, h, 1))
            elif side == "+z":
                parts.append(box(lo, 1, sz - 1, hi, h, sz))
            elif side == "-x":
                parts.append(box(0, 1, lo, 1, h, hi))
            elif side == "+x":
                parts.append(box(sx - 1, 1, lo, sx, h, hi))
    return merge(parts)


TILES = {
    "corridor_straight": {"+x": "open_door", "-x": "open_door", "+z": "wall", "-z": "wall"},
    "corridor_corner": {"+x": "open_door", "-x": "wall", "+z": "open_door", "-z": "wall"},
    "junction_t": {"+x": "open_door", "-x": "open_door", "+z": "open_door", "-z": "wall"},
    "dead_end": {"+x": "wall", "-x": "open_door", "+z": "wall", "-z": "wall"},
    "room_small": {"+x": "open_door", "-x": "open_door", "+z": "open_door", "-z": "open_door"},
}


def density_png(path, n=128):
    """Seed 001's scatter densityMap: an 8-bit gray PNG, n x n (one pixel per block), two soft forest blobs."""
    rows = b""
    for y in range(n):
        row = bytearray([0])
        for x in range(n):
            a = math.exp(-((x - 40) ** 2 + (y - 50) ** 2) / 900.0)
            b = math.exp(-((x - 90) ** 2 + (y - 85) ** 2) / 600.0)
            row.append(min(255, int(255 * (a + b))))
        rows += bytes(row)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "examples/seeds"
    os.makedirs(os.path.join(out, "tiles"), exist_ok=True)
    glb(os.path.join(out, "house.glb"), house())
    glb(os.path.join(out, "bank.glb"), bank())
    density_png(os.path.join(out, "forest_density.png"))
    for name, sockets in TILES.items():
        obj(os.path.join(out, "tiles", name + ".obj"), *tile(sockets))


if __name__ == "__main__":
    main()
