# The rules-file cases that need root: a file or directory owned by someone
# else (chown to nobody), and a filesystem boundary (a tmpfs mounted inside
# the test directory). Skipped, with the reason, where that is not possible.

SUITE_trust_root_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not found"; return; }
  [ "$(id -u)" -eq 0 ] || { echo "needs root (chown to another user, mount)"; return; }
  local d
  d=$(mktemp -d)
  if ! mount -t tmpfs linkguard-probe "$d" 2>/dev/null; then
    rmdir "$d"
    echo "cannot mount a tmpfs here (no CAP_SYS_ADMIN)"
    return
  fi
  umount "$d"
  rmdir "$d"
}

SUITE_trust_root_SETUP() {
  LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  export LINKGUARD_CXX=$CLANGXX LINKGUARD_LOG=warn
  evil_linker_fixture
}

SUITE_trust_root() {
  TEST "a linkguard.toml owned by someone else is ignored, with one warning"
  mkdir -p proj
  printf '%s' "$EVIL_RULE" >proj/linkguard.toml
  chown 65534:65534 proj/linkguard.toml
  (cd proj && "$LGXX" ../m.o -o m 2>"$OLDPWD/err")
  expect_equal $? 0 "link status"
  expect_missing pwned
  expect_equal "$(cat err)" "linkguard: warning: ignoring rules file $PWD/proj/linkguard.toml: it is owned by uid 65534, not by you (uid 0) or root (set LINKGUARD_CONFIG=$PWD/proj/linkguard.toml to use it anyway)"

  TEST "a linkguard.toml in someone else's directory is ignored"
  mkdir -p theirs/build
  printf '%s' "$EVIL_RULE" >theirs/linkguard.toml
  chown 65534:65534 theirs
  (cd theirs/build && "$LGXX" ../../m.o -o m 2>"$OLDPWD/err")
  expect_missing pwned
  expect_contains "$(cat err)" "ignoring rules file $PWD/theirs/linkguard.toml: its directory $PWD/theirs is owned by uid 65534"

  TEST "a link to someone else's file is judged by the file"
  mkdir -p proj elsewhere
  printf '%s' "$EVIL_RULE" >elsewhere/rules.toml
  chown 65534:65534 elsewhere/rules.toml
  ln -s "$PWD/elsewhere/rules.toml" proj/linkguard.toml
  (cd proj && "$LGXX" ../m.o -o m 2>"$OLDPWD/err")
  expect_missing pwned
  expect_contains "$(cat err)" "ignoring rules file $PWD/proj/linkguard.toml: it is owned by uid 65534"

  TEST "the walk stops at a filesystem boundary"
  printf '%s' "$EVIL_RULE" >linkguard.toml.off
  mkdir -p outer/mnt
  mv linkguard.toml.off outer/linkguard.toml
  mount -t tmpfs linkguard-test outer/mnt || test_failed "mount"
  mkdir -p outer/mnt/proj
  (cd outer/mnt/proj && "$LGXX" "$OLDPWD/m.o" -o m 2>"$OLDPWD/err")
  st=$?
  out=$(cd outer/mnt/proj && "$LINKGUARD_BIN" explain -- clang++ m.o -o m)
  umount outer/mnt
  expect_equal "$st" 0 "link status"
  expect_missing pwned
  expect_equal "$(cat err)" "" "stderr (the file beyond the boundary is not even seen)"
  expect_contains "$out" "rules file: (none)"
  # Control: on the same filesystem the file is found (and refused, 78).
  mkdir -p outer/same/proj
  (cd outer/same/proj && "$LGXX" "$OLDPWD/m.o" -o m 2>/dev/null)
  expect_equal $? 78 "link status below the file, same filesystem"
}
