#!/usr/bin/env bash
# NavBench set-up in one command.
#   ./navbench.sh run  [ARGS...]  install missing Debian packages, build (Release), open the viewer
#                                 (on the bundled default level when no ARGS are given)
#   ./navbench.sh test            same set-up, then the test stages (each announced, the first
#                                 failure stops with a non-zero exit; CI runs all three):
#                                   1. the Release build's whole suite (ctest)           build/
#                                   2. the clang-14 ASan + UBSan build's suite           build/asan/
#                                   3. every libFuzzer target of that same build (it is
#                                      built with the fuzzers) for NAVBENCH_FUZZ_SECONDS
#                                      (default 30) each, on a copy of its committed
#                                      corpus; any crash, leak or report fails
#                                 NAVBENCH_QUICK=1 runs stage 1 only (developers);
#                                 NAVBENCH_STAGES="1 3" picks stages; NAVBENCH_FUZZ_SECONDS;
#                                 NAVBENCH_ASAN_BUILD_DIR moves the build of stages 2 and 3.
#   ./navbench.sh build           set-up and build only
# Re-running is fast: packages are only installed when missing, the builds are incremental.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
build="${NAVBENCH_BUILD_DIR:-$here/build}"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(cmake make g++ pkg-config python3 libsdl2-dev libimgui-dev libglm-dev
  libtinyobjloader-dev python3-glad libstb-dev libgl1-mesa-dev libegl-dev libgl1-mesa-dri
  libgtest-dev libgmock-dev libbenchmark-dev librecast-dev liblz4-dev nlohmann-json3-dev libpng-dev libassimp-dev
  xvfb xauth clang-14 libclang-rt-14-dev llvm-14 chromium)
# clang-14 + libclang-rt-14-dev: the compiler of stages 2 and 3 of `test`, libFuzzer and its sanitizer runtimes (the
# runtime is only Recommended by clang-14, so it is named here); llvm-14: llvm-symbolizer for
# readable sanitizer stack traces. chromium: the browser test of `navbench check --html`'s report
# (headless, offline). libassimp-dev: FBX, Collada, 3DS, PLY, STL, ... levels (navbench-import).

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "navbench: installing missing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmd="${1:-run}"
shift || true
# Test stages to run by default (what CI runs); NAVBENCH_STAGES="1 3" to choose, NAVBENCH_QUICK=1
# for stage 1 only.
default_stages="1 2 3"
stages="${NAVBENCH_STAGES:-$default_stages}"
if [ "${NAVBENCH_QUICK:-0}" = 1 ]; then stages="1"; fi
asan_build="${NAVBENCH_ASAN_BUILD_DIR:-$build/asan}"

# The Release build (skipped only by a `test` run without stage 1).
if [ "$cmd" != test ] || [[ " $stages " == *" 1 "* ]]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release
  fi
  cmake --build "$build" -j "$jobs"
fi

# ---- test stages ---------------------------------------------------------------------------------
stage_names=()
stage_secs=()
stage_start=0
stage() { # announce a stage
  stage_start=$SECONDS
  echo
  echo "================================================================================"
  echo "navbench test: stage $1"
  echo "================================================================================"
}
stage_done() {
  stage_names+=("$1")
  stage_secs+=($((SECONDS - stage_start)))
  echo "navbench test: stage '$1' passed in $((SECONDS - stage_start)) s"
}
stage_fail() {
  echo "navbench test: STAGE FAILED: $1 (after $((SECONDS - stage_start)) s)" >&2
  exit 1
}
time_summary() {
  echo
  echo "navbench test: time per stage"
  local i total=0
  for i in "${!stage_names[@]}"; do
    printf '  %-58s %5d s\n' "${stage_names[$i]}" "${stage_secs[$i]}"
    total=$((total + stage_secs[i]))
  done
  printf '  %-58s %5d s\n' "total" "$total"
}

# The sanitizer suite runs in two parts: everything but the viewer's tests with LeakSanitizer on,
# then the viewer's tests (label app: they run the real binary on Mesa's software GL) with leak
# checking off: Mesa's DRI driver leaks at exit and is unloaded by then, so its frames cannot be
# symbolized or suppressed by name. ASan/UBSan errors stay fatal in both parts.
# NAVBENCH_ASAN_EXCLUDE_LABELS (a ctest label regex) leaves more out, e.g. "big" for a quick run.
asan_exclude_labels="${NAVBENCH_ASAN_EXCLUDE_LABELS:-}"

run_release_suite() {
  stage "1/3 Release build: whole suite ($build)"
  (cd "$build" && ctest --output-on-failure -j "$jobs" --timeout 1200) || stage_fail "Release suite"
  stage_done "1 Release suite (build above, ctest)"
}

# Stages 2 and 3 share one clang-14 build ($asan_build): everything with ASan + UBSan and libFuzzer's
# coverage instrumentation (-DNAVBENCH_FUZZ=ON), so the suite and the fuzzers are compiled once.
# clang-14 compiles ASan + UBSan about 3x faster than g++ (per file: 12.5 s against 32.7 s for a
# JSON-heavy source, 3.4 s against 9.9 s for a test file); stage 1 keeps g++. -g1: line tables for
# readable reports at a fraction of full debug info's build time. The benchmarks are built and
# smoke-run by stage 1 only.
configure_sanitizer_build() {
  local dir="$asan_build"
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^NAVBENCH_FUZZ:BOOL=ON' "$dir/CMakeCache.txt"; then
    echo "navbench test: $dir was configured without the fuzzers (an older layout): configuring it again"
    rm -rf "$dir"
  fi
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    CC=clang-14 CXX=clang++-14 cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DNAVBENCH_SANITIZE=ON -DNAVBENCH_FUZZ=ON -DNAVBENCH_BENCHMARKS=OFF \
      || stage_fail "sanitizer configure"
  fi
}

run_sanitizer_suite() {
  local dir="$asan_build"
  stage "2/3 AddressSanitizer + UBSan build (clang-14, with the fuzzers): whole suite ($dir)"
  configure_sanitizer_build
  cmake --build "$dir" -j "$jobs" || stage_fail "sanitizer build"
  local built=$SECONDS
  # release_only: viewer tests on the 2 km world (its bake alone takes minutes under ASan); what
  # they drive runs under the sanitizers in the model, planner and fuzz tests.
  local exclude="app|release_only" appsel=(-L app -LE release_only)
  if [ -n "$asan_exclude_labels" ]; then
    exclude="app|release_only|$asan_exclude_labels"
    appsel=(-L app -LE "release_only|$asan_exclude_labels")
  fi
  (cd "$dir" &&
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    ctest --output-on-failure -j "$jobs" --timeout 1800 -LE "$exclude") || stage_fail "sanitizer suite"
  (cd "$dir" &&
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    ctest --output-on-failure -j "$jobs" --timeout 1800 "${appsel[@]}") || stage_fail "sanitizer suite (viewer tests)"
  echo "navbench test: sanitizer build $((built - stage_start)) s, its suite $((SECONDS - built)) s"
  stage_done "2 sanitizer build (with the fuzzers) + suite"
}

run_fuzzers() {
  local dir="$asan_build" secs="${NAVBENCH_FUZZ_SECONDS:-30}"
  stage "3/3 every fuzz target for $secs s (libFuzzer, the stage 2 build: $dir)"
  configure_sanitizer_build
  cmake --build "$dir" -j "$jobs" --target fuzzers || stage_fail "fuzz build"
  local targets=() t
  for t in "$here"/tests/fuzz/corpus/*/; do
    t="$(basename "$t")"
    [ -x "$dir/tests/fuzz/$t" ] && targets+=("$t")
  done
  ((${#targets[@]})) || stage_fail "no fuzz targets were built"
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/navbench-fuzz.XXXXXX")"
  echo "navbench test: ${#targets[@]} targets, $jobs at a time, corpora copied to $work"
  # Each target on a copy of its committed corpus (the tree is never written), crashers to
  # $work/<target>/artifacts/. libFuzzer exits non-zero on a crash, leak, sanitizer report,
  # timeout (-timeout per input) or memory over -rss_limit_mb.
  fuzz_one() {
    local t="$1" w="$work/$1"
    mkdir -p "$w/corpus" "$w/artifacts"
    cp "$here/tests/fuzz/corpus/$t/"* "$w/corpus/"
    # Kept crashers are seeds too (read only: libFuzzer writes new inputs to the first dir only).
    local seeds=()
    [ -d "$here/tests/fuzz/regressions/$t" ] && seeds+=("$here/tests/fuzz/regressions/$t")
    (cd "$w" && TMPDIR="$w" "$dir/tests/fuzz/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$w/artifacts/" "$w/corpus" "${seeds[@]}" >"$w/log" 2>&1)
  }
  local running=() failed=() passed=0 i
  report_one() { # target exit-code
    local t="$1" rc="$2" w="$work/$1" execs corpus
    execs="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$w/log" | grep -o '[0-9]*$' || true)"
    corpus="$(ls "$w/corpus" | wc -l)"
    if [ "$rc" = 0 ]; then
      passed=$((passed + 1))
      printf '  fuzz %-16s ok    %5s exec/s, corpus %d files\n' "$t" "${execs:-?}" "$corpus"
    else
      failed+=("$t")
      printf '  fuzz %-16s FAILED (exit %s); crasher in %s; log tail:\n' "$t" "$rc" "$w/artifacts"
      tail -n 60 "$w/log" | sed 's/^/    /'
    fi
  }
  declare -A pid_of=()
  for t in "${targets[@]}"; do
    while ((${#pid_of[@]} >= jobs)); do
      local done_pid rc=0
      wait -n -p done_pid "${!pid_of[@]}" || rc=$?
      report_one "${pid_of[$done_pid]}" "$rc"
      unset "pid_of[$done_pid]"
    done
    fuzz_one "$t" &
    pid_of[$!]="$t"
  done
  while ((${#pid_of[@]})); do
    local done_pid rc=0
    wait -n -p done_pid "${!pid_of[@]}" || rc=$?
    report_one "${pid_of[$done_pid]}" "$rc"
    unset "pid_of[$done_pid]"
  done
  if ((${#failed[@]})); then
    stage_fail "fuzz targets crashed: ${failed[*]} (inputs under $work/<target>/artifacts; fix, then keep them in tests/fuzz/regressions/<target>/)"
  fi
  rm -rf "$work"
  fuzz_passed=$passed
  stage_done "3 ${#targets[@]} fuzz targets x ${secs} s"
}

case "$cmd" in
  run)
    # No level first (nothing, or options only): the default level, then the options.
    if (($# == 0)) || [[ "$1" == -* && "$1" != "--help" && "$1" != "-h" ]]; then
      set -- "$here/assets/levels/default.obj" "$@"
    fi
    exec "$build/app/navbench" "$@"
    ;;
  test)
    stage_names+=("0 set-up + Release build")
    stage_secs+=("$SECONDS")
    fuzz_passed=0
    [[ " $stages " == *" 1 "* ]] && run_release_suite
    [[ " $stages " == *" 2 "* ]] && run_sanitizer_suite
    [[ " $stages " == *" 3 "* ]] && run_fuzzers
    if [ "$stages" != "$default_stages" ]; then
      echo "navbench test: ran stages '$stages' (NAVBENCH_QUICK / NAVBENCH_STAGES); CI runs '$default_stages'"
    fi
    time_summary
    [[ " $stages " == *" 3 "* ]] && echo "fuzzers: $fuzz_passed passed, 0 failed"
    exit 0
    ;;
  build) ;;
  *) echo "usage: $0 run [ARGS...] | test | build" >&2; exit 2 ;;
esac
