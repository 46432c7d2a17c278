# Shared by scripts/demo, scripts/test, scripts/bench: install what is
# missing (Debian 12, as root), configure and build. Idempotent and quick
# when everything is already there.
set -euo pipefail

LINKGUARD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LLVM_BIN=/usr/lib/llvm-19/bin

# Debian bookworm packages, nothing vendored. libomp-dev is LLVM 14's
# OpenMP (preinstalled on this machine kind): the ELF tests use it with
# clang-14; libomp-19-dev would conflict with it.
LINKGUARD_PACKAGES=(
  clang-19 lld-19 llvm-19 llvm-19-dev llvm-19-tools libclang-19-dev libclang-rt-19-dev
  clang-14 libomp-dev
  libboost-dev libboost-filesystem-dev libspdlog-dev libfmt-dev catch2
  libzstd-dev zlib1g-dev libtomlplusplus-dev
  cmake ninja-build python3 ccache clang-tidy-19
  fish # tests/e2e/env_fish.bash: `linkguard env --shell fish` through fish
)

say() { printf '==> %s\n' "$*" >&2; }

ensure_packages() {
  local missing=() p
  for p in "${LINKGUARD_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "linkguard: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# build_tree DIR [CMAKE ARGS...]: configure once, then build incrementally.
build_tree() {
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    say "configuring $dir"
    cmake -S "$LINKGUARD_ROOT" -B "$dir" -G Ninja \
      -DCMAKE_CXX_COMPILER=$LLVM_BIN/clang++ -DCMAKE_C_COMPILER=$LLVM_BIN/clang \
      "$@" >/dev/null
  fi
  say "building $dir"
  cmake --build "$dir" -j "$(nproc)" | grep -v '^\[' || true
  test "${PIPESTATUS[0]}" -eq 0
}
