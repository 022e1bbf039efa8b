#!/usr/bin/env python3
"""Writes assets/tilesets/dungeon.json and its tile templates under assets/templates/dungeon/.

The dungeon tiles are 7 x 5 x 7 blocks: a 3-wide, 3-high passage at floor y = 1 runs from the tile's hub
(x, z 2..4) to each face that has a "door" socket; rooms widen the hub to 5 x 5; stairs climb 5 blocks
along +x across two stacked tiles (stair_bottom +y "stair_up" under stair_top -y "stair_down").
Passages are lined with cobblestone (walls, ceiling) and bricks (floor); everything else is " " (keep:
the rock stays). Rerun after editing; the outputs are committed."""
import json, os

SX, SY, SZ = 7, 5, 7
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets")
DOORS = {"+x": (5, 6, 2, 4), "-x": (0, 1, 2, 4), "+z": (2, 4, 5, 6), "-z": (2, 4, 0, 1)}


def box(air, x0, x1, y0, y1, z0, z1):
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            for z in range(z0, z1 + 1):
                if 0 <= x < SX and 0 <= y < SY and 0 <= z < SZ:
                    air.add((x, y, z))


def passage(doors, room=False):
    air = set()
    if room:
        box(air, 1, 5, 1, 3, 1, 5)
    else:
        box(air, 2, 4, 1, 3, 2, 4)
    for d in doors:
        x0, x1, z0, z1 = DOORS[d]
        box(air, x0, x1, 1, 3, z0, z1)
    return air


def stairs(top):
    air = set()
    for x in range(0, 7):
        if top and x == 6:
            box(air, 6, 6, 1, 3, 2, 4)
            continue
        if not top and x == 6:
            continue
        s = x + 1 - (5 if top else 0)
        box(air, x, x, max(s, 0), s + 2, 2, 4)
    return air


def template(name, air, torch=None):
    cells = {}
    for (x, y, z) in air:
        cells[(x, y, z)] = "."
    for (x, y, z) in air:
        for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            p = (x + dx, y + dy, z + dz)
            if all(0 <= p[i] < (SX, SY, SZ)[i] for i in range(3)) and p not in air and p not in cells:
                cells[p] = "b" if dy == -1 else "c"
    if torch and torch in air:
        cells[torch] = "t"
    layers = []
    for y in range(SY):
        layers.append(["".join(cells.get((x, y, z), " ") for x in range(SX)) for z in range(SZ)])
    return {"name": name, "size": [SX, SY, SZ],
            "palette": {" ": None, ".": "air", "c": "cobblestone", "b": "bricks", "t": "torch"},
            "layers": layers}


W, D = "wall", "door"


def sockets(doors, up=W, down=W):
    s = {k: (D if k in doors else W) for k in ("+x", "-x", "+z", "-z")}
    s["+y"], s["-y"] = up, down
    return {k: s[k] for k in ("+x", "-x", "+y", "-y", "+z", "-z")}


TILES = [
    # id, doors, room, weight, tags, rotations
    ("rock", [], None, 3.0, ["empty"], None),
    ("dead_end", ["-x"], False, 0.7, ["dead_end", "corridor"], [0, 90, 180, 270]),
    ("corridor", ["-x", "+x"], False, 3.0, ["corridor"], [0, 90]),
    ("corner", ["-x", "+z"], False, 2.0, ["corridor"], [0, 90, 180, 270]),
    ("tee", ["-x", "+x", "+z"], False, 1.0, ["corridor", "junction"], [0, 90, 180, 270]),
    ("cross", ["-x", "+x", "-z", "+z"], False, 0.5, ["corridor", "junction"], None),
    ("room_end", ["-x"], True, 0.8, ["room", "dead_end"], [0, 90, 180, 270]),
    ("room_pass", ["-x", "+x"], True, 0.6, ["room"], [0, 90]),
    ("room_corner", ["-x", "+z"], True, 0.6, ["room"], [0, 90, 180, 270]),
    ("room_tee", ["-x", "+x", "+z"], True, 0.4, ["room"], [0, 90, 180, 270]),
    ("room_cross", ["-x", "+x", "-z", "+z"], True, 0.3, ["room"], None),
]


def main():
    tiles = []
    tdir = os.path.join(ROOT, "templates", "dungeon")
    os.makedirs(tdir, exist_ok=True)
    for tid, doors, room, weight, tags, rots in TILES:
        air = set() if room is None else passage(doors, room)
        tpl = template(tid, air, (1, 1, 1) if room else None)
        with open(os.path.join(tdir, tid + ".json"), "w") as f:
            json.dump(tpl, f, indent=1)
            f.write("\n")
        t = {"id": tid, "mesh": "../templates/dungeon/%s.json" % tid, "weight": weight,
             "sockets": sockets(doors), "tags": tags, "rotatable": rots is not None}
        if rots:
            t["rotations"] = rots
        tiles.append(t)
    for tid, top in (("stair_bottom", False), ("stair_top", True)):
        tpl = template(tid, stairs(top))
        with open(os.path.join(tdir, tid + ".json"), "w") as f:
            json.dump(tpl, f, indent=1)
            f.write("\n")
        s = sockets(["+x"], down="stair_down") if top else sockets(["-x"], up="stair_up")
        tiles.append({"id": tid, "mesh": "../templates/dungeon/%s.json" % tid, "weight": 0.5, "sockets": s,
                      "tags": ["stairs"], "rotatable": True, "rotations": [0, 90, 180, 270]})
    ts = {"tileset": "dungeon", "tileSize": [SX, SY, SZ], "boundarySocket": "wall", "tiles": tiles,
          "adjacency": [["wall", "wall"], ["door", "door"], ["stair_up", "stair_down"]]}
    with open(os.path.join(ROOT, "tilesets", "dungeon.json"), "w") as f:
        json.dump(ts, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
