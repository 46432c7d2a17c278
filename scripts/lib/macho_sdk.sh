# Writes the .tbd stubs that let clang++-19 + ld64.lld cross-link Mach-O on
# Linux (recipe in ../shared/README.md). Sourced by scripts/demo and by
# tests/e2e/lib.sh, so neither needs ../shared.

# write_tbd FILE INSTALL_NAME SYMBOL...: a TAPI v4 stub for arm64 + x86_64.
write_tbd() {
  local file=$1 name=$2; shift 2
  local syms
  syms=$(printf '%s, ' "$@"); syms=${syms%, }
  mkdir -p "$(dirname "$file")"
  cat >"$file" <<TBD
--- !tapi-tbd
tbd-version:     4
targets:         [ arm64-macos, x86_64-macos ]
install-name:    '$name'
current-version: 0
exports:
  - targets:     [ arm64-macos, x86_64-macos ]
    symbols:     [ $syms ]
...
TBD
}

# write_sdk DIR: DIR/usr/lib/libSystem.tbd (a minimal macOS SDK for
# -isysroot) and DIR/omp/libomp.tbd with the install name PyTorch wheels
# bake, /opt/llvm-openmp/lib/libomp.dylib.
write_sdk() {
  local dir=$1
  mkdir -p "$dir/usr/lib" "$dir/omp"
  cat >"$dir/usr/lib/libSystem.tbd" <<'TBD'
--- !tapi-tbd
tbd-version:     4
targets:         [ arm64-macos, x86_64-macos ]
install-name:    '/usr/lib/libSystem.B.dylib'
current-version: 1311
exports:
  - targets:     [ arm64-macos, x86_64-macos ]
    symbols:     [ dyld_stub_binder, _malloc, _free, _printf, _memcpy, _memset, ___stack_chk_fail, ___stack_chk_guard, __tlv_bootstrap ]
...
TBD
  # clang++ links -lc++ on Darwin; a stub keeps lines exactly as users write them.
  write_tbd "$dir/usr/lib/libc++.tbd" /usr/lib/libc++.1.dylib \
    __ZdlPv __Znwm ___cxa_atexit ___gxx_personality_v0
  write_tbd "$dir/omp/libomp.tbd" /opt/llvm-openmp/lib/libomp.dylib \
    ___kmpc_barrier ___kmpc_for_static_fini ___kmpc_for_static_init_4 \
    ___kmpc_for_static_init_8 ___kmpc_fork_call ___kmpc_global_thread_num \
    ___kmpc_push_num_threads _omp_get_max_threads _omp_get_num_threads \
    _omp_get_thread_num _omp_in_parallel _omp_set_num_threads
}

# macho_flags SDK [ARCH]: the flags that make clang++-19 cross-link Mach-O.
macho_flags() {
  echo "-target ${2:-arm64}-apple-macos11 -isysroot $1 -fuse-ld=lld"
}

# write_aoti_model DIR [uses_openmp]: an AOTI-shaped MPS model in three
# translation units (wrapper, kernel, constants), as inductor emits it. The
# wrapper calls into the torch runtime through -undefined dynamic_lookup;
# nothing calls OpenMP unless uses_openmp is given.
write_aoti_model() {
  local dir=$1 omp=${2:-}
  mkdir -p "$dir"
  cat >"$dir/model.wrapper.cpp" <<'CPP'
// Shaped like an AOTInductor wrapper: the entry points a runner dlopens.
extern "C" int aoti_torch_mps_set_arg(void *handle, int index, void *tensor);
extern "C" float model_kernel(const float *in, int n);
extern "C" const float model_constants[4];
extern "C" int AOTInductorModelContainerRun(void *handle, float *out) {
  aoti_torch_mps_set_arg(handle, 0, out); // resolved by dynamic lookup
  *out = model_kernel(model_constants, 4);
  return 0;
}
CPP
  if [ -n "$omp" ]; then
    cat >"$dir/model.kernel.cpp" <<'CPP'
extern "C" int omp_get_max_threads(void);
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  return s * (float)omp_get_max_threads();
}
CPP
  else
    cat >"$dir/model.kernel.cpp" <<'CPP'
// The MPS kernels run on the GPU; the host side never calls OpenMP.
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  return s;
}
CPP
  fi
  cat >"$dir/model.consts.cpp" <<'CPP'
extern "C" const float model_constants[4] = {1.0f, 2.0f, 3.0f, 4.0f};
CPP
}

# The flags cpp_builder renders for an MPS AOT build on macOS, on every phase.
AOTI_MPS_CFLAGS=(-D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER
  -D C10_USING_CUSTOM_GENERATED_MACROS -D USE_MPS -shared -fPIC
  -undefined dynamic_lookup -O3 -DNDEBUG -Wall -std=c++17 -Xclang -fopenmp)
