#!/usr/bin/env python3
"""Independent WFC checker: runs strata-wfc --json over many seeds and grid sizes and verifies, from the
tileset file alone (its own rotation of sockets, its own reading of the adjacency table), that every placed
tile is a tile of the set with an allowed rotation, that its reported sockets are the rotated ones, that
every pair of adjacent tiles faces paired sockets, and that every boundary face faces the boundary socket.
Shares no code with the solver. usage: check_wfc_adjacency.py STRATA_WFC TILESET [SEEDS]"""
import json, os, subprocess, sys, tempfile

DIRS = ["+x", "-x", "+y", "-y", "+z", "-z"]
TURN = {"+x": "+z", "+z": "-x", "-x": "-z", "-z": "+x", "+y": "+y", "-y": "-y"}
OPP = {"+x": "-x", "-x": "+x", "+y": "-y", "-y": "+y", "+z": "-z", "-z": "+z"}
STEP = {"+x": (1, 0, 0), "-x": (-1, 0, 0), "+y": (0, 1, 0), "-y": (0, -1, 0), "+z": (0, 0, 1), "-z": (0, 0, -1)}


def rotated(sockets, degrees):
    out = dict(sockets)
    for _ in range(degrees // 90):
        out = {TURN[d]: s for d, s in out.items()}
    return out


def main():
    wfc, tileset_path = sys.argv[1], sys.argv[2]
    seeds = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    ts = json.load(open(tileset_path))
    pairs = set()
    adj = ts["adjacency"]
    # the seed's object (socket -> sockets it may face; either side listing the other is enough) or pairs
    for a, b in ([(a, b) for a, lst in adj.items() for b in lst] if isinstance(adj, dict) else adj):
        pairs.add((a, b))
        pairs.add((b, a))
    boundary = ts.get("boundarySocket")   # none named: the boundary constrains nothing
    tiles = {t["id"]: t for t in ts["tiles"]}
    sizes = [(4, 1, 4), (16, 4, 16), (12, 3, 12), (5, 2, 9), (8, 4, 6), (16, 1, 4), (7, 3, 16)]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "o.json")
        for seed in range(seeds):
            sx, sy, sz = sizes[seed % len(sizes)]
            r = subprocess.run([wfc, "--tileset", tileset_path, "--size", "%d,%d,%d" % (sx, sy, sz), "--seed",
                                str(seed), "--json", out], capture_output=True, text=True)
            if r.returncode != 0:
                print("seed %d size %s: strata-wfc failed: %s" % (seed, (sx, sy, sz), r.stderr.strip()))
                bad += 1
                continue
            res = json.load(open(out))
            grid = {}
            for p in res["tiles"]:
                t = tiles.get(p["id"])
                rot = p["rotation"]
                allowed = (t.get("rotations", [0, 90, 180, 270]) if t.get("rotatable") else [0]) if t else []
                if t is None or rot not in allowed:
                    print("seed %d: bad tile %s rotation %s" % (seed, p["id"], rot))
                    bad += 1
                    continue
                socks = rotated(t["sockets"], rot)
                if socks != p["sockets"]:
                    print("seed %d: tile %s@%d reports sockets %s, expected %s" % (seed, p["id"], rot, p["sockets"], socks))
                    bad += 1
                grid[(p["x"], p["y"], p["z"])] = socks
            if len(grid) != sx * sy * sz:
                print("seed %d: %d tiles placed, expected %d" % (seed, len(grid), sx * sy * sz))
                bad += 1
            for (x, y, z), socks in grid.items():
                for d in DIRS:
                    dx, dy, dz = STEP[d]
                    n = grid.get((x + dx, y + dy, z + dz))
                    if not (0 <= x + dx < sx and 0 <= y + dy < sy and 0 <= z + dz < sz):
                        if boundary is not None and (socks[d], boundary) not in pairs:
                            print("seed %d: (%d,%d,%d) %s faces the boundary with %s" % (seed, x, y, z, d, socks[d]))
                            bad += 1
                    elif n is not None and (socks[d], n[OPP[d]]) not in pairs:
                        print("seed %d: (%d,%d,%d) %s: %s next to %s" % (seed, x, y, z, d, socks[d], n[OPP[d]]))
                        bad += 1
            if bad > 20:
                break
    print("%d seeds checked, %d problems" % (seeds, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
