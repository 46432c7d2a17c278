# ld.so's own algorithm (issue 37 part 2, shipment/LdSo.cpp): each shape is
# judged by `check --portable` on the tree and on the executable alone
# (--bundle-root: one resolver), and run under the real ld.so, whose result
# is the evidence beside the verdict. Each failed on 7434022's closure.

SUITE_ldso_shapes_PROBE() {
  [ "$(uname -s)" = Linux ] || { echo "needs Linux's ld.so"; return; }
  [ "$(uname -m)" = x86_64 ] || { echo "the shapes are x86-64's (glibc-hwcaps levels)"; return; }
  [ -x "$CLANG" ] || echo "no $CLANG"
}

# lib DIR NAME [SONAME] [NEEDED...]: a shared library defining f_NAME.
ldso_lib() {
  local dir=$1 name=$2 soname=${3:-}
  shift $(($# < 3 ? $# : 3))
  mkdir -p "$dir"
  local needed=() n
  for n in "$@"; do needed+=(-l:"$n"); done
  echo "int f_${name//[^a-zA-Z0-9]/_}(void){return 0;}" >"$E2E_ROOT/$name.c"
  "$CLANG" -shared -fPIC -o "$dir/$name" "$E2E_ROOT/$name.c" ${soname:+-Wl,-soname,$soname} \
    -L"$dir" "${needed[@]}" -Wl,--allow-shlib-undefined || test_failed "building $dir/$name"
}

# runtime DIR NAME SYMBOL: a library NAME (its SONAME) that defines one
# OpenMP runtime's entry point (GOMP_parallel: a renamed libgomp;
# __kmpc_fork_call: libomp), by which linkguard knows a runtime.
ldso_runtime() {
  local dir=$1 name=$2 sym=$3
  mkdir -p "$dir"
  echo "void $sym(void){}" >"$E2E_ROOT/rt_$sym.c"
  "$CLANG" -shared -fPIC -o "$dir/$name" "$E2E_ROOT/rt_$sym.c" -Wl,-soname,"$name" ||
    test_failed "building $dir/$name"
}

# app DIR RUNPATH-FLAGS NEEDED...: bin/app needing the libraries in lib/.
ldso_app() {
  local dir=$1 rp=$2; shift 2
  mkdir -p "$dir/bin"
  echo 'int main(void){return 0;}' >"$E2E_ROOT/main.c"
  local needed=() n
  for n in "$@"; do needed+=(-l:"$n"); done
  "$CLANG" -o "$dir/bin/app" "$E2E_ROOT/main.c" -L"$dir/lib" -Wl,--no-as-needed "${needed[@]}" \
    $rp || test_failed "building $dir/bin/app"
}

# unique_each STATUS TEXT WHAT...: check --unique openmp on each WHAT (a
# tree, a file) exits STATUS and says TEXT.
ldso_unique_each() {
  local want=$1 text=$2 what st
  shift 2
  for what in "$@"; do
    "$LINKGUARD_BIN" check --unique openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" "$want" "--unique openmp $what ($(cat out.txt))"
    expect_contains "$(cat out.txt)" "$text"
  done
}

# omp_app DIR NEEDED...: DIR/bin/app needing libomp.so and NEEDED from
# DIR/lib (DT_RUNPATH $ORIGIN/../lib).
ldso_omp_app() {
  local dir=$1
  shift
  echo 'int main(void){return 0;}' >m.c # the test may build more from it
  ldso_app "$dir" '-Wl,-rpath,$ORIGIN/../lib -Wl,--enable-new-dtags' libomp.so "$@"
}

# verdict TREE: check --portable's exit status on the tree, and on bin/app
# alone in the tree's bundle root; both must be the same.
ldso_verdict() {
  local tree=$1 a b
  "$LINKGUARD_BIN" check --portable "$tree" >tree.out 2>&1; a=$?
  "$LINKGUARD_BIN" check --portable --bundle-root "$tree" "$tree/bin/app" >file.out 2>&1; b=$?
  expect_equal "$b" "$a" "the file's verdict equals the tree's ($(cat tree.out file.out))"
  echo "$a"
}

SUITE_ldso_shapes() {
  TEST "breadth-first: libx is loaded through libb's DT_RUNPATH before libc asks for it"
  # app -> liba.so, libb.so; liba.so -> libc3.so; libc3.so -> libx.so (no
  # runpath); libb.so (DT_RUNPATH $ORIGIN/sub) -> libx.so in lib/sub.
  # ld.so's queue: app, liba, libb, libc3 (liba's), libx (libb's, found in
  # sub/), then libc3's libx.so is the one already loaded: it runs. Depth
  # first, libc3 would ask for libx.so before libb loaded it, and fail.
  ldso_lib t/lib/sub libx.so
  echo 'int f_libc3(void){return 0;}' >c.c
  "$CLANG" -shared -fPIC -o t/lib/libc3.so c.c -Lt/lib/sub -l:libx.so
  echo 'int f_libb(void){return 0;}' >b.c
  "$CLANG" -shared -fPIC -o t/lib/libb.so b.c -Lt/lib/sub -l:libx.so -Wl,-rpath,'$ORIGIN/sub' -Wl,--enable-new-dtags
  echo 'int f_liba(void){return 0;}' >a.c
  "$CLANG" -shared -fPIC -o t/lib/liba.so a.c -Lt/lib -l:libc3.so -Wl,-rpath,'$ORIGIN' -Wl,--enable-new-dtags
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib -Wl,--enable-new-dtags" liba.so libb.so
  expect_status 0 t/bin/app
  expect_equal "$(ldso_verdict t)" 0 "check --portable ($(cat tree.out))"

  TEST "a glibc-hwcaps copy is host-dependent, and ld.so takes it on a CPU of that level"
  ldso_lib t/lib libx.so
  ldso_lib t/lib/glibc-hwcaps/x86-64-v2 libx.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib -Wl,--enable-new-dtags" libx.so
  maps=$(LD_DEBUG=libs t/bin/app 2>&1 | grep 'calling init: .*libx')
  expect_contains "$maps" "glibc-hwcaps/x86-64-v2/libx.so" "this CPU (x86-64-v2 or better) takes the copy"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "glibc-hwcaps/x86-64-v2/libx.so"
  "$LINKGUARD_BIN" inspect --tree --json t >tree.json
  expect_contains "$(cat tree.json)" '"placement": "host-dependent"'

  TEST "an empty file before the shipped copy ends ld.so's search: file too short"
  ldso_lib t/lib/real liby.so
  mkdir -p t/lib/first && : >t/lib/first/liby.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib/first:\$ORIGIN/../lib/real -Wl,--enable-new-dtags -Lt/lib/real" liby.so
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  expect_contains "$(cat ld.err)" "file too short"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "file too short"

  TEST "a wrong-machine candidate is skipped and the search goes on"
  ldso_lib t/lib/real libz1.so
  mkdir -p t/lib/first
  echo 'int g(void){return 0;}' >g.c
  "$CLANG" -target aarch64-linux-gnu -shared -fPIC -nostdlib -fuse-ld=lld -o t/lib/first/libz1.so g.c ||
    test_failed "aarch64 library"
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib/first:\$ORIGIN/../lib/real -Wl,--enable-new-dtags -Lt/lib/real" libz1.so
  expect_status 0 t/bin/app
  expect_equal "$(ldso_verdict t)" 0 "check --portable"

  TEST "an ET_REL candidate ends the search: only ET_DYN and ET_EXEC can be loaded"
  ldso_lib t/lib/real libr.so
  mkdir -p t/lib/first
  echo 'int h(void){return 0;}' >h.c
  "$CLANG" -c -fPIC -o t/lib/first/libr.so h.c
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib/first:\$ORIGIN/../lib/real -Wl,--enable-new-dtags -Lt/lib/real" libr.so
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  expect_contains "$(cat ld.err)" "only ET_DYN and ET_EXEC"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "only ET_DYN and ET_EXEC can be loaded"

  TEST "a PIE as a dependency: cannot dynamically load position-independent executable"
  ldso_lib t/lib libpie.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib -Wl,--enable-new-dtags" libpie.so
  echo 'int main(void){return 0;}' >pie.c
  "$CLANG" -fPIE -pie -o t/lib/libpie.so pie.c # the library replaced by a PIE
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  expect_contains "$(cat ld.err)" "position-independent executable"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "position-independent executable"

  TEST "an absolute DT_RUNPATH entry before \$ORIGIN is host-dependent: a copy there loads instead"
  ldso_lib t/lib libw.so
  host=$E2E_ROOT/hostdir
  ldso_app t "-Wl,-rpath,$host:\$ORIGIN/../lib -Wl,--enable-new-dtags" libw.so
  expect_status 0 t/bin/app
  ldso_lib "$host" libw.so
  maps=$(LD_DEBUG=libs t/bin/app 2>&1 | grep 'calling init: .*libw')
  expect_contains "$maps" "$host/libw.so" "with the machine's copy, ld.so loads it"
  rm -rf "$host"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "ld.so tries DT_RUNPATH $host first"

  TEST "the executable's DT_RPATH serves its libraries' names, unless the requester has DT_RUNPATH"
  ldso_lib t/lib/deep libb2.so
  echo 'int f_liba2(void){return 0;}' >a2.c
  "$CLANG" -shared -fPIC -o t/lib/liba2.so a2.c -Lt/lib/deep -l:libb2.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib:\$ORIGIN/../lib/deep -Wl,--disable-new-dtags" liba2.so
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d t/bin/app)" "(RPATH)"
  expect_status 0 t/bin/app
  expect_equal "$(ldso_verdict t)" 0 "check --portable ($(cat tree.out))"
  # liba2.so with a DT_RUNPATH of its own: ld.so uses no DT_RPATH for what
  # liba2.so asks for.
  patchelf --set-rpath '$ORIGIN' t/lib/liba2.so
  expect_contains "$("$LLVM_BIN/llvm-readelf" -d t/lib/liba2.so)" "(RUNPATH)"
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "DT_NEEDED libb2.so"

  TEST "a directory where ld.so looks ends its search: cannot read file data"
  ldso_lib t/lib/real libd.so
  mkdir -p t/lib/first/libd.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib/first:\$ORIGIN/../lib/real -Wl,--enable-new-dtags -Lt/lib/real" libd.so
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "cannot read file data"

  TEST "review: a PT_INTERP the kernel opens relative to the current directory is refused"
  mkdir -p t/bin
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c && patchelf --set-interpreter ld-linux-x86-64.so.2 t/bin/app
  (cd t/bin && ./app) 2>/dev/null && test_failed "the kernel ran a relative PT_INTERP"
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  expect_contains "$(cat tree.out)" "has PT_INTERP ld-linux-x86-64.so.2"

  TEST "review: a link loop in a glibc-hwcaps subdirectory does not end ld.so's list, one in the directory does"
  ldso_lib t/lib libq.so
  mkdir -p t/d1/glibc-hwcaps/x86-64-v2
  ln -s libq.so t/d1/glibc-hwcaps/x86-64-v2/libq.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../d1:\$ORIGIN/../lib -Wl,--enable-new-dtags" libq.so
  expect_status 0 t/bin/app
  expect_equal "$(ldso_verdict t)" 0 "check --portable ($(cat tree.out))"
  ln -s libq.so t/d1/libq.so # a loop where the directory itself is tried
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so gives the list up ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"

  TEST "review: the tree's own libstdc++ behind an absolute DT_RUNPATH entry is host-dependent"
  mkdir -p t/lib t/bin
  cp "$(readlink -f /usr/lib/x86_64-linux-gnu/libstdc++.so.6)" t/lib/libstdc++.so.6
  host=$E2E_ROOT/stdhost
  echo 'int main(){}' >cx.cc
  "$CLANGXX" -o t/bin/app cx.cc -Wl,--no-as-needed -lstdc++ -Wl,--enable-new-dtags,-rpath,"$host:\$ORIGIN/../lib" ||
    test_failed "building t/bin/app"
  mkdir -p "$host" && cp t/lib/libstdc++.so.6 "$host/"
  maps=$(LD_DEBUG=libs t/bin/app 2>&1 | grep 'calling init: .*libstdc')
  expect_contains "$maps" "$host/libstdc++.so.6" "with the machine's copy, ld.so loads it"
  rm -rf "$host"
  expect_equal "$(ldso_verdict t)" 1 "check --portable"
  expect_contains "$(cat tree.out)" "ld.so tries DT_RUNPATH $host first"

  TEST "review: ENOTDIR or ENAMETOOLONG in a directory that exists ends ld.so's list"
  ldso_lib t/lib libfoo.so
  mkdir -p t/d1 && echo x >t/d1/plain && ln -s plain/x t/d1/libfoo.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../d1:\$ORIGIN/../lib -Wl,--enable-new-dtags" libfoo.so
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so gives the list up at ENOTDIR ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  rm t/d1/libfoo.so
  # A directory name of 4086..4095 bytes: it exists; with the file's name
  # the path is past PATH_MAX.
  bin=$PWD/t/bin
  k=$(( (4090 - ${#bin} - 2) / 2 ))
  patchelf --set-rpath "\$ORIGIN/$(printf './%.0s' $(seq "$k")).:\$ORIGIN/../lib" t/bin/app
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so gives the list up at ENAMETOOLONG ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"

  TEST "review: one OpenMP runtime reached under two hard-linked names is one object (device and inode)"
  mkdir -p t/lib
  echo 'int omp_get_max_threads(void){return 1;}' >omp.c
  "$CLANG" -shared -fPIC -o t/lib/libomp.so.5 omp.c -Wl,-soname,libomp.so.5
  ln t/lib/libomp.so.5 t/lib/libomp.so
  "$CLANG" -shared -fPIC -o libomp.so omp.c -Wl,-soname,libomp.so
  mkdir -p t/bin
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Wl,--no-as-needed t/lib/libomp.so.5 ./libomp.so -Wl,-rpath,'$ORIGIN/../lib'
  expect_equal "$(LD_DEBUG=files t/bin/app 2>&1 | grep -c 'libomp.*generating link map')" 1 "ld.so maps one libomp"
  expect_equal "$(ldso_verdict t)" 0 "check --portable ($(cat tree.out))"

  TEST "review: the C library named by an absolute path loads only where that path exists"
  # DT_NEEDED /usr/lib64/libc.so.6 (Fedora's path; Debian's is
  # /lib/x86_64-linux-gnu): ld.so opens the path as written, no search.
  # Only the interpreter's own path is fixed by each machine's ABI.
  mkdir -p t/bin
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c || test_failed "building t/bin/app"
  for abs in /usr/lib64/libc.so.6 /lib/x86_64-linux-gnu/libc.so.6; do
    patchelf --replace-needed libc.so.6 "$abs" t/bin/app
    t/bin/app 2>ld.err; st=$?
    if [ -e "$abs" ]; then
      expect_equal "$st" 0 "ld.so opens $abs, which this machine has"
    else
      expect_equal "$st" 127 "ld.so fails where $abs does not exist ($(cat ld.err))"
    fi
    expect_equal "$(ldso_verdict t)" 1 "check --portable, $abs ($(cat tree.out))"
    expect_contains "$(cat tree.out)" "$abs"
    patchelf --replace-needed "$abs" libc.so.6 t/bin/app
  done
  # Another machine's interpreter is no file here (review).
  patchelf --add-needed /lib/ld-linux-aarch64.so.1 t/bin/app
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable, DT_NEEDED /lib/ld-linux-aarch64.so.1 ($(cat tree.out))"
  patchelf --remove-needed /lib/ld-linux-aarch64.so.1 t/bin/app
  # The interpreter's path is the same on every x86-64 Linux.
  patchelf --add-needed /lib64/ld-linux-x86-64.so.2 t/bin/app
  expect_status 0 t/bin/app
  expect_equal "$(ldso_verdict t)" 0 "check --portable, DT_NEEDED /lib64/ld-linux-x86-64.so.2 ($(cat tree.out))"

  TEST "review: two PT_DYNAMIC segments: ld.so reads the last, so linkguard does not judge the first"
  mkdir -p t/lib
  echo 'int f(void){return 0;}' >f.c
  "$CLANG" -shared -fPIC -o t/lib/libf.so f.c || test_failed "building t/lib/libf.so"
  # Turn PT_GNU_STACK into a second PT_DYNAMIC (a copy of the first's
  # fields): the layout no linker writes.
  python3 - t/lib/libf.so <<'PY' || test_failed "patching the program headers"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
phoff, = struct.unpack_from("<Q", b, 32)
phentsize, phnum = struct.unpack_from("<HH", b, 54)
ph = [phoff + i * phentsize for i in range(phnum)]
dyn = next(o for o in ph if struct.unpack_from("<I", b, o)[0] == 2)
stack = next(o for o in ph if struct.unpack_from("<I", b, o)[0] == 0x6474E551)
b[stack:stack + phentsize] = b[dyn:dyn + phentsize]
open(sys.argv[1], "wb").write(b)
PY
  "$LINKGUARD_BIN" check --portable t/lib/libf.so >file.out 2>&1; st=$?
  expect_equal "$st" 65 "a malformed file, never holds ($(cat file.out))"
  expect_contains "$(cat file.out)" "two PT_DYNAMIC segments"

  TEST "review: a glibc-hwcaps name that links to the directory's own copy is one file on every CPU"
  # lib/libx.so is a relative link to lib/glibc-hwcaps/x86-64-v2/libx.so: a
  # v2 CPU opens the subdirectory's name, an older one the directory's, and
  # both are the same file (device and inode): not host-dependent. A
  # second, different copy in x86-64-v3 is.
  ldso_lib t/lib/glibc-hwcaps/x86-64-v2 libx.so
  ln -s glibc-hwcaps/x86-64-v2/libx.so t/lib/libx.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib -Wl,--enable-new-dtags" libx.so
  real=$(readlink -f t/lib/libx.so)
  for m in none x86-64-v2; do
    got=$(LD_DEBUG=files /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask $m t/bin/app 2>&1 |
      sed -n 's/.*calling init: \(.*libx.so\)$/\1/p')
    expect_equal "$(readlink -f "$got")" "$real" "ld.so with mask $m maps the one file ($got)"
  done
  expect_equal "$(ldso_verdict t)" 0 "check --portable ($(cat tree.out))"
  ldso_lib t/lib/glibc-hwcaps/x86-64-v3 libx.so
  expect_equal "$(ldso_verdict t)" 1 "check --portable with a second copy in x86-64-v3 ($(cat tree.out))"
  expect_contains "$(cat tree.out)" "x86-64-v3/libx.so"

  TEST "review: a library with a zip behind it loads as the ELF in front, judged alike as a file and in the tree"
  ldso_lib t/lib libz1.so libz1.so
  python3 -c 'import zipfile; zipfile.ZipFile("w.zip", "w").writestr("a.txt", "x")'
  cat w.zip >>t/lib/libz1.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib -Wl,--enable-new-dtags" libz1.so
  expect_status 0 t/bin/app
  expect_equal "$(ldso_verdict t)" 0 "check --portable, the tree and bin/app alone ($(cat tree.out file.out))"

  TEST "review: a program named through a directory link: \$ORIGIN is the kernel's real path (/proc/self/exe)"
  # t/bin is a link to real/bin: the kernel runs t/real/bin/app, so
  # $ORIGIN/../lib is t/real/lib, which does not exist; t/lib holds the
  # library. The file named as t/bin/app and the tree agree with ld.so.
  ldso_lib t/lib libd1.so libd1.so
  mkdir -p t/real/bin
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/real/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:libd1.so -Wl,-rpath,'$ORIGIN/../lib' ||
    test_failed "building app"
  ln -s real/bin t/bin
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so looks in t/real/lib ($(cat ld.err))"
  expect_equal "$(ldso_verdict t)" 1 "check --portable, the tree and t/bin/app alone ($(cat tree.out file.out))"

  TEST "review: the legacy power set holds avx512_1/x86_64/: an AVX512_1 machine's glibc 2.36 takes that copy"
  # elf/dl-hwcaps.c _dl_important_hwcaps: with both hwcap names
  # (sysdeps/x86/dl-hwcap.h HWCAP_IMPORTANT) a path holds both,
  # tls/PLATFORM/avx512_1/x86_64/ first. This CPU's ld.so lists what it
  # searches (ld.so --help); linkguard judges every machine's.
  ldso_lib t/lib/avx512_1/x86_64 libw.so libw.so
  ldso_app t "-Wl,-rpath,\$ORIGIN/../lib -Wl,--enable-new-dtags -Lt/lib/avx512_1/x86_64" libw.so
  if /lib64/ld-linux-x86-64.so.2 --help | grep -q 'avx512_1 (supported, searched)'; then
    expect_status 0 t/bin/app
  else
    t/bin/app 2>ld.err; st=$?
    expect_equal "$st" 127 "this CPU's ld.so does not search avx512_1/ ($(cat ld.err))"
  fi
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  expect_contains "$(cat tree.out)" "lib/avx512_1/x86_64/libw.so"
  expect_contains "$(cat tree.out)" "only on machines whose ld.so searches that subdirectory"

  TEST "review: a legacy copy that ends the load is host-dependent; the baseline machine's file answers later names by its SONAME"
  # lib/avx512_1/libE.so.3 is text (a machine whose glibc 2.36 searches
  # avx512_1/ stops there: invalid ELF header); elsewhere libE.so.3 is the
  # link to other/libC.so, SONAME libC.so, which then answers app's
  # DT_NEEDED libC.so (ld-diff seed 11513). The baseline's file was not
  # followed: "libC.so resolves to no file of the tree", false on every
  # machine.
  ldso_lib t/other libC.so libC.so
  ldso_lib stub libE.so.3 libE.so.3
  mkdir -p t/lib/avx512_1 && echo 'not a library' >t/lib/avx512_1/libE.so.3
  ln -s ../other/libC.so t/lib/libE.so.3
  mkdir -p t/bin
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Lstub -Lt/other -Wl,--no-as-needed -l:libE.so.3 -l:libC.so \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app"
  if ! /lib64/ld-linux-x86-64.so.2 --help | grep -q 'avx512_1 (supported, searched)'; then
    expect_status 0 t/bin/app
  fi
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  expect_contains "$(cat tree.out)" "t/bin/../lib/avx512_1/libE.so.3 through DT_RUNPATH \$ORIGIN/../lib (file too short, and the load fails) only on machines whose ld.so searches that subdirectory"
  expect_not_contains "$(cat tree.out file.out)" "libC.so (x86_64) is a DT_NEEDED name that resolves to no file"
  "$LINKGUARD_BIN" inspect --tree t >inspect.out 2>&1
  expect_contains "$(cat inspect.out)" "t/other/libC.so [shipped: already loaded"

  TEST "review: the baseline machine's file, followed after a legacy copy that ends the load, has its own \$ORIGIN"
  # lib/libE.so.3 (DT_RUNPATH $ORIGIN/../dep) needs libX.so: from lib/ that
  # is dep/libX.so, a renamed libgomp (it defines GOMP_parallel), beside
  # the libomp.so app loads first: two OpenMP runtimes in one process. With
  # the avx512_1/ copy's directory as its $ORIGIN, lib/dep/libX.so (a plain
  # library) was taken instead and --unique openmp held.
  mkdir -p t/lib/avx512_1 t/dep t/lib/dep t/bin
  echo 'not a library' >t/lib/avx512_1/libE.so.3
  ldso_runtime t/dep libX.so GOMP_parallel
  ldso_lib t/lib/dep libX.so libX.so
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  echo 'int f_e(void){return 0;}' >e.c
  "$CLANG" -shared -fPIC -o t/lib/libE.so.3 e.c -Wl,-soname,libE.so.3 -Lt/dep -Wl,--no-as-needed \
    -l:libX.so -Wl,-rpath,'$ORIGIN/../dep' -Wl,--enable-new-dtags || test_failed libE.so.3
  ldso_omp_app t libE.so.3
  if ! /lib64/ld-linux-x86-64.so.2 --help | grep -q 'avx512_1 (supported, searched)'; then
    LD_DEBUG=files t/bin/app 2>ld.out
    expect_contains "$(cat ld.out)" "t/bin/../lib/../dep/libX.so" "ld.so loads dep/libX.so"
  fi
  "$LINKGUARD_BIN" check --unique openmp t >unique.out 2>&1; st=$?
  expect_equal "$st" 1 "two OpenMP runtimes where ld.so loads the directory's copy ($(cat unique.out))"
  expect_contains "$(cat unique.out)" "t/dep/libX.so"

  TEST "review: where a glibc-hwcaps copy differs, what one process holds is judged on the machine that loads the directory's copy too"
  # lib/glibc-hwcaps/x86-64-v3/libE.so.3 is a plain library; lib/libE.so.3,
  # which a CPU below x86-64-v3 loads, defines GOMP_parallel, needs a
  # renamed libgomp (dep/libX.so) and defines dup_sym as libD.so does.
  # Before, each rule judged this CPU's closure only: --forbid openmp,
  # --unique openmp and one definer all held.
  mkdir -p t/lib/glibc-hwcaps/x86-64-v3 t/dep t/bin
  echo 'int f_v3(void){return 0;}' >v3.c
  "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v3/libE.so.3 v3.c -Wl,-soname,libE.so.3 ||
    test_failed "v3 copy"
  ldso_runtime t/dep libX.so GOMP_parallel
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  echo 'int dup_sym(void){return 1;}' >d.c
  "$CLANG" -shared -fPIC -o t/lib/libD.so d.c -Wl,-soname,libD.so || test_failed libD.so
  echo 'void GOMP_parallel(void){} int dup_sym(void){return 2;}' >e.c
  "$CLANG" -shared -fPIC -o t/lib/libE.so.3 e.c -Wl,-soname,libE.so.3 -Lt/dep -Wl,--no-as-needed \
    -l:libX.so -Wl,-rpath,'$ORIGIN/../dep' -Wl,--enable-new-dtags || test_failed libE.so.3
  ldso_omp_app t libD.so libE.so.3
  # The real ld.so, as a CPU below x86-64-v3 (no glibc-hwcaps level searched).
  /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v2 --list t/bin/app >list.out 2>&1
  expect_contains "$(cat list.out)" "t/bin/../lib/libE.so.3" "a v2 machine loads the directory's copy"
  expect_contains "$(cat list.out)" "dep/libX.so"
  local suffix="(on machines whose ld.so searches, of the tree's glibc-hwcaps and legacy subdirectories, none)"
  for what in t t/bin/app; do
    "$LINKGUARD_BIN" check --forbid openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" 1 "--forbid openmp $what ($(cat out.txt))"
    expect_contains "$(cat out.txt)" "t/lib/libE.so.3) is an openmp runtime by its exports: it defines GOMP_parallel, and 'openmp' is forbidden $suffix"
    "$LINKGUARD_BIN" check --unique openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" 1 "--unique openmp $what ($(cat out.txt))"
    expect_contains "$(cat out.txt)" "$suffix"
    expect_contains "$(cat out.txt)" "t/dep/libX.so"
  done
  # inspect --tree says what check --unique openmp says.
  "$LINKGUARD_BIN" inspect --tree t >out.txt 2>&1
  expect_contains "$(cat out.txt)" "conflict: the load closure of t/bin/app (x86_64) holds two openmp runtimes: t/lib/libomp.so (loaded by t/bin/app) and t/dep/libX.so"
  expect_contains "$(cat out.txt)" "$suffix"
  "$LINKGUARD_BIN" check --portable t >out.txt 2>&1; st=$?
  expect_equal "$st" 1 "--portable ($(cat out.txt))"
  expect_contains "$(cat out.txt)" "dup_sym"
  expect_contains "$(cat out.txt)" "$suffix"
  # What both machines' processes hold is said once, unmarked: u's app
  # loads libomp.so and a renamed libgomp itself, and libE.so.3 differs
  # by machine (both copies plain).
  mkdir -p u/lib/glibc-hwcaps/x86-64-v3 u/bin
  cp t/lib/glibc-hwcaps/x86-64-v3/libE.so.3 u/lib/glibc-hwcaps/x86-64-v3/
  "$CLANG" -shared -fPIC -o u/lib/libE.so.3 v3.c -Wl,-soname,libE.so.3 || test_failed "u's libE.so.3"
  cp t/lib/libomp.so t/dep/libX.so u/lib/
  "$CLANG" -o u/bin/app m.c -Lu/lib -Wl,--no-as-needed -l:libomp.so -l:libX.so -l:libE.so.3 \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building u's app"
  "$LINKGUARD_BIN" check --unique openmp u >out.txt 2>&1; st=$?
  expect_equal "$st" 1 "--unique openmp u ($(cat out.txt))"
  expect_equal "$(grep -c 'holds two openmp runtimes' out.txt)" 1 "said once ($(cat out.txt))"
  expect_not_contains "$(cat out.txt)" "$suffix"

  TEST "review: a legacy copy and the directory's own both not loadable: the load fails on every machine, not host-dependent"
  mkdir -p t/lib/x86_64 t/bin
  echo 'not a library' >t/lib/x86_64/libE.so.3
  echo 'nor this' >t/lib/libE.so.3
  ldso_lib stub libE.so.3 libE.so.3
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Lstub -Wl,--no-as-needed -l:libE.so.3 \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app"
  t/bin/app 2>ld.err; st=$?
  expect_equal "$st" 127 "ld.so fails ($(cat ld.err))"
  for mask in none x86-64-v2; do
    /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask "$mask" --list t/bin/app >/dev/null 2>&1
    expect_equal "$?" 127 "ld.so --glibc-hwcaps-mask $mask fails too"
  done
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  expect_contains "$(cat tree.out)" "the load fails on every machine"
  "$LINKGUARD_BIN" inspect --tree --json t >tree.json
  expect_contains "$(cat tree.json)" '"placement": "unresolved"'

  TEST "review: a subdirectory copy ld.so refuses (a PIE) is not followed; its dependencies are no process's"
  # x86-64-v3/libE.so.3 is a PIE that needs a renamed libgomp: a v3
  # machine's ld.so refuses it (cannot dynamically load position-independent
  # executable), every other loads the plain directory's copy. No process
  # holds libX.so beside libomp.so.
  mkdir -p t/lib/glibc-hwcaps/x86-64-v3 t/dep t/bin
  ldso_runtime t/dep libX.so GOMP_parallel
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -fPIE -pie -o t/lib/glibc-hwcaps/x86-64-v3/libE.so.3 m.c -Wl,-soname,libE.so.3 -Lt/dep \
    -Wl,--no-as-needed -l:libX.so -Wl,-rpath,'$ORIGIN/../../../dep' || test_failed "the PIE copy"
  ldso_lib t/lib libE.so.3 libE.so.3
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  "$CLANG" -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:libomp.so -l:libE.so.3 \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app"
  /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v2 --list t/bin/app >list.out 2>&1
  expect_not_contains "$(cat list.out)" "libX.so" "a v2 machine loads the plain copy"
  for what in t t/bin/app; do
    "$LINKGUARD_BIN" check --unique openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" 0 "--unique openmp $what: no process holds two ($(cat out.txt))"
  done

  TEST "review: a failing subdirectory copy is not 'every machine fails' where a lower level or an earlier absolute entry loads"
  mkdir -p t/lib/glibc-hwcaps/x86-64-v3 t/lib/glibc-hwcaps/x86-64-v2 t/bin
  echo 'not a library' >t/lib/glibc-hwcaps/x86-64-v3/libE.so.3
  echo 'nor this' >t/lib/libE.so.3
  ldso_lib t/lib/glibc-hwcaps/x86-64-v2 libE.so.3 libE.so.3
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Lt/lib/glibc-hwcaps/x86-64-v2 -Wl,--no-as-needed -l:libE.so.3 \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app"
  /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v2 --list t/bin/app >list.out 2>&1
  expect_contains "$(cat list.out)" "x86-64-v2/libE.so.3" "a v2 machine loads the v2 copy"
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  expect_not_contains "$(cat tree.out)" "the load fails on every machine"
  expect_contains "$(cat tree.out)" "only on machines whose ld.so searches that subdirectory"

  TEST "review: --unique on a file whose other machine's closure is cut short by the search bound is undecided, not holds"
  # libE.so.3's 2,101 DT_RUNPATH entries, the last holding its 2,100
  # libraries, cost more than the bound (entries x names); it also needs
  # a renamed libgomp. This CPU loads the x86-64-v3 copy (plain).
  mkdir -p t/lib/glibc-hwcaps/x86-64-v3 t/lib/big t/dep t/bin
  echo 'int f_v3(void){return 0;}' >v3.c
  "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v3/libE.so.3 v3.c -Wl,-soname,libE.so.3 ||
    test_failed "v3 copy"
  echo 'int f_n(void){return 0;}' >n.c
  "$CLANG" -shared -fPIC -o t/lib/big/lib1.so n.c || test_failed lib1.so
  needed=(-l:lib1.so)
  for i in $(seq 2 2100); do ln t/lib/big/lib1.so "t/lib/big/lib$i.so"; needed+=("-l:lib$i.so"); done
  rp='$ORIGIN'; for i in $(seq 2100); do rp="$rp:\$ORIGIN/e$i"; done
  rp="${rp%:*}:\$ORIGIN/big"
  ldso_runtime t/dep libX.so GOMP_parallel
  "$CLANG" -shared -fPIC -o t/lib/libE.so.3 v3.c -Wl,-soname,libE.so.3 -Lt/lib/big -Lt/dep \
    -Wl,--no-as-needed "${needed[@]}" -l:libX.so -Wl,-rpath,"$rp:\$ORIGIN/../dep" \
    -Wl,--enable-new-dtags || test_failed libE.so.3
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  ldso_omp_app t libE.so.3
  "$LINKGUARD_BIN" check --unique openmp t/bin/app >out.txt 2>&1; st=$?
  expect_equal "$st" 92 "--unique openmp t/bin/app ($(cat out.txt))"
  expect_contains "$(cat out.txt)" "t/bin/app (on machines whose ld.so searches, of the tree's glibc-hwcaps and legacy subdirectories, none) is too large to resolve"

  TEST "review: one file opened through a glibc-hwcaps directory and through a link elsewhere has two \$ORIGINs: host-dependent"
  # lib/glibc-hwcaps/x86-64-v4/libC.so (DT_RPATH $ORIGIN/../../../dep) is
  # the only copy; lib64/libC.so links to it. A v4 machine opens it by the
  # hwcaps name ($ORIGIN lib/glibc-hwcaps/x86-64-v4: dep/libA.so.1 found),
  # every other by lib64/libC.so ($ORIGIN lib64: ../../../dep is above the
  # tree). One file, two searches (ld-diff seed 27057).
  mkdir -p t/lib/glibc-hwcaps/x86-64-v4 t/dep t/bin t/lib64
  ldso_lib t/dep libA.so.1 libA.so.1
  echo 'int f_c(void){return 0;}' >c.c
  "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v4/libC.so c.c -Wl,-soname,libC.so -Lt/dep \
    -Wl,--no-as-needed -l:libA.so.1 -Wl,-rpath,'$ORIGIN/../../../dep' || test_failed libC.so
  ln -s ../lib/glibc-hwcaps/x86-64-v4/libC.so t/lib64/libC.so
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Lt/lib64 -Wl,--no-as-needed -l:libC.so \
    -Wl,-rpath,'$ORIGIN/../lib:$ORIGIN/../lib64' -Wl,--disable-new-dtags || test_failed "building app"
  /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v2 --list t/bin/app >list.out 2>&1
  expect_contains "$(cat list.out)" "libA.so.1: cannot open shared object file" "below v4, \$ORIGIN is lib64"
  expect_equal "$(ldso_verdict t)" 1 "check --portable ($(cat tree.out))"
  expect_contains "$(cat tree.out)" "others load the same file as"

  TEST "review: a machine between this CPU and the baseline (x86-64-v3) loads its own copy: what its process holds is judged too"
  # lib/glibc-hwcaps/x86-64-v4/libE.so.3 and lib/libE.so.3 are plain;
  # lib/glibc-hwcaps/x86-64-v3/libE.so.3 needs a renamed libgomp
  # (dep/libX.so). This CPU (v4) and a baseline one load a plain copy; a
  # v3 CPU loads libX.so beside bin/app's libomp.so. Before, only this
  # CPU's closure and the baseline machine's were judged: --unique held.
  mkdir -p t/lib/glibc-hwcaps/x86-64-v3 t/lib/glibc-hwcaps/x86-64-v4 t/dep t/bin
  echo 'int f_e(void){return 0;}' >e.c
  "$CLANG" -shared -fPIC -o t/lib/libE.so.3 e.c -Wl,-soname,libE.so.3 || test_failed libE.so.3
  cp t/lib/libE.so.3 t/lib/glibc-hwcaps/x86-64-v4/
  ldso_runtime t/dep libX.so GOMP_parallel
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v3/libE.so.3 e.c -Wl,-soname,libE.so.3 \
    -Lt/dep -Wl,--no-as-needed -l:libX.so -Wl,-rpath,'$ORIGIN/../../../dep' \
    -Wl,--enable-new-dtags || test_failed "v3 copy"
  ldso_omp_app t libE.so.3
  # The real ld.so as a v3 CPU maps both runtimes; as a v2 or v4 one, one.
  /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v3 --list t/bin/app >list.out 2>&1
  expect_contains "$(cat list.out)" "dep/libX.so" "a v3 machine loads libX.so"
  expect_contains "$(cat list.out)" "lib/libomp.so"
  for mask in x86-64-v4 x86-64-v2; do
    /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask "$mask" --list t/bin/app >list.out 2>&1
    expect_not_contains "$(cat list.out)" "libX.so" "a machine of mask $mask does not"
  done
  local v3note="(on machines whose ld.so searches, of the tree's glibc-hwcaps and legacy subdirectories, only glibc-hwcaps/x86-64-v3/)"
  for what in t t/bin/app; do
    "$LINKGUARD_BIN" check --unique openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" 1 "--unique openmp $what ($(cat out.txt))"
    expect_contains "$(cat out.txt)" "holds two openmp runtimes"
    expect_contains "$(cat out.txt)" "t/dep/libX.so (loaded by"
    expect_contains "$(cat out.txt)" "$v3note"
  done
  "$LINKGUARD_BIN" inspect --tree t >out.txt 2>&1
  expect_contains "$(cat out.txt)" "conflict: the load closure of t/bin/app (x86_64) holds two openmp runtimes"
  expect_contains "$(cat out.txt)" "$v3note"

  TEST "review: a name that only spells ORIGIN (libORIGINAL.so) is no \$ORIGIN: one file by two names searches alike"
  # The shape of the test above, but libC.so has no search path of its
  # own and needs libORIGINAL.so, found through bin/app's DT_RPATH: every
  # machine loads the same libC.so and the same libORIGINAL.so, whichever
  # name opened libC.so. Before, a name holding "ORIGIN" counted as
  # $ORIGIN (is_dst takes "$ORIGIN" only, not followed by a letter, digit
  # or '_'): a false host-dependent.
  mkdir -p t/lib/glibc-hwcaps/x86-64-v4 t/lib t/bin t/lib64
  ldso_lib t/lib libORIGINAL.so libORIGINAL.so
  echo 'int f_c(void){return 0;}' >c.c
  "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v4/libC.so c.c -Wl,-soname,libC.so -Lt/lib \
    -Wl,--no-as-needed -l:libORIGINAL.so || test_failed libC.so
  ln -s ../lib/glibc-hwcaps/x86-64-v4/libC.so t/lib64/libC.so
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Lt/lib64 -Wl,--no-as-needed -l:libC.so \
    -Wl,-rpath,'$ORIGIN/../lib:$ORIGIN/../lib64' -Wl,--disable-new-dtags || test_failed "building app"
  for mask in x86-64-v4 x86-64-v2; do
    /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask "$mask" t/bin/app >run.out 2>&1
    expect_equal "$?" 0 "ld.so as $mask runs app ($(cat run.out))"
  done
  expect_equal "$(ldso_verdict t)" 0 "check --portable ($(cat tree.out))"

  TEST "review: a subdirectory only a lower machine's search meets (dep/glibc-hwcaps/x86-64-v2/, dep/tls/) is noted, and that machine judged"
  # lib/glibc-hwcaps/x86-64-v4/libE.so.3 needs nothing; lib/libE.so.3
  # (DT_RUNPATH $ORIGIN/../dep) needs libX.so: dep/libX.so is plain,
  # dep/SUB/libX.so a renamed libgomp. This CPU never searches dep/; the
  # baseline machine does, but not its subdirectory. Before, no machine
  # that searches dep/SUB/ was judged: the file's --unique held.
  local sub
  for sub in glibc-hwcaps/x86-64-v2 tls; do
    rm -rf t && mkdir -p t/lib/glibc-hwcaps/x86-64-v4 "t/dep/$sub" t/bin
    echo 'int f_e(void){return 0;}' >e.c
    "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v4/libE.so.3 e.c -Wl,-soname,libE.so.3 ||
      test_failed "v4 copy"
    ldso_lib t/dep libX.so libX.so
    ldso_runtime "t/dep/$sub" libX.so GOMP_parallel
    ldso_runtime t/lib libomp.so __kmpc_fork_call
    "$CLANG" -shared -fPIC -o t/lib/libE.so.3 e.c -Wl,-soname,libE.so.3 -Lt/dep -Wl,--no-as-needed \
      -l:libX.so -Wl,-rpath,'$ORIGIN/../dep' -Wl,--enable-new-dtags || test_failed libE.so.3
    ldso_omp_app t libE.so.3
    # A v3 CPU (it searches v3 and v2) maps the renamed libgomp.
    /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v3:x86-64-v2 --list t/bin/app >list.out 2>&1
    expect_contains "$(cat list.out)" "dep/$sub/libX.so" "a v3 CPU loads dep/$sub/libX.so"
    ldso_unique_each 1 "t/dep/$sub/libX.so (loaded by" t t/bin/app
  done

  TEST "review: one file by two names, a lower machine's \$ORIGIN reaching a legacy subdirectory: judged on that machine"
  # lib/libE.so.3 links to glibc-hwcaps/x86-64-v4/libE.so.3 (DT_RUNPATH
  # $ORIGIN/dep, needs libX.so). Opened by the v4 name, dep/ is the v4
  # directory's (plain libX.so); by lib/libE.so.3, lib/dep/, whose tls/
  # holds a renamed libgomp: every glibc 2.36 CPU below v4 maps it.
  mkdir -p t/lib/glibc-hwcaps/x86-64-v4/dep t/lib/dep/tls t/bin
  ldso_lib t/lib/glibc-hwcaps/x86-64-v4/dep libX.so libX.so
  cp t/lib/glibc-hwcaps/x86-64-v4/dep/libX.so t/lib/dep/
  ldso_runtime t/lib/dep/tls libX.so GOMP_parallel
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  echo 'int f_e(void){return 0;}' >e.c
  "$CLANG" -shared -fPIC -o t/lib/glibc-hwcaps/x86-64-v4/libE.so.3 e.c -Wl,-soname,libE.so.3 \
    -Lt/lib/dep -Wl,--no-as-needed -l:libX.so -Wl,-rpath,'$ORIGIN/dep' -Wl,--enable-new-dtags ||
    test_failed libE.so.3
  ln -s glibc-hwcaps/x86-64-v4/libE.so.3 t/lib/libE.so.3
  ldso_omp_app t libE.so.3
  /lib64/ld-linux-x86-64.so.2 --glibc-hwcaps-mask x86-64-v3:x86-64-v2 --list t/bin/app >list.out 2>&1
  expect_contains "$(cat list.out)" "dep/tls/libX.so" "a v3 CPU loads lib/dep/tls/libX.so"
  ldso_unique_each 1 "t/lib/dep/tls/libX.so (loaded by" t t/bin/app

  TEST "review: this CPU's own legacy search (AT_PLATFORM x86_64, no avx512_1) is one of the machines judged"
  # lib/x86_64/avx512_1/libX.so and lib/libX.so are plain; lib/x86_64/
  # libX.so is a renamed libgomp. An AVX512_1 machine takes the first; this
  # one (ld.so --help: avx512_1 not searched) takes lib/x86_64/libX.so.
  # Before, the legacy subdirectories were one set: --unique and --forbid
  # openmp held while this machine's own ld.so maps the runtime.
  mkdir -p t/lib/x86_64/avx512_1 t/bin
  ldso_lib t/lib libX.so libX.so
  cp t/lib/libX.so t/lib/x86_64/avx512_1/
  ldso_runtime t/lib/x86_64 libX.so GOMP_parallel
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  ldso_omp_app t libX.so
  "$CLANG" -o t/bin/app2 m.c -Lt/lib -Wl,--no-as-needed -l:libX.so \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app2"
  if /lib64/ld-linux-x86-64.so.2 --help | grep -q '^  avx512_1$'; then
    /lib64/ld-linux-x86-64.so.2 --list t/bin/app >list.out 2>&1
    expect_contains "$(cat list.out)" "lib/x86_64/libX.so" "this ld.so loads lib/x86_64/libX.so"
  fi
  "$LINKGUARD_BIN" check --unique openmp t >out.txt 2>&1; st=$?
  expect_equal "$st" 1 "--unique openmp t ($(cat out.txt))"
  expect_contains "$(cat out.txt)" "only x86_64/)"
  "$LINKGUARD_BIN" check --forbid openmp t/bin/app2 >out.txt 2>&1; st=$?
  expect_equal "$st" 1 "--forbid openmp t/bin/app2 ($(cat out.txt))"
  expect_contains "$(cat out.txt)" "t/lib/x86_64/libX.so) is an openmp runtime by its exports"

  TEST "review: each glibc 2.36 CPU's legacy search in its own order: a haswell machine tries tls/haswell/ before tls/x86_64/, Skylake-X avx512_1/ before x86_64/"
  # lib/tls/x86_64/libX.so is plain, lib/tls/haswell/libX.so a renamed
  # libgomp; then lib/x86_64/libX.so plain and lib/avx512_1/libX.so a
  # renamed libgomp. _dl_important_hwcaps writes each machine's subsets
  # of {x86_64, [avx512_1], its platform, tls} from the full set down:
  # an Intel AVX2 CPU (platform haswell) maps tls/haswell/libX.so, a
  # Skylake-X (haswell + avx512_1) avx512_1/libX.so, beside libomp.so.
  # Before, each machine searched the union's order (x86_64's first) and
  # machines were told apart by the set searched: every check held.
  local pair
  for pair in tls/x86_64:tls/haswell x86_64:avx512_1; do
    local plain=${pair%%:*} gomp=${pair#*:}
    rm -rf t && mkdir -p "t/lib/$plain" "t/lib/$gomp" t/bin
    ldso_lib t/lib libX.so libX.so
    cp t/lib/libX.so "t/lib/$plain/"
    ldso_runtime "t/lib/$gomp" libX.so GOMP_parallel
    ldso_runtime t/lib libomp.so __kmpc_fork_call
    ldso_omp_app t libX.so
    "$CLANG" -o t/bin/app2 m.c -Lt/lib -Wl,--no-as-needed -l:libX.so \
      -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app2"
    # The real ld.so on an emulated Haswell, where qemu-user is installed
    # (it has no AVX-512: the Skylake-X order is glibc's source alone).
    if [ "$gomp" = tls/haswell ] && command -v qemu-x86_64 >/dev/null; then
      qemu-x86_64 -cpu Haswell /lib64/ld-linux-x86-64.so.2 --list t/bin/app >list.out 2>&1
      expect_contains "$(cat list.out)" "lib/tls/haswell/libX.so" "a haswell machine's ld.so"
    fi
    ldso_unique_each 1 "t/lib/$gomp/libX.so (loaded by" t t/bin/app
    "$LINKGUARD_BIN" check --forbid openmp t/bin/app2 >out.txt 2>&1; st=$?
    expect_equal "$st" 1 "--forbid openmp t/bin/app2, $gomp ($(cat out.txt))"
  done

  TEST "review: a 32-bit x86 tree's legacy subdirectories are sse2/ and i686/ (glibc's), not i386/"
  # lib/sse2/libX.so is a renamed libgomp, lib/libX.so plain: the i386
  # ld.so (HWCAP_IMPORTANT = sse2, platform i686 on a CPU with CMOV) maps
  # the first. Before, linkguard searched tls/i386/ and i386/: held.
  local cc32=("$CLANG" -m32 -nostdlib)
  mkdir -p t/lib/sse2 t/bin
  echo 'void __kmpc_fork_call(void){}' >omp.c
  echo 'void GOMP_parallel(void){}' >gomp.c
  echo 'int f_x(void){return 0;}' >x.c
  "${cc32[@]}" -shared -fPIC -o t/lib/libomp.so omp.c -Wl,-soname,libomp.so || test_failed libomp
  "${cc32[@]}" -shared -fPIC -o t/lib/libX.so x.c -Wl,-soname,libX.so || test_failed libX
  "${cc32[@]}" -shared -fPIC -o t/lib/sse2/libX.so gomp.c -Wl,-soname,libX.so || test_failed sse2
  echo 'void _start(void){}' >s.c
  "${cc32[@]}" -o t/bin/app s.c -Lt/lib -Wl,--no-as-needed -l:libomp.so -l:libX.so \
    -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags -Wl,-dynamic-linker,/lib/ld-linux.so.2 ||
    test_failed "building app"
  if [ -x /lib32/ld-linux.so.2 ]; then
    /lib32/ld-linux.so.2 --list t/bin/app >list.out 2>&1
    expect_contains "$(cat list.out)" "lib/sse2/libX.so" "the i386 ld.so maps sse2/libX.so"
  fi
  ldso_unique_each 1 "t/lib/sse2/libX.so (loaded by" t t/bin/app

  TEST "review: the CPUs glibc can see, no other: AMD v4 without avx512_1, Intel AVX2 on glibc 2.26-2.32, i686 without SSE2, aarch64 with LSE atomics"
  # lib/libX.so is plain; PLAIN holds plain copies, GOMP a renamed
  # libgomp; bin/app needs libomp.so and libX.so. EXPECT: check --unique
  # openmp's status on the tree (and its zip). Each was wrong on eadac4b.
  #  - glibc-hwcaps/x86-64-v2 plain, haswell/ gomp: an Intel AVX2 CPU on
  #    glibc 2.26-2.32 (legacy subdirectories, no glibc-hwcaps) maps it.
  #  - tls/haswell plain, tls/avx512_1 gomp: no CPU maps it (avx512_1 is
  #    set for Intel only, whose AVX2 CPUs are haswell: tls/haswell/
  #    first); a machine with platform x86_64 and avx512_1 was judged.
  #  - tls/sse2 plain, i686 gomp (32-bit): a CPU without SSE2 (Pentium
  #    III) searches tls/i686, tls, i686 only.
  #  - atomics gomp (aarch64): an ARMv8.1 CPU (LSE) searches atomics/.
  local spec cc kind
  for spec in "x86_64|glibc-hwcaps/x86-64-v2|haswell|1" "x86_64|tls/haswell|tls/avx512_1|0" \
    "i386|tls/sse2|i686|1" "aarch64||atomics|1"; do
    IFS='|' read -r kind plain gomp expect <<<"$spec"
    case $kind in
    x86_64) cc=("$CLANG") ;;
    i386) cc=("$CLANG" -m32 -nostdlib) ;;
    aarch64) cc=("$CLANG" --target=aarch64-linux-gnu -nostdlib -fuse-ld=lld) ;;
    esac
    rm -rf t t.zip && mkdir -p t/lib/"$gomp" t/bin
    echo 'void __kmpc_fork_call(void){}' >omp.c
    echo 'void GOMP_parallel(void){}' >gomp.c
    echo 'int f_x(void){return 0;}' >x.c
    "${cc[@]}" -shared -fPIC -o t/lib/libomp.so omp.c -Wl,-soname,libomp.so || test_failed "$kind omp"
    "${cc[@]}" -shared -fPIC -o t/lib/libX.so x.c -Wl,-soname,libX.so || test_failed "$kind libX"
    if [ -n "$plain" ]; then mkdir -p "t/lib/$plain" && cp t/lib/libX.so "t/lib/$plain/"; fi
    "${cc[@]}" -shared -fPIC -o "t/lib/$gomp/libX.so" gomp.c -Wl,-soname,libX.so || test_failed "$kind gomp"
    if [ "$kind" = x86_64 ]; then
      echo 'int main(void){return 0;}' >m.c
    else
      echo 'void _start(void){}' >m.c
    fi
    "${cc[@]}" -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:libomp.so -l:libX.so \
      -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "$kind app"
    "$LINKGUARD_BIN" check --unique openmp t >out.txt 2>&1; st=$?
    expect_equal "$st" "$expect" "--unique openmp, $kind, $plain / $gomp ($(cat out.txt))"
    (cd t && zip -qry ../t.zip .)
    "$LINKGUARD_BIN" check --unique openmp t.zip >out.txt 2>&1; st=$?
    expect_equal "$st" "$expect" "--unique openmp t.zip, $kind, $plain / $gomp ($(cat out.txt))"
  done
  # An AMD v4 CPU (this one, where ld.so --help lists avx512_1 unsearched
  # and x86-64-v4 supported): platform x86_64, no avx512_1. lib/x86_64/
  # libX.so needs libZ.so, whose x86-64-v4 copy is a renamed libgomp;
  # avx512_1/ copies of libX.so keep every avx512_1 machine off x86_64/.
  rm -rf t t.zip && mkdir -p t/lib/x86_64 t/lib/avx512_1 t/lib/tls/x86_64/avx512_1/x86_64     t/lib/glibc-hwcaps/x86-64-v4 t/bin
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  ldso_lib t/lib libZ.so libZ.so
  ldso_runtime t/lib/glibc-hwcaps/x86-64-v4 libZ.so GOMP_parallel
  ldso_lib t/lib libX.so libX.so
  cp t/lib/libX.so t/lib/avx512_1/
  cp t/lib/libX.so t/lib/tls/x86_64/avx512_1/x86_64/
  "$CLANG" -shared -fPIC -o t/lib/x86_64/libX.so x.c -Wl,-soname,libX.so -Lt/lib -Wl,--no-as-needed \
    -l:libZ.so -Wl,-rpath,'$ORIGIN/..' -Wl,--enable-new-dtags || test_failed "x86_64/libX.so"
  ldso_omp_app t libX.so
  if /lib64/ld-linux-x86-64.so.2 --help | grep -q '^  avx512_1$' &&
    /lib64/ld-linux-x86-64.so.2 --help | grep -q 'x86-64-v4 (supported, searched)'; then
    /lib64/ld-linux-x86-64.so.2 --list t/bin/app >list.out 2>&1
    expect_contains "$(cat list.out)" "glibc-hwcaps/x86-64-v4/libZ.so" "this machine's ld.so"
  fi
  for what in t t/bin/app; do
    "$LINKGUARD_BIN" check --unique openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" 1 "--unique openmp $what, an AMD v4 CPU ($(cat out.txt))"
  done
  # Where qemu-user is installed: the emulated CPUs' own ld.so.
  if command -v qemu-i386 >/dev/null && [ -x /lib32/ld-linux.so.2 ]; then
    rm -rf t && mkdir -p t/lib/tls/sse2 t/lib/i686 t/bin
    "$CLANG" -m32 -nostdlib -shared -fPIC -o t/lib/libX.so x.c -Wl,-soname,libX.so
    cp t/lib/libX.so t/lib/tls/sse2/
    "$CLANG" -m32 -nostdlib -shared -fPIC -o t/lib/i686/libX.so gomp.c -Wl,-soname,libX.so
    "$CLANG" -m32 -nostdlib -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:libX.so \
      -Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags -Wl,-dynamic-linker,/lib/ld-linux.so.2
    qemu-i386 -cpu pentium3 /lib32/ld-linux.so.2 --list t/bin/app >list.out 2>&1
    expect_contains "$(cat list.out)" "lib/i686/libX.so" "a Pentium III's ld.so maps i686/libX.so"
  fi

  TEST "review: a dependency whose file cannot be decided (\$LIB before the tree's copy) leaves --unique and --forbid openmp undecided, not holds"
  # bin/app (DT_RUNPATH $LIB/none:$ORIGIN/../lib) needs libomp.so and
  # libX.so, a renamed libgomp: ld.so maps both. Before, each placement
  # was unknown and --unique skipped it: held.
  mkdir -p t/lib t/bin
  ldso_runtime t/lib libomp.so __kmpc_fork_call
  ldso_runtime t/lib libX.so GOMP_parallel
  echo 'int main(void){return 0;}' >m.c
  "$CLANG" -o t/bin/app m.c -Lt/lib -Wl,--no-as-needed -l:libomp.so -l:libX.so \
    -Wl,-rpath,'$LIB/none:$ORIGIN/../lib' -Wl,--enable-new-dtags || test_failed "building app"
  /lib64/ld-linux-x86-64.so.2 --list t/bin/app >list.out 2>&1
  expect_contains "$(cat list.out)" "lib/libX.so" "ld.so maps libX.so"
  for what in t t/bin/app; do
    "$LINKGUARD_BIN" check --unique openmp "$what" >out.txt 2>&1; st=$?
    expect_equal "$st" 92 "--unique openmp $what ($(cat out.txt))"
    expect_contains "$(cat out.txt)" "which file the loader loads cannot be decided"
    expect_contains "$(cat out.txt)" "replace \$LIB/\$PLATFORM"
  done
  "$LINKGUARD_BIN" check --forbid openmp --json t/bin/app >out.json 2>&1
  expect_contains "$(cat out.json)" "libX.so (which file the loader loads cannot be decided)"
}
