# Differential test of flags::classify against clang itself.
#
# For every command line of tests/data/classify_corpus.txt, "classify() says
# link" must equal "clang++-19 -### shows a linker job". clang -### builds the
# jobs without running them (tens of milliseconds a line). A line that
# contains -### itself, or that clang rejects ("clang++: error: ..."), counts
# as non-link: nothing would be linked. On the classifier side a link with
# UnknownArgs also counts as non-link: clang rejects unknown options, and the
# rules decline on them.
#
# Uses the test-only tests/tools/classify_cli (LINKGUARD_CLASSIFY_CLI).

: "${LINKGUARD_CLASSIFY_CLI:=${LINKGUARD_BUILD_DIR:-}/tests/classify_cli}"
CORPUS=$LINKGUARD_SOURCE_DIR/tests/data/classify_corpus.txt

SUITE_classify_differential_PROBE() {
  if [ ! -x "$CLANGXX" ]; then
    echo "$CLANGXX not found (LLVM 19 is needed for the reference -###)"
  elif [ ! -x "$LINKGUARD_CLASSIFY_CLI" ]; then
    echo "classify_cli not built (ninja classify_cli): $LINKGUARD_CLASSIFY_CLI"
  elif [ ! -f "$CORPUS" ]; then
    echo "corpus missing: $CORPUS"
  fi
}

# clang_links ARGS...: 0 when clang++ -### would run a linker for ARGS.
clang_links() {
  local err
  err=$("$CLANGXX" -### "$@" 2>&1 </dev/null)
  if grep -q '^clang[^:]*: error:' <<<"$err"; then
    return 1
  fi
  # The linker job: ld, ld64, ld.lld, ld64.lld, ld.bfd, ld.gold, quoted
  # first word of a job line, with or without a directory.
  grep -Eq '^ "([^"]*/)?([A-Za-z0-9_.]+-)*(ld|ld64|ld\.lld|ld64\.lld|ld\.bfd|ld\.gold|lld)"' <<<"$err"
}

# make_inputs ARGS...: creates every non-option token that looks like a
# file (has a '.' or '/'), so clang's input-existence check passes.
make_inputs() {
  local t
  for t in "$@"; do
    case $t in -* | @*) continue ;; esac
    case $t in *.* | */*) ;; *) continue ;; esac
    [ -d "$t" ] && continue
    mkdir -p "$(dirname -- "$t")" && : >"$t" 2>/dev/null
  done
}

# rebase ARGS...: sets REBASED to ARGS with absolute paths moved under $PWD.
rebase() {
  REBASED=()
  local t
  for t in "$@"; do
    case $t in /*) REBASED+=("$PWD$t") ;; *) REBASED+=("$t") ;; esac
  done
}

SUITE_classify_differential() {
  TEST "the corpus is large enough"
  local n
  n=$(grep -Evc '^(#|%|[[:space:]]*$)' "$CORPUS")
  [ "$n" -ge 150 ] || test_failed "corpus has $n command lines, want >= 150"

  TEST "every corpus line: classify link == clang -### link"
  local host=elf line lineno=0 checked=0 mismatches=0 report="" links=0
  local ours theirs out has_target t
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case $line in
      '' | '#'*) continue ;;
      '%host '*) host=${line#%host } ; continue ;;
      '%rsp '*)
        line=${line#%rsp }
        local name=${line%% *} text=""
        [ "$name" != "$line" ] && text=${line#* }
        printf '%s\n' "$text" >"$name"
        eval "set -- $text"
        make_inputs "$@"
        continue ;;
    esac
    eval "set -- $line"
    shift # argv[0]
    rebase "$@"
    set -- "${REBASED[@]}"
    make_inputs "$@"

    out=$("$LINKGUARD_CLASSIFY_CLI" --host="$host" --details -- "$@" 2>&1)
    ours=non-link
    case $out in link*) [[ $out == *unknown=* ]] || ours=link ;; esac

    has_target=no
    for t in "$@"; do
      case $t in -target | --target=*) has_target=yes ;; esac
    done
    theirs=non-link
    local ref=("$@")
    if [ "$host" = macho ] && [ "$has_target" = no ]; then
      ref=(-target arm64-apple-macos11 "$@")
    fi
    if [[ " $line " != *" -### "* ]] && clang_links "${ref[@]}"; then
      theirs=link
    fi
    checked=$((checked + 1))
    [ "$theirs" = link ] && links=$((links + 1))
    if [ "$ours" != "$theirs" ]; then
      mismatches=$((mismatches + 1))
      report+="  line $lineno: classify=$ours ($out) clang=$theirs: $line"$'\n'
    fi
  done <"$CORPUS"
  echo "  $checked command lines compared ($links link per clang," \
       "$((checked - links)) not), $mismatches disagreements"
  # Both answers must be well represented, or agreement proves little.
  [ "$links" -ge 50 ] && [ $((checked - links)) -ge 50 ] ||
    test_failed "corpus is lopsided: $links of $checked lines link"
  [ "$mismatches" -eq 0 ] || test_failed $'disagreements with clang -###:\n'"$report"

  TEST "an @file that is an input and does not exist is clang's error, not linkguard's"
  out=$("$LINKGUARD_CLASSIFY_CLI" -- a.o @missing.rsp -o a)
  expect_equal "$out" $'link\tunknown=1' "classify of a.o @missing.rsp"
  # ...while an @value of an option is left alone, as clang does.
  out=$("$LINKGUARD_CLASSIFY_CLI" -- -dynamiclib a.o -install_name @rpath/a.dylib -o a.dylib)
  expect_equal "$out" link "classify of -install_name @rpath/..."
}
