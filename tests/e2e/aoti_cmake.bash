# AOTInductor's generated CMake project through cmake/linkguard-toolchain.cmake.
# With package_cpp_only, torch/_inductor/codecache.py writes a CMake project
# whose CMakeLists.txt comes from cpp_builder.py (save_compile_cmd_to_cmake,
# save_src_to_cmake, save_link_cmd_to_cmake). With link_libtorch off it
# writes no target_compile_definitions and no compile options, so USE_MPS
# appears nowhere in CMake; ldflags go to target_link_options without their
# leading '-' (empty for an MPS model without LTO); libraries by name
# ("omp"). Beside the wrapper it writes <stem>_compile_flags.json and
# <stem>_linker_flags.json (save_flags_to_json), whose "definitions" hold
# " USE_MPS". The project here has that shape, for a Mach-O target through
# the user's cross toolchain file. Deviation: upstream asks for CMake 3.27,
# Debian bookworm has 3.25; nothing in the file needs more than 3.21.

SUITE_aoti_cmake_PROBE() {
  command -v cmake >/dev/null || { echo "cmake not installed"; return; }
  command -v ninja >/dev/null || { echo "ninja not installed"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || echo "$LLVM_BIN/ld64.lld not found"
}

TOOLCHAIN=$LINKGUARD_SOURCE_DIR/cmake/linkguard-toolchain.cmake
STEM=cxyzmodel.wrapper

# write_generated DIR DEFINITIONS: the package cpp_builder writes, as JSON
# definitions (e.g. '"TORCH_INDUCTOR_CPP_WRAPPER", " USE_MPS"').
write_generated() {
  local dir=$1 defs=$2
  mkdir -p "$dir" "$PWD/torch-standalone/include/standalone"
  cat >"$dir/CMakeLists.txt" <<'EOF'

cmake_minimum_required(VERSION 3.21 FATAL_ERROR)
project(aoti_model LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)

# Set a library target
add_library(aoti_model SHARED)


find_package(TorchStandalone REQUIRED)
# Set up include directories to find headers at the correct paths
target_include_directories(aoti_model PRIVATE ${TorchStandalone_INCLUDE_DIRS})
target_include_directories(aoti_model PRIVATE ${TorchStandalone_INCLUDE_DIRS}/standalone)

target_sources(aoti_model PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/cxyzmodel.wrapper.cpp)
target_sources(aoti_model PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/cxyzmodel.kernel.cpp)

# Add linker flags
target_link_options(aoti_model PRIVATE )

# Add libraries
target_link_libraries(aoti_model PRIVATE omp)
EOF
  cat >"$dir/$STEM.cpp" <<'EOF'
// A standalone AOTI wrapper: the entry point a runner dlopens.
extern "C" float model_kernel(const float *in, int n);
static const float model_constants[4] = {1.0f, 2.0f, 3.0f, 4.0f};
extern "C" int AOTInductorModelContainerRun(float *out) {
  *out = model_kernel(model_constants, 4);
  return 0;
}
EOF
  cat >"$dir/cxyzmodel.kernel.cpp" <<'EOF'
// The MPS kernels run on the GPU; the host side never calls OpenMP.
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  return s;
}
EOF
  local kind
  for kind in compile linker; do
    cat >"$dir/${STEM}_${kind}_flags.json" <<EOF
{"compiler": "clang++", "definitions": [$defs], "include_dirs": [], "cflags": ["O3", "DNDEBUG", "shared", "fPIC", "undefined dynamic_lookup", "Wall", "std=c++17", "Xclang", "fopenmp"], "ldflags": [], "libraries_dirs": [], "libraries": ["omp"], "passthrough_args": [" "], "aot_mode": true, "use_relative_path": false, "compile_only": $([ $kind = compile ] && echo true || echo false)}
EOF
  done
  echo 'set(TorchStandalone_INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")' \
    >"$PWD/torch-standalone/TorchStandaloneConfig.cmake"
}

MPS_DEFS='"TORCH_INDUCTOR_CPP_WRAPPER", "STANDALONE_TORCH_HEADER", " C10_USING_CUSTOM_GENERATED_MACROS", " USE_MPS"'

SUITE_aoti_cmake_SETUP() {
  write_sdk "$PWD/sdk"
  # The user's cross toolchain (../shared/README.md): the generated project
  # names "omp" without a folder, so the library path comes from here.
  cat >darwin.cmake <<EOF
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR arm64)
set(CMAKE_CXX_COMPILER $CLANGXX)
set(CMAKE_CXX_COMPILER_TARGET arm64-apple-macos11)
set(CMAKE_OSX_SYSROOT $PWD/sdk)
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld -nostdlib++ -L$PWD/sdk/omp")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
EOF
  write_generated "$PWD/model" "$MPS_DEFS"
}

# build_model BUILD_DIR [CMAKE ARGS...]: configure and build; logs beside.
build_model() {
  local dir=$1; shift
  cmake -S model -B "$dir" -G Ninja -DTorchStandalone_DIR="$PWD/torch-standalone" "$@" \
    >"$dir.configure.log" 2>&1 || test_failed "configure failed: $(tail -20 "$dir.configure.log")"
  cmake --build "$dir" --verbose >"$dir.build.log" 2>&1 \
    || test_failed "build failed: $(tail -20 "$dir.build.log")"
}
wrapped() {
  build_model "$1" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" "${@:2}"
}
deps() { "$LLVM_BIN/llvm-otool" -L "$1/libaoti_model.dylib"; }

SUITE_aoti_cmake() {
  TEST "control: the generated project without linkguard keeps libomp"
  build_model ctl -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin.cmake"
  expect_contains "$(deps ctl)" /opt/llvm-openmp/lib/libomp.dylib "otool -L"
  # Nothing in CMake says USE_MPS: not the compile lines, not the link.
  expect_not_contains "$(cat ctl.build.log)" USE_MPS "build log"

  TEST "through the toolchain file: USE_MPS from <stem>_linker_flags.json, libomp dropped"
  wrapped lg
  expect_contains "$(grep -- -dynamiclib lg.build.log)" \
    "$LINKGUARD_BIN --assume-define=USE_MPS -- $CLANGXX" "the link line"
  expect_not_contains "$(cat lg.build.log)" "linkguard: warning" "build log"
  expect_not_contains "$(deps lg)" libomp "otool -L"
  expect_contains "$(deps lg)" /usr/lib/libSystem.B.dylib "otool -L"

  TEST "without the flags file the verify warning says what to set; the setting works"
  rm model/${STEM}_linker_flags.json model/${STEM}_compile_flags.json
  wrapped lg
  expect_contains "$(grep -- -dynamiclib lg.build.log)" "$LINKGUARD_BIN -- $CLANGXX" "the link line"
  expect_contains "$(deps lg)" /opt/llvm-openmp/lib/libomp.dylib "otool -L"
  expect_contains "$(cat lg.build.log)" \
    "linkguard: warning: libaoti_model.dylib: /opt/llvm-openmp/lib/libomp.dylib is still a dependency" \
    "build log"
  expect_contains "$(cat lg.build.log)" \
    "USE_MPS is not defined on this link step; for an MPS model say so: CMake -DLINKGUARD_LINK_DEFINES=USE_MPS" \
    "build log"
  wrapped lg2 -DLINKGUARD_LINK_DEFINES=USE_MPS
  expect_not_contains "$(deps lg2)" libomp "otool -L with -DLINKGUARD_LINK_DEFINES=USE_MPS"
  expect_not_contains "$(cat lg2.build.log)" "linkguard: warning" "build log"

  TEST "a CPU model's flags file (no USE_MPS) adds no assumption"
  rm -rf model && write_generated "$PWD/model" '"TORCH_INDUCTOR_CPP_WRAPPER", " C10_USING_CUSTOM_GENERATED_MACROS"'
  wrapped lg
  expect_not_contains "$(grep -- -dynamiclib lg.build.log)" "--assume-define" "the link line"
  expect_contains "$(deps lg)" /opt/llvm-openmp/lib/libomp.dylib "otool -L"
}
