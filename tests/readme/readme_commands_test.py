#!/usr/bin/env python3
"""The README's commands, run: every command line in README.md's ```sh blocks, and every command
in the "reproduce" column of its headline-figures table, is either run here or named in ALLOW_LIST
below with the reason it is covered elsewhere. A command that is neither fails the test, so a new
README command cannot go untested.

    readme_commands_test.py BUILD_DIR SOURCE_DIR [NAVBENCH_EXE] [--save-shots DIR] [--compare-shots DIR]

How commands run:
  * `navbench ...` / `build/app/navbench ...` / `$B ...` (a variable set in the block): the binary
    under test, from SOURCE_DIR, with SDL_VIDEODRIVER=offscreen and a scratch XDG_CONFIG_HOME.
    Output paths (--screenshot, -o, --json, --level, --write-expected, ...) are rewritten into a
    temporary folder, so the tree is never written. A viewer run without --screenshot gets one (it
    would otherwise open a window and wait).
    --save-shots DIR keeps the screenshots of the README's commands in DIR (named after the
    README's output file); --compare-shots DIR compares each with the one of that name in DIR,
    pixel by pixel (the stats overlay's timings and the log's times differ from run to run, so a
    small tolerance), e.g. before and after a refactor of app/: "the README's screenshots are the
    same images as before". (The committed PNGs are not the baseline: some predate later UI changes.)
  * `./navbench.sh run [ARGS]` opens a window: run the same thing headless, i.e. the viewer on the
    default level (unless ARGS name a level) with ARGS, --frames 3 and --screenshot to a temp file.
  * benchmark binaries (build/tests/.../*_bench): run with small arguments (BENCH_SMOKE) so the
    command is known to work; the figures themselves take minutes (docs/performance.md).
Commands naming ../shared are skipped with "skipped: ../shared not found" when ../shared/levels is
absent. Also checked: README.md has under 300 lines, and every image and local link in it and in
docs/*.md exists.
"""
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

MAX_README_LINES = 300

# Commands covered elsewhere: (full-match regex on the command as written, reason).
ALLOW_LIST = [
    (r"(NAVBENCH_[A-Z_]+=\S+ )*\./navbench\.sh test",
     "the CI entry point: .ci/run runs ./navbench.sh test (all three stages, the fuzz stage "
     "at 30 s per target); it builds and runs this very test"),
    (r"build/tests/app/level_load_bench world\.glb obj",
     "needs the 2 km world written as .glb and .obj (navbench worldgen --size 2000 --seed 1 -o "
     "world.glb, then -o world.obj; docs/performance.md); GltfLevel tests check the .glb load, its "
     "phases and its triangles against the OBJ's"),
    (r"navbench-viewer \.\.\. --bench-frames 20",
     "needs a GPU machine (docs/performance.md#frame-cost-on-a-gpu gives the whole command); the "
     "same --bench-frames runs on llvmpipe in tests/app/frame_bench"),
]

# Output options of navbench (viewer and subcommands): their value is rewritten into the temp dir.
OUTPUT_OPTIONS = {"--screenshot", "-o", "--out", "--json", "--write-expected", "--level",
                  "--save-scenario", "--dump-state", "--screenshot-dir", "--write-baseline", "--junit",
                  "--html"}
SUBCOMMANDS = {"bake", "query", "quality", "worldgen", "diff", "obstacles", "crowd", "check", "why", "replay"}  # no SDL/GL: not a viewer run
# Exit codes that mean success besides 0: `navbench diff` exits 1 when the two navmeshes differ,
# `navbench check` when it finds something. `navbench replay` must say identical (0), but with
# --mesh (another tile set) exits 1 when the re-bake changed answers.
OK_EXIT = {"diff": {0, 1}, "check": {0, 1}}

# Benchmark binaries: args appended (later flags win) so a README command runs in seconds.
BENCH_SMOKE = {
    "query_bench": (["--smoke"], None),
    "optimal_bench": (["--pairs=20", "--benchmark_min_time=0.001", "--benchmark_repetitions=1"], None),
    "bake_bench": (["--benchmark_filter=default", "--benchmark_min_time=0.001"], None),
    "big_bench": (["--pairs", "10", "--benchmark_min_time=0.001"], {"--sizes": "256"}),
    "edit_bench": (["--smoke"], None),
    "crowd_bench": (["--smoke"], None),
    "tilecache_bench": (["--smoke"], None),
    "check_bench": (["--smoke"], {"--world-size": "500"}),
    "hier_bench": (["--smoke"], None),
    "capture_bench": (["--smoke"], None),
}

# Benchmark scripts: args appended (later flags win) so a README command runs in seconds; their
# --build is this test's build directory and their --work a temp folder.
SCRIPT_SMOKE = {
    "tests/bench/query_process_bench.py": ["--runs", "1", "--cases", "20", "--city", "0", "--only", "default"],
}

# Screenshot comparison limits (--compare-shots): two runs of one command differ only in timings
# printed in the stats overlay, the tool readout and the log.
MAX_MEAN_DIFF = 0.5
MAX_OFF_SHARE = 0.003


class Ctx:
    def __init__(self, build, source, exe, save_shots=None, compare_shots=None):
        self.build, self.source, self.exe = build, source, exe
        self.save_shots, self.compare_shots = save_shots, compare_shots
        self.tmp = tempfile.mkdtemp(prefix="navbench-readme.")
        self.shared = os.path.isdir(os.path.join(source, "..", "shared", "levels"))
        self.failures, self.ran, self.allowed, self.skipped = [], 0, 0, 0
        self.outputs = {}  # output path as the README writes it -> where this run wrote it
        self.n = 0

    def fail(self, cmd, why):
        self.failures.append(f"{cmd}\n    -> {why}")
        print(f"FAIL   {cmd}\n       {why}")


# ---------------------------------------------------------------------------------------------
# README parsing

def sh_blocks(text):
    """Logical command lines of the ```sh blocks (continuations joined): (block, line number, text)."""
    out, in_block, acc, start, block = [], False, "", 0, 0
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not in_block:
            if s == "```sh":
                in_block, block = True, block + 1
            continue
        if s == "```":
            if acc.strip():
                out.append((block, start, acc.strip()))
            in_block, acc = False, ""
            continue
        if not acc:
            start = no
        if line.rstrip().endswith("\\"):
            acc += line.rstrip()[:-1] + " "
            continue
        acc += line
        if acc.strip() and not acc.strip().startswith("#"):
            out.append((block, start, acc.strip()))
        acc = ""
    return out


def figure_commands(text):
    """Inline commands of the 'reproduce' column of the README's tables that have one."""
    out, col = [], None
    for no, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            col = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if col is None:
            col = cells.index("reproduce") if "reproduce" in cells else -1
            continue
        if col < 0 or col >= len(cells) or set(cells[col]) <= set("-: "):
            continue
        for code in re.findall(r"`([^`]+)`", cells[col]):
            out.append((no, code.replace("\\|", "|")))
    return out


def split_commands(line):
    """Splits a shell line at unquoted ';' and '&&' (comments dropped)."""
    parts, cur, quote, i = [], "", None, 0
    while i < len(line):
        c = line[i]
        if quote:
            cur += c
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            cur += c
        elif c == "#" and (not cur or cur[-1].isspace()):
            break
        elif c == ";" or line.startswith("&&", i):
            parts.append(cur.strip())
            cur = ""
            i += 1 if c == ";" else 2
            continue
        else:
            cur += c
        i += 1
    parts.append(cur.strip())
    return [p for p in parts if p]


def expand(cmd, variables):
    """$NAME / ${NAME} replaced by the block's variables (unquoted use: the value's words split)."""
    def sub(m):
        name = m.group(1) or m.group(2)
        return variables.get(name, os.environ.get(name, m.group(0)))
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", sub, cmd)


# ---------------------------------------------------------------------------------------------
# PNG comparison (8-bit RGB/RGBA, non-interlaced: what render/Screenshot writes)

def png_rows(path):
    """(width, height, bytes per pixel, [(filter type, filtered row bytes)]) of a PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, w, h, bpp = 8, b"", 0, 0, 4
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"{path}: unsupported PNG (depth {depth}, type {ctype})")
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp + 1
    return w, h, bpp, [(raw[y * stride], raw[y * stride + 1:(y + 1) * stride]) for y in range(h)]


def unfilter(kind, row, prev, bpp):
    line = bytearray(row)
    n = len(line)
    if kind == 1:
        for x in range(bpp, n):
            line[x] = (line[x] + line[x - bpp]) & 255
    elif kind == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, prev))
    elif kind == 3:
        for x in range(n):
            line[x] = (line[x] + (((line[x - bpp] if x >= bpp else 0) + prev[x]) >> 1)) & 255
    elif kind == 4:
        for x in range(n):
            if x >= bpp:
                a, b, c = line[x - bpp], prev[x], prev[x - bpp]
            else:
                a, b, c = 0, prev[x], 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return bytes(line)


def compare_png(got_path, want_path):
    """None when the images match within the limits, else the reason. The committed image is
    decoded in full; a row of the new one whose filtered bytes and previous row are the same is
    the same row, so only the rows that differ are decoded twice (pure Python is slow)."""
    gw, gh, gb, got = png_rows(got_path)
    ww, wh, wb, want = png_rows(want_path)
    if (gw, gh) != (ww, wh):
        return f"size {gw}x{gh}, the committed image is {ww}x{wh}"
    total, off = 0, 0
    gprev, wprev, same_prev = bytes(gw * gb), bytes(ww * wb), gb == wb
    for (gk, grow), (wk, wrow) in zip(got, want):
        wline = unfilter(wk, wrow, wprev, wb)
        if same_prev and gk == wk and grow == wrow:
            gline = wline
        else:
            gline = unfilter(gk, grow, gprev, gb)
        same_prev = gline == wline
        if not same_prev:
            for x in range(gw):
                d = [abs(gline[x * gb + c] - wline[x * wb + c]) for c in range(3)]
                total += sum(d)
                if max(d) > 40:
                    off += 1
        gprev, wprev = gline, wline
    mean, share = total / (3.0 * gw * gh), off / float(gw * gh)
    print(f"       pixels vs {os.path.relpath(want_path)}: mean abs diff {mean:.3f}/255, "
          f"{share * 100:.3f}% differ by more than 40")
    if mean >= MAX_MEAN_DIFF or share >= MAX_OFF_SHARE:
        return (f"differs from {want_path}: mean abs diff {mean:.2f} (limit {MAX_MEAN_DIFF}), "
                f"{share * 100:.2f}% of pixels off by more than 40 (limit {MAX_OFF_SHARE * 100:.0f}%)")
    return None


# ---------------------------------------------------------------------------------------------
# Running

def run(ctx, cmd, argv, env_extra, cwd=None, timeout=120, ok=(0,)):
    env = dict(os.environ)
    env.update(env_extra)
    t0 = time.time()
    try:
        p = subprocess.run(argv, cwd=cwd or ctx.source, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        ctx.fail(cmd, f"timed out after {timeout} s: {shlex.join(argv)}")
        return None
    dt = time.time() - t0
    if p.returncode not in ok:
        tail = p.stdout.decode(errors="replace").strip().splitlines()[-15:]
        ctx.fail(cmd, f"exit code {p.returncode}: {shlex.join(argv)}\n       " + "\n       ".join(tail))
        return None
    print(f"ran    {cmd}  ({dt:.1f} s)")
    ctx.ran += 1
    return p


def run_navbench(ctx, cmd, args, env_extra):
    """navbench ARGS from the README: outputs into the temp dir, committed screenshots compared."""
    ctx.n += 1
    out_dir = os.path.join(ctx.tmp, f"cmd{ctx.n}")
    os.makedirs(out_dir)
    args, compares, shot = list(args), [], None
    viewer = not args or args[0] not in SUBCOMMANDS
    for i, a in enumerate(args):
        if a in ctx.outputs and not (i > 0 and args[i - 1] in OUTPUT_OPTIONS):
            args[i] = ctx.outputs[a]  # written by an earlier command of the README (into the temp dir)
            continue
        if i > 0 and args[i - 1] in OUTPUT_OPTIONS:
            new = os.path.join(out_dir, os.path.basename(a.rstrip("/")) or "out")
            ctx.outputs[a] = new
            if args[i - 1] == "--screenshot":
                shot = new
                compares.append((new, os.path.basename(a)))
            args[i] = new
        elif a.startswith("-") or i == 0 and not viewer:
            continue
        elif "../shared" in a and not ctx.shared:
            print(f"skip   {cmd}\n       skipped: ../shared not found ({a})")
            ctx.skipped += 1
            return
        elif not (i > 0 and args[i - 1].startswith("-")) and "." in os.path.basename(a) \
                and not os.path.exists(os.path.join(ctx.source, a)):
            ctx.fail(cmd, f"input file {a} does not exist (from {ctx.source})")
            return
    if viewer and "--help" not in args and "-h" not in args and shot is None:
        shot = os.path.join(out_dir, "viewer.png")
        args += ["--frames", "3", "--screenshot", shot]
    # Sanitizer builds: no leak check of the viewer (Mesa's GL driver leaks at exit, as in tests/app).
    env = {"SDL_VIDEODRIVER": "offscreen", "XDG_CONFIG_HOME": os.path.join(out_dir, "config"),
           "ASAN_OPTIONS": (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")}
    env.update(env_extra)
    if env.get("SDL_VIDEODRIVER") != "offscreen":
        env["SDL_VIDEODRIVER"] = "offscreen"
    ok = OK_EXIT.get(args[0], {0}) if args and not viewer else {0}
    if args and args[0] == "replay" and "--mesh" in args:
        ok = {0, 1}
    if run(ctx, cmd, [ctx.exe] + args, env, timeout=60, ok=ok) is None:
        return
    if shot and not os.path.isfile(shot):
        ctx.fail(cmd, f"no screenshot written at {shot}")
    for got, name in compares:
        if ctx.save_shots:
            shutil.copyfile(got, os.path.join(ctx.save_shots, name))
        if ctx.compare_shots:
            want = os.path.join(ctx.compare_shots, name)
            why = compare_png(got, want) if os.path.isfile(want) else f"no {want} to compare with"
            if why:
                ctx.fail(cmd, why)


def run_bench(ctx, cmd, argv):
    name = os.path.basename(argv[0])
    path = os.path.join(ctx.build, os.path.relpath(argv[0], "build"))
    if name not in BENCH_SMOKE:
        ctx.fail(cmd, f"benchmark {name} has no smoke arguments in BENCH_SMOKE of this script")
        return
    if not os.path.isfile(path):
        print(f"skip   {cmd}\n       skipped: {path} not built (benchmarks off in this build)")
        ctx.skipped += 1
        return
    extra, replace = BENCH_SMOKE[name]
    args = list(argv[1:])
    for flag, value in (replace or {}).items():
        if flag in args:
            args[args.index(flag) + 1] = value
    ctx.n += 1
    cwd = os.path.join(ctx.tmp, f"cmd{ctx.n}")
    os.makedirs(cwd)
    run(ctx, cmd + "   [smoke: " + " ".join(extra + [f"{k} {v}" for k, v in (replace or {}).items()]) + "]",
        [path] + args + extra, {}, cwd=cwd, timeout=90)


def run_script(ctx, cmd, argv):
    name = argv[0].lstrip("./")
    args = list(argv[1:])
    if "--build" in args:
        args[args.index("--build") + 1] = ctx.build
    ctx.n += 1
    work = os.path.join(ctx.tmp, f"cmd{ctx.n}")
    os.makedirs(work)
    extra = SCRIPT_SMOKE[name]
    run(ctx, cmd + "   [smoke: " + " ".join(extra) + "]",
        [sys.executable, os.path.join(ctx.source, name)] + args + extra + ["--work", work], {}, timeout=120)


def handle(ctx, raw, variables, env):
    """One simple command of the README (variables / exports tracked across a block)."""
    for pattern, reason in ALLOW_LIST:
        if re.fullmatch(pattern, raw):
            print(f"allow  {raw}\n       covered elsewhere: {reason}")
            ctx.allowed += 1
            return
    words = shlex.split(expand(raw, variables))
    if not words:
        return
    exported = words[0] == "export"
    if exported:
        words = words[1:]
    prefix = {}
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):
        k, v = words.pop(0).split("=", 1)
        prefix[k] = v
    if not words:  # assignments only
        variables.update(prefix)
        if exported:
            env.update(prefix)
        return
    cmd_env = dict(env)
    cmd_env.update(prefix)
    prog = words[0]
    if prog in ("navbench", "build/app/navbench", "./build/app/navbench"):
        run_navbench(ctx, raw, words[1:], cmd_env)
    elif prog == "./navbench.sh" and len(words) > 1 and words[1] == "run":
        args = words[2:]
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h")):
            args = ["assets/levels/default.obj"] + args
        print(f"       (./navbench.sh run opens a window: run headless as navbench {shlex.join(args)})")
        run_navbench(ctx, raw, args, cmd_env)
    elif re.fullmatch(r"(\./)?build/tests/\w+/\w+_bench", prog):
        run_bench(ctx, raw, words)
    elif prog.lstrip("./") in SCRIPT_SMOKE:
        run_script(ctx, raw, words)
    else:
        ctx.fail(raw, "not a command this test knows how to run, and not on ALLOW_LIST in "
                      "tests/readme/readme_commands_test.py: run it there, or allow-list it with the reason")


def check_links(ctx, name, text, base):
    """Every image and local link of a markdown file exists (relative to its folder)."""
    targets = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text) + re.findall(r"<img[^>]*\ssrc=\"([^\"]+)\"", text)
    images = set(targets)
    for t in re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)", text):
        if "://" not in t and not t.startswith("#") and not t.startswith("mailto:"):
            targets.append(t)
    bad = [t for t in targets if not os.path.exists(os.path.join(base, t.split("#")[0]))]
    for t in bad:
        ctx.fail(name, f"links {'image' if t in images else 'file'} {t}, which does not exist")
    if not bad:
        print(f"ok     {name}: {len(images)} images and {len(set(targets)) - len(images)} local links exist")


def check_text(ctx, text):
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if lines >= MAX_README_LINES:
        ctx.fail("README.md", f"{lines} lines; keep it under {MAX_README_LINES} (details go to docs/)")
    else:
        print(f"ok     README.md has {lines} lines (< {MAX_README_LINES})")
    check_links(ctx, "README.md", text, ctx.source)
    docs = os.path.join(ctx.source, "docs")
    for f in sorted(os.listdir(docs)) if os.path.isdir(docs) else []:
        if f.endswith(".md"):
            check_links(ctx, "docs/" + f, open(os.path.join(docs, f), encoding="utf-8").read(), docs)


def main():
    args, opts = [], {}
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a in ("--save-shots", "--compare-shots") and argv:
            opts[a] = os.path.abspath(argv.pop(0))
        else:
            args.append(a)
    if len(args) not in (2, 3) or any(a.startswith("-") for a in args):
        print(__doc__)
        return 2
    build, source = os.path.abspath(args[0]), os.path.abspath(args[1])
    exe = os.path.abspath(args[2]) if len(args) == 3 else os.path.join(build, "app", "navbench")
    if not os.access(exe, os.X_OK):
        print(f"navbench not found at {exe}")
        return 1
    if "--save-shots" in opts:
        os.makedirs(opts["--save-shots"], exist_ok=True)
    ctx = Ctx(build, source, exe, opts.get("--save-shots"), opts.get("--compare-shots"))
    t0 = time.time()
    try:
        text = open(os.path.join(source, "README.md"), encoding="utf-8").read()
        check_text(ctx, text)
        variables, env, current = {}, {}, None
        for block, no, line in sh_blocks(text):
            if block != current:  # each block is a fresh shell
                variables, env, current = {}, {}, block
            for cmd in split_commands(line):
                handle(ctx, cmd, variables, env)
        for no, cmd in figure_commands(text):
            handle(ctx, cmd, {}, {})
    finally:
        shutil.rmtree(ctx.tmp, ignore_errors=True)
    print(f"\nREADME commands: {ctx.ran} ran, {ctx.allowed} covered elsewhere (ALLOW_LIST), "
          f"{ctx.skipped} skipped, {len(ctx.failures)} failed ({time.time() - t0:.0f} s)")
    if ctx.failures:
        print("\nFailures:\n" + "\n".join(ctx.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
