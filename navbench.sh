#!/usr/bin/env bash
# NavBench set-up in one command.
#   ./navbench.sh run  [ARGS...]  install missing Debian packages, build (Release), open the viewer
#                                 (on the bundled default level when no ARGS are given)
#   ./navbench.sh test            same set-up, then run the whole test suite (ctest)
#   ./navbench.sh build           set-up and build only
# Re-running is fast: packages are only installed when missing, the build is incremental.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
build="${NAVBENCH_BUILD_DIR:-$here/build}"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(cmake make g++ pkg-config python3 libsdl2-dev libimgui-dev libglm-dev
  libtinyobjloader-dev python3-glad libstb-dev libgl1-mesa-dev libegl-dev libgl1-mesa-dri
  libgtest-dev libgmock-dev libbenchmark-dev librecast-dev nlohmann-json3-dev libpng-dev
  xvfb xauth)

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

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j "$jobs"

cmd="${1:-run}"
shift || true
case "$cmd" in
  run)
    if (($# == 0)); then set -- "$here/assets/levels/default.obj"; fi
    exec "$build/app/navbench" "$@"
    ;;
  test)
    cd "$build"
    exec ctest --output-on-failure -j "$jobs" --timeout 1200
    ;;
  build) ;;
  *) echo "usage: $0 run [ARGS...] | test | build" >&2; exit 2 ;;
esac
