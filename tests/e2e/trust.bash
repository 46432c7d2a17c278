# Configuration found on disk is input from whoever owns it (git's
# safe.directory view, config/RulesFileSearch.h), and what linkguard prints
# for a shell is data, not code:
#  - a linkguard.toml in a directory others can write is never read, and a
#    warning names it; the walk goes no further than the user's home;
#  - no rules file may add a flag that runs a program, loads code or reads
#    another configuration (exit 78 naming file, line and key);
#  - a broken rules file stops links only: probes, -E and -c run unchanged;
#  - a 3 GB sparse rules file costs nothing;
#  - `explain` names the rules file used, its directory, and what it
#    ignored and why.
# The cases that need another owner or another filesystem are in
# trust_root.bash; `linkguard env` is in env_eval.bash and env_fish.bash.

SUITE_trust_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not found"; return; }
  command -v python3 >/dev/null || echo "python3 not found"
}

SUITE_trust_SETUP() {
  LGXX=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  export LINKGUARD_CXX=$CLANGXX
  evil_linker_fixture
}

SUITE_trust() {
  TEST "a rules file in a directory others can write is ignored, with one warning"
  mkdir -p shared/me/build && chmod 1777 shared
  printf '%s' "$EVIL_RULE" >shared/linkguard.toml
  (cd shared/me/build && LINKGUARD_LOG=warn "$LGXX" ../../../m.o -o m 2>"$OLDPWD/err")
  expect_equal $? 0 "link status"
  expect_missing pwned
  expect_equal "$(grep -c 'ignoring rules file' err)" 1 "warnings"
  expect_contains "$(cat err)" "ignoring rules file $PWD/shared/linkguard.toml: its directory $PWD/shared is writable by everyone (set LINKGUARD_CONFIG=$PWD/shared/linkguard.toml to use it anyway)"

  TEST "[builtin] mps-aot = false in a world-writable parent does not turn the fix off"
  mkdir -p shared/me && chmod 0777 shared
  printf '[builtin]\nmps-aot = false\n' >shared/linkguard.toml
  out=$(cd shared/me && "$LINKGUARD_BIN" explain -- clang++ m.o -shared -o m.so)
  expect_contains "$out" "[yes] rule enabled: on by default"
  expect_not_contains "$out" "disabled by [builtin]"

  TEST "the user's own rules file may not add --ld-path: a link stops with 78"
  mkdir -p proj/build
  printf '%s' "$EVIL_RULE" >proj/linkguard.toml
  (cd proj/build && "$LGXX" ../../m.o -o m 2>"$OLDPWD/err")
  expect_equal $? 78 "link status"
  expect_missing pwned
  expect_equal "$(cat err)" "linkguard: error: $PWD/proj/linkguard.toml:4: 'rule[0].add.flags': '--ld-path=$PWD/evil.sh' makes the compiler run a program named by path; a rules file may not add it (rule 'evil')"
  # LINKGUARD_CONFIG is trusted as a location, not as to what it adds.
  LINKGUARD_CONFIG=$PWD/proj/linkguard.toml "$LGXX" m.o -o m 2>err
  expect_equal $? 78 "link status with LINKGUARD_CONFIG"
  expect_missing pwned

  TEST "a broken rules file: probes, -E and -c run unchanged, a link stops with 78"
  mkdir -p proj/build
  printf '[[rule]\nname = 1\n' >proj/linkguard.toml
  cd proj/build || test_failed "cd"
  "$LGXX" --version >version.out 2>err
  expect_equal $? 0 "--version status"
  expect_contains "$(cat version.out)" "clang version 19"
  expect_equal "$(cat err)" "" "--version stderr"
  "$LGXX" -E ../../m.cpp >pp.out 2>err
  expect_equal $? 0 "-E status"
  "$LGXX" -c ../../m.cpp -o m2.o 2>err
  expect_equal $? 0 "-c status"
  expect_exists m2.o
  "$LGXX" m2.o -o m 2>err
  expect_equal $? 78 "link status"
  expect_contains "$(cat err)" "linkguard: error: $(cd .. && pwd)/linkguard.toml:1: "
  expect_missing m
  cd ../.. || test_failed "cd"

  TEST "a 3 GB sparse rules file costs nothing and stops links only"
  mkdir -p proj
  truncate -s 3G proj/linkguard.toml
  # 1 GiB of address space: a whole read (or a map) of the file cannot fit.
  (cd proj && ulimit -v 1048576 && "$LGXX" -c ../m.cpp -o m3.o 2>"$OLDPWD/err")
  expect_equal $? 0 "-c status under ulimit -v"
  (cd proj && ulimit -v 1048576 && "$LGXX" m3.o -o m 2>"$OLDPWD/err")
  expect_equal $? 78 "link status"
  expect_equal "$(cat err)" "linkguard: error: $PWD/proj/linkguard.toml: larger than 1048576 bytes"

  TEST "explain names the rules file, its directory, and what it ignored"
  mkdir -p shared/me xdg/linkguard && chmod 1777 shared
  printf '%s' "$EVIL_RULE" >shared/linkguard.toml
  printf '[[rule]]\nname = "asn"\n[rule.add]\nflags = "-Wl,--as-needed"\n' \
    >xdg/linkguard/linkguard.toml
  out=$(cd shared/me && XDG_CONFIG_HOME=$OLDPWD/xdg "$LINKGUARD_BIN" explain -- clang++ m.o -o m)
  expect_contains "$out" "rules file: $PWD/xdg/linkguard/linkguard.toml (user, in $PWD/xdg/linkguard)"
  expect_contains "$out" "ignored:    $PWD/shared/linkguard.toml: its directory $PWD/shared is writable by everyone"
  out=$(cd shared/me && XDG_CONFIG_HOME=$OLDPWD/xdg "$LINKGUARD_BIN" explain --json -- clang++ m.o -o m)
  got=$(printf '%s' "$out" | python3 -c '
import json, sys
j = json.load(sys.stdin)
f = j["rulesFile"]
print(f["path"], f["directory"], f["origin"], f["error"])
for i in j["rulesFilesIgnored"]:
    print(i["path"], "|", i["reason"])')
  expect_equal "$got" "$PWD/xdg/linkguard/linkguard.toml $PWD/xdg/linkguard user None
$PWD/shared/linkguard.toml | its directory $PWD/shared is writable by everyone" "explain --json"
  # A broken one: explain of a link stops as the run does; of a compile it says why.
  printf 'x = \n' >xdg/linkguard/linkguard.toml
  (cd shared/me && XDG_CONFIG_HOME=$OLDPWD/xdg "$LINKGUARD_BIN" explain -- clang++ m.o -o m >/dev/null 2>&1)
  expect_equal $? 78 "explain of a link with a broken rules file"
  out=$(cd shared/me && XDG_CONFIG_HOME=$OLDPWD/xdg "$LINKGUARD_BIN" explain -- clang++ -c m.cpp)
  expect_contains "$out" "  not used: $PWD/xdg/linkguard/linkguard.toml:1: "
}
