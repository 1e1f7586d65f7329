#!/usr/bin/env python3
"""Whole-process comparison: `navbench query MESH CASES --repeat R` against
tests/bench/detour_query_harness (the same work with Detour: loading, parsing, the same queries per
case, the same output), both timed as whole processes, run alternately.

Bakes what it needs into --work (tile sets with `navbench bake`, a 600 m city with `navbench
worldgen`), writes seeded random test-case files (points on the levels' walkable triangles), then
prints a Markdown table of harness time / navbench time (higher is better) from the best and the
median wall clock of N runs each, and the load average before and after.

    tests/bench/query_process_bench.py --build build [--runs 11] [--repeat 10] [--cases 300]
"""
import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout))
    return r.stdout


def walkable_triangles(obj_path):
    """(triangles, cumulative areas) of the OBJ's faces whose normal is within 45 degrees of up."""
    verts, tris = [], []
    with open(obj_path, "r", errors="replace") as f:
        for line in f:
            if line.startswith("v "):
                p = line.split()
                verts.append((float(p[1]), float(p[2]), float(p[3])))
            elif line.startswith("f "):
                idx = []
                for w in line.split()[1:]:
                    i = int(w.split("/")[0])
                    idx.append(i - 1 if i > 0 else len(verts) + i)
                for k in range(1, len(idx) - 1):
                    tris.append((idx[0], idx[k], idx[k + 1]))
    out, cum, total = [], [], 0.0
    for a, b, c in tris:
        A, B, C = verts[a], verts[b], verts[c]
        e0 = (B[0] - A[0], B[1] - A[1], B[2] - A[2])
        e1 = (C[0] - A[0], C[1] - A[1], C[2] - A[2])
        n = (e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0])
        ln = math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2)
        if ln <= 0 or abs(n[1]) / ln < math.cos(math.radians(45)):
            continue
        total += ln / 2
        out.append((A, B, C))
        cum.append(total)
    return out, cum


def write_cases(obj_path, out_path, count, seed):
    """RecastDemo test-case file: 2/3 pf, 1/3 rc between random points on walkable triangles."""
    tris, cum = walkable_triangles(obj_path)
    rng = random.Random(seed)

    def point():
        import bisect
        t = tris[bisect.bisect_left(cum, rng.random() * cum[-1])]
        u, v = rng.random(), rng.random()
        if u + v > 1:
            u, v = 1 - u, 1 - v
        return [t[0][k] + u * (t[1][k] - t[0][k]) + v * (t[2][k] - t[0][k]) for k in range(3)]

    lines = ["s Tile Mesh", "f " + os.path.basename(obj_path)]
    for i in range(count):
        a, b = point(), point()
        lines.append("%s  %f %f %f  %f %f %f  0xffff 0x0" % ("rc" if i % 3 == 2 else "pf", *a, *b))
    with open(out_path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(out_path + ".tmp", out_path)


def time_once(cmd):
    """(wall seconds, CPU seconds = user + system, queries ms) of one whole process; queries ms sums
    the "total ms" column of its per-operation table (each operation's best repeat)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    t = time.perf_counter() - t0
    p.stdout.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("failed (%d): %s" % (p.returncode, " ".join(cmd)))
    queries = 0.0
    for line in out.decode(errors="replace").splitlines()[2:]:
        w = line.split()
        if len(w) == 4:
            queries += float(w[2])
    return t, ru.ru_utime + ru.ru_stime, queries


def same_work_signature(cmd):
    """The output without its timings: the summary line and each operation's call count."""
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (out.returncode, " ".join(cmd), out.stderr))
    lines = out.stdout.splitlines()
    return [lines[0]] + [" ".join(l.split()[:2]) for l in lines[2:]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(SRC, "build"), help="build directory (navbench + harness)")
    ap.add_argument("--shared", default=os.path.join(SRC, "..", "shared"), help="the team's shared folder")
    ap.add_argument("--work", default=None, help="where meshes and cases go (default BUILD/query_process_bench)")
    ap.add_argument("--runs", type=int, default=11, help="whole-process runs of each program per row")
    ap.add_argument("--repeat", type=int, default=10, help="--repeat passed to both")
    ap.add_argument("--cases", type=int, default=300, help="cases per generated test-case file")
    ap.add_argument("--city", type=int, default=600, help="edge of the generated city [m] (0: none)")
    ap.add_argument("--only", default="", help="comma-separated row names to run")
    args = ap.parse_args()

    navbench = os.path.join(args.build, "app", "navbench")
    harness = os.path.join(args.build, "tests", "bench", "detour_query_harness")
    for exe in (navbench, harness):
        if not os.access(exe, os.X_OK):
            sys.exit("missing %s (build the navbench and detour_query_harness targets)" % exe)
    work = args.work or os.path.join(args.build, "query_process_bench")
    os.makedirs(work, exist_ok=True)
    levels = os.path.join(args.shared, "levels")

    # (row name, level source for the bake, bake options, test-case file or None = generated)
    rows = []
    for name in ("nav_test", "dungeon", "undulating"):
        obj = os.path.join(levels, name + ".obj")
        if os.path.exists(obj):
            rows.append((name, obj, ["--tile-size", "48"], None))
        else:
            print("(skipping %s: %s not found)" % (name, obj))
    rows.append(("default", os.path.join(SRC, "assets", "levels", "default.obj"), ["--tile-size", "48"], None))
    if args.city:
        obj = os.path.join(work, "city%d.obj" % args.city)
        level = os.path.join(work, "city%d.json" % args.city)
        if not os.path.exists(level):
            sh([navbench, "worldgen", "--size", str(args.city), "--seed", "1", "-o", obj, "--level", level])
        rows.append(("city %d m" % args.city, level, [], None))
    for f in ("nav_mesh_test.txt", "raycast_test.txt"):
        cases = os.path.join(levels, "testcases", f)
        if os.path.exists(cases):
            rows.append(("nav_test, RecastDemo's " + f, os.path.join(levels, "nav_test.obj"), ["--tile-size", "48"],
                         cases))
    if args.only:
        keep = set(args.only.split(","))
        rows = [r for r in rows if r[0] in keep]

    load0 = os.getloadavg()
    table = []
    for name, src, bake, cases in rows:
        stem = os.path.join(work, name.split(",")[0].replace(" ", "_"))
        mesh = stem + ".bin"
        if not os.path.exists(mesh):
            sh([navbench, "bake", src, "-o", mesh, "-q"] + bake)
        if cases is None:
            cases = stem + "_%d.txt" % args.cases
            if not os.path.exists(cases):
                obj = src
                if src.endswith(".json"):
                    obj = os.path.splitext(src)[0] + ".obj"
                write_cases(obj, cases, args.cases, seed=name)
        ncases = sum(1 for l in open(cases) if l.split()[:1] in (["pf"], ["rc"]))
        progs = [[harness], [navbench, "query"]]
        cmds = [p + [mesh, cases, "--repeat", str(args.repeat)] for p in progs]
        sigs = [same_work_signature(c) for c in cmds]  # also warms the page cache
        if any(sig != sigs[0] for sig in sigs):
            sys.exit("%s: the programs did different work:\n%s" % (name, "\n".join(map(str, sigs))))
        times = [[] for _ in cmds]
        for _ in range(args.runs):  # alternately
            for c, t in zip(cmds, times):
                t.append(time_once(c))
        best = [min(r[0] for r in t) * 1e3 for t in times]
        med = [statistics.median(r[0] for r in t) * 1e3 for t in times]
        cpu = [min(r[1] for r in t) * 1e3 for t in times]
        qms = [min(r[2] for r in t) for t in times]
        table.append((name, ncases, best, med, cpu, qms))
        print("%-40s done" % name, file=sys.stderr)
    load1 = os.getloadavg()

    print("load average %.2f %.2f %.2f before, %.2f %.2f %.2f after; %d runs each, --repeat %d" %
          (*load0, *load1, args.runs, args.repeat))
    print()
    head = "| test-case file | cases | queries only | Detour ms | navbench ms | wall ratio best (median) | CPU ratio |"
    rule = "|---|---|---|---|---|---|---|"
    print(head)
    print(rule)
    for name, n, best, med, cpu, qms in table:
        row = "| %s | %d | %.2f | %.1f | %.1f | %.2f (%.2f) | %.2f |" % (
            name, n, qms[0] / qms[1] if qms[1] else 0, best[0], best[1], best[0] / best[1], med[0] / med[1],
            cpu[0] / cpu[1])
        print(row)
    print()
    print("ms: best wall clock of the runs; ratio = Detour harness time / navbench time (higher is better); CPU ="
          " best user + system time; queries only: the ratio of the per-operation tables' total ms (summed, best run)")


if __name__ == "__main__":
    main()
