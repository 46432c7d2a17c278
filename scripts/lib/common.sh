# Shared by scripts/demo, scripts/test, scripts/bench, scripts/portability:
# install what is missing, configure and build. Idempotent and quick when
# everything is already there.
#
# Platforms: Debian/Ubuntu (apt-get, as root), macOS (Homebrew, as the user
# who owns it), other Linux (nothing is installed: the list is printed and
# CMake says what it cannot find).
set -euo pipefail

LINKGUARD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Paths relative to the checkout in ccache's hashes: build trees of one
# checkout (build, build-sanitize, build-portability/*) share their objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$LINKGUARD_ROOT}

if [ "$(uname -s)" = Darwin ]; then
  LINKGUARD_PLATFORM=macos
elif [ -r /etc/os-release ] && grep -qE '^ID(_LIKE)?=.*(debian|ubuntu)' /etc/os-release; then
  LINKGUARD_PLATFORM=debian
else
  LINKGUARD_PLATFORM=linux
fi

# Debian packages, nothing vendored. libomp-dev is LLVM 14's OpenMP
# (preinstalled on this machine kind): the ELF tests use it with clang-14;
# libomp-19-dev would conflict with it.
LINKGUARD_PACKAGES=(
  clang-19 lld-19 llvm-19 llvm-19-dev llvm-19-tools libclang-19-dev libclang-rt-19-dev
  clang-14 libomp-dev
  libspdlog-dev libfmt-dev catch2
  libzstd-dev zlib1g-dev libtomlplusplus-dev
  libssl-dev # signature/: libcrypto (static) hashes code signatures' pages
  cmake ninja-build python3 ccache clang-tidy-19
  # tests/e2e/{distcc,icecc,sccache}.bash: the compile farms and caches
  # linkguard composes with, started on loopback by the suites.
  make distcc distcc-pump icecc sccache
  fish # tests/e2e/env_fish.bash: `linkguard env --shell fish` through fish
  # tests/e2e/inspect_crafted_malformed.bash, scripts/bench: peak RSS of a
  # command (GNU time; a Python child's own figure includes the interpreter).
  time
  # scripts/wheel, tests/python: Debian's Python tooling builds and tests the wheel.
  python3-build python3-setuptools python3-wheel python3-venv python3-pytest mypy
  yamllint python3-yaml # tests/python/ci_recipes.bash: the hosted CI recipes in docs/ci/
  # tests/e2e/ux.bash: every --json document validated against docs/schema/.
  python3-jsonschema
  zsh # tests/e2e/ux.bash: `linkguard env --shell zsh` and the zsh completion
  strace # tests/e2e/try_load_traced.bash: try-load where it cannot trace the loader
  patchelf # tests/e2e/ldso_shapes.bash and the ld.so differential: DT_RPATH trees
  # scripts/apple-tools (the `apple` suites: ld64 and cctools from ../shared/third_party):
  # libdispatch builds with clang-14 and CMake and brings its own BlocksRuntime;
  # cctools-port's configure is pre-generated (no autotools) and finds libuuid.
  uuid-dev
  # scripts/dyld-validator (tests/e2e/dyld_oracle.bash, label apple): dyld's
  # mach_o/ code is C++20 with blocks against libc++ (std::__1).
  libc++-19-dev libc++abi-19-dev libblocksruntime-dev
)
# What scripts/demo needs, a subset of the above: build the binary alone
# (BUILD_TESTING=OFF when Catch2 is absent) and cross-link its example.
# The compile farms, caches, fish, clang-tidy, Catch2, clang 14's OpenMP and
# GNU time are for the tests.
LINKGUARD_DEMO_PACKAGES=(
  clang-19 lld-19 llvm-19 llvm-19-dev llvm-19-tools libclang-19-dev
  libspdlog-dev libfmt-dev libzstd-dev zlib1g-dev libtomlplusplus-dev libssl-dev
  cmake ninja-build
)
# What scripts/wheel needs, and all it installs: the demo's build packages
# and Debian's Python packaging (`python3 -m build --wheel --no-isolation`).
# It prints this list before it installs anything missing of it.
LINKGUARD_WHEEL_PACKAGES=("${LINKGUARD_DEMO_PACKAGES[@]}"
  python3 python3-build python3-setuptools python3-wheel)
# Homebrew formulae (macOS): LLVM 19 with clang's headers, the header-only
# libraries, the build tools. The compiler is Apple's (Xcode or its Command
# Line Tools, which also bring python3 and the SDK).
LINKGUARD_BREW_FORMULAE=(llvm@19 spdlog fmt tomlplusplus catch2 zstd openssl@3 cmake ninja ccache)

if [ "$LINKGUARD_PLATFORM" = macos ]; then
  LLVM_BIN=$(brew --prefix llvm@19 2>/dev/null || echo /opt/homebrew/opt/llvm@19)/bin
else
  LLVM_BIN=/usr/lib/llvm-19/bin
fi

# ncpus: the number of online CPUs (nproc is GNU coreutils only).
ncpus() { getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2; }

say() { printf '==> %s\n' "$*" >&2; }

# ensure_packages [DEBIAN PACKAGE...]: installs what is missing of the
# platform's list (and, on Debian, the extra packages named), saying which
# packages and with which tool.
ensure_packages() {
  case $LINKGUARD_PLATFORM in
    debian) ensure_apt_packages "$@" ;;
    macos) ensure_brew_formulae ;;
    *) say "not Debian/Ubuntu or macOS: nothing is installed; needed: LLVM 19 with clang's" \
         "headers, spdlog, fmt, toml++, Catch2 (v2 or v3), zlib, zstd, CMake >= 3.21, Ninja, python3" ;;
  esac
}

# ensure_demo_packages: ensure_packages with the demo's list (Debian).
ensure_demo_packages() {
  local LINKGUARD_PACKAGES=("${LINKGUARD_DEMO_PACKAGES[@]}")
  ensure_packages
}

# ensure_wheel_packages: scripts/wheel's list, printed, then installed
# where missing (Debian); on macOS the build's formulae (no Catch2, no ccache).
ensure_wheel_packages() {
  if [ "$LINKGUARD_PLATFORM" = macos ]; then
    local LINKGUARD_BREW_FORMULAE=(llvm@19 spdlog fmt tomlplusplus zstd cmake ninja)
    say "scripts/wheel needs (Homebrew): ${LINKGUARD_BREW_FORMULAE[*]}"
    ensure_brew_formulae
    return
  fi
  local LINKGUARD_PACKAGES=("${LINKGUARD_WHEEL_PACKAGES[@]}")
  say "scripts/wheel needs (Debian packages): ${LINKGUARD_PACKAGES[*]}"
  ensure_packages
}

ensure_apt_packages() {
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
  say "installing with apt-get: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Acquire::Retries: a dropped connection to the mirror is tried again (CI robustness).
  apt-get -o Acquire::Retries=3 update -qq
  apt-get -o Acquire::Retries=3 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_brew_formulae() {
  command -v brew >/dev/null || { echo "linkguard: Homebrew (brew) not found; see README.md, macOS" >&2; exit 1; }
  xcrun --find clang++ >/dev/null 2>&1 ||
    { echo "linkguard: no Apple clang: install Xcode or its Command Line Tools (xcode-select --install)" >&2; exit 1; }
  local missing=() f
  for f in "${LINKGUARD_BREW_FORMULAE[@]}"; do
    brew list --formula "$f" >/dev/null 2>&1 || missing+=("$f")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing with brew: ${missing[*]}"
  brew install "${missing[@]}"
}

# build_tree DIR [CMAKE ARGS...]: configure once (again when a -DNAME=VALUE
# given differs from the tree's cache: scripts/demo may have configured it
# with BUILD_TESTING=OFF), then build incrementally: LINKGUARD_BUILD_TARGETS
# (space-separated) or everything. Debian: clang 19; macOS: Apple's clang
# with Homebrew's prefix to search. ccache when present.
build_tree() {
  local dir=$1; shift
  local a stale=
  if [ -f "$dir/CMakeCache.txt" ]; then
    for a in "$@"; do
      [[ $a =~ ^-D([A-Za-z0-9_]+)(:[A-Z]+)?=(.*)$ ]] || continue
      grep -qxF "${BASH_REMATCH[3]}" <(sed -n "s/^${BASH_REMATCH[1]}:[A-Z]*=//p" "$dir/CMakeCache.txt") ||
        stale=1
    done
  fi
  if [ -n "$stale" ]; then
    say "reconfiguring $dir: $*"
    cmake "$dir" "$@" >/dev/null
  fi
  if [ ! -f "$dir/build.ninja" ]; then
    say "configuring $dir"
    local args=()
    if [ "$LINKGUARD_PLATFORM" = macos ]; then
      args+=(-DCMAKE_CXX_COMPILER="$(xcrun --find clang++)" -DCMAKE_C_COMPILER="$(xcrun --find clang)"
             -DCMAKE_PREFIX_PATH="$(brew --prefix)")
    else
      args+=(-DCMAKE_CXX_COMPILER=$LLVM_BIN/clang++ -DCMAKE_C_COMPILER=$LLVM_BIN/clang)
    fi
    if command -v ccache >/dev/null; then
      args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    fi
    cmake -S "$LINKGUARD_ROOT" -B "$dir" -G Ninja "${args[@]}" "$@" >/dev/null
  fi
  say "building $dir${LINKGUARD_BUILD_TARGETS:+ ($LINKGUARD_BUILD_TARGETS)}"
  local targets=()
  for a in ${LINKGUARD_BUILD_TARGETS:-}; do targets+=(--target "$a"); done
  quiet_build "$dir" "${targets[@]}"
}

# quiet_build DIR [ARGS...]: cmake --build without the progress lines; fails
# when the build fails. (After `cmake | grep || true`, PIPESTATUS is true's.)
quiet_build() {
  local log st=0
  log=$(mktemp)
  cmake --build "$1" -j "$(ncpus)" "${@:2}" >"$log" 2>&1 || st=$?
  grep -v '^\[' "$log" || true
  rm -f "$log"
  return "$st"
}
