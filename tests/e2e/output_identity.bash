# What a link wrote is decided after the link (driver/OutputIdentity.h), not
# from an lstat before it (issue 28 item 2): a symbolic link already at -o
# used to switch verify and enforce off ("not a regular file", exit 0, the
# library that loads libgomp kept). Real links: lld replaces the symbolic
# link with a regular file; GNU ld (bfd) writes through a dangling one to
# its target. Each linker behaviour has a plain-link control. The model
# calls no OpenMP; -lgomp makes the unused OpenMP dependency.

SUITE_output_identity_PROBE() {
  [ -x "$LINKGUARD_BIN" ] || { echo "linkguard not built"; return; }
  [ -x "$CLANGXX" ] || { echo "clang++-19 not installed"; return; }
  command -v ld.bfd >/dev/null || { echo "GNU ld (ld.bfd) not installed"; return; }
  command -v ld.lld >/dev/null || [ -x "$LLVM_BIN/ld.lld" ] || { echo "ld.lld not installed"; return; }
  printf 'int f() { return 0; }\n' >/tmp/lg-oi-probe.$$.cpp
  "$CLANGXX" -shared -fPIC /tmp/lg-oi-probe.$$.cpp -o /tmp/lg-oi-probe.$$.so -lgomp 2>/dev/null ||
    echo "cannot link -lgomp (libgomp's development files)"
  rm -f /tmp/lg-oi-probe.$$.*
}

SUITE_output_identity_SETUP() {
  WRAP=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  printf 'extern "C" int model_run(int x) { return 2 * x + 1; }\n' >model.cpp
  "$CLANGXX" -fPIC -c model.cpp -o model.o || test_failed "compiling model.cpp"
}

needed() { "$LLVM_BIN/llvm-readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
kind() { if [ -L "$1" ]; then echo symlink; elif [ -f "$1" ]; then echo file; else echo none; fi; }

# link MODE LD OUT [ARGS...]: the guarded link, stderr in err.txt; prints the status.
link() {
  local mode=$1 ld=$2 out=$3; shift 3
  LINKGUARD_MODE=$mode LINKGUARD_CXX=$CLANGXX "$WRAP" -fuse-ld="$ld" -shared model.o -o "$out" "$@" >stdout.txt 2>err.txt
  echo $?
}

SUITE_output_identity() {
  TEST "controls: lld replaces a symbolic link at -o, bfd writes through a dangling one"
  echo old >t.so && ln -s t.so out.so
  "$CLANGXX" -fuse-ld=lld -shared model.o -o out.so -lgomp || test_failed "plain lld link"
  expect_equal "$(kind out.so) $(cat t.so)" "file old" "lld: -o and the old target"
  rm -f out.so t.so && ln -s t.so out.so
  "$CLANGXX" -fuse-ld=bfd -shared model.o -o out.so -lgomp || test_failed "plain bfd link"
  expect_equal "$(kind out.so) $(kind t.so)" "symlink file" "bfd: -o and the target it wrote"
  expect_contains "$(needed t.so)" libgomp.so.1 "bfd's output, through the link"

  TEST "lld: enforce judges the file that replaced the symbolic link, exits 86, removes it, leaves the old target"
  echo old >t.so && ln -s t.so out.so
  expect_equal "$(link enforce lld out.so -lgomp)" 86 "enforce status"
  expect_missing out.so
  expect_equal "$(cat t.so)" old "the old target, which the link did not write"
  expect_contains "$(cat err.txt)" "linkguard: error: out.so: libgomp.so.1 is still a dependency"
  expect_contains "$(cat err.txt)" "linkguard: error: removed out.so because it broke its contract"
  expect_not_contains "$(cat err.txt)" "not verified"

  TEST "lld: verify warns about the replaced link's file and keeps it"
  echo old >t.so && ln -s t.so out.so
  expect_equal "$(link verify lld out.so -lgomp)" 0 "verify status"
  expect_equal "$(kind out.so)" file
  expect_contains "$(cat err.txt)" "linkguard: warning: out.so: libgomp.so.1 is still a dependency"

  TEST "bfd: enforce judges the target written through a dangling link, removes that target, keeps the link"
  ln -s t.so out.so
  expect_equal "$(link enforce bfd out.so -lgomp)" 86 "enforce status"
  expect_missing t.so
  expect_equal "$(kind out.so)" symlink "the symbolic link the link did not write"
  expect_contains "$(cat err.txt)" "out.so (-> $PWD/t.so): libgomp.so.1 is still a dependency"
  expect_contains "$(cat err.txt)" "removed $PWD/t.so (the file the link wrote through the symbolic link out.so, which stays)"

  TEST "bfd: a link through a dangling link that holds passes, and says so in the log"
  ln -s t.so out.so
  LINKGUARD_LOG=info LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" -fuse-ld=bfd -shared model.o -o out.so 2>err.txt ||
    test_failed "clean link: $(cat err.txt)"
  expect_equal "$(kind out.so) $(kind t.so)" "symlink file"
  expect_contains "$(cat err.txt)" "out.so (-> $PWD/t.so): contract holds"

  TEST "a symbolic link whose target the link did not write: not verified, nothing removed"
  cp model.o keep.so && ln -s keep.so out.so
  # -Wl,--version: the linker prints its version and writes nothing.
  expect_equal "$(link enforce bfd out.so -lgomp -Wl,--version)" 0 "status"
  expect_same_file keep.so model.o
  expect_equal "$(kind out.so)" symlink
  expect_contains "$(cat err.txt)" "not verified: the link did not write $PWD/keep.so, the target of out.so"

  TEST "a dangling chain retargeted after the link: the file it now leads to is not judged nor removed"
  # out.so -> mid -> t.so (missing): GNU ld writes t.so through the chain.
  # If mid is pointed elsewhere before linkguard reads the result (here by
  # the step itself, after its link; in life by whoever controls mid, a
  # race), the chain leads to a file the link never wrote: victim.so, a
  # library that loads libgomp unused. It must be neither judged nor removed.
  "$CLANGXX" -shared model.o -o victim.so -lgomp || test_failed "victim.so"
  cp victim.so victim.orig
  cat >swapping-cc <<SH
#!/bin/sh
"$CLANGXX" "\$@" || exit
ln -sfn victim.so mid
SH
  chmod +x swapping-cc
  ln -s mid out.so && ln -s t.so mid
  st=$(LINKGUARD_MODE=enforce LINKGUARD_CXX=$PWD/swapping-cc lg_status "$WRAP" -fuse-ld=bfd -shared model.o -o out.so -lgomp 2>err.txt)
  expect_exists victim.so
  expect_same_file victim.so victim.orig
  expect_equal "$st" "exit 0" "status (not verified): $(cat err.txt)"
  expect_not_contains "$(cat err.txt)" "removed" "a removal"
  expect_contains "$(cat err.txt)" "not verified: out.so now leads to $PWD/victim.so, not to $PWD/t.so as before the link"
  # The control: the chain left alone, t.so is judged and removed.
  rm -f out.so mid t.so && ln -s mid out.so && ln -s t.so mid
  expect_equal "$(link enforce bfd out.so -lgomp)" 86 "enforce status through the chain"
  expect_missing t.so
  expect_exists victim.so

  TEST "explain says the symbolic link is decided after the link, and that it verifies"
  ln -s t.so out.so
  out=$(LINKGUARD_MODE=enforce "$LINKGUARD_BIN" explain -- "$CLANGXX" -shared model.o -o out.so -lgomp)
  expect_contains "$out" "action:    run, then reread the output and judge it"
  expect_contains "$out" "out.so is a symbolic link: judged is what the link leaves"
  expect_not_contains "$out" "not a regular file"

  TEST "a FIFO at -o: a link writes into it, so it is not verified (decided before, as after)"
  mkfifo pipe.so
  out=$(LINKGUARD_MODE=enforce "$LINKGUARD_BIN" explain -- "$CLANGXX" -shared model.o -o pipe.so)
  expect_contains "$out" "not verified: pipe.so is a pipe or FIFO: a link writes into it"
}
