# `linkguard inspect` on damaged and non-object inputs: the right exit code
# (66 unreadable, 65 malformed), exactly one "linkguard: error: FILE: ..."
# line per bad file, never a crash or a hang. The damaged files are
# generated: every truncation length of a compact yaml2obj dylib, the
# interesting truncation lengths of real cross-links (opcode and
# chained-fixup flavours, universal, ELF), and single fields patched to huge
# or out-of-range values. perl (Debian's essential perl-base) writes them, one
# process for thousands of files; the bulk runs go through one linkguard
# invocation with many files, a sample also file by file.

SUITE_inspect_malformed_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  command -v perl >/dev/null || { echo "perl not found"; return; }
  probe_chained_fixups
}

SUITE_inspect_malformed_SETUP() {
  write_sdk sdk
  cat >s.cpp <<'EOF'
extern "C" int omp_get_num_threads();
extern "C" int k() { return omp_get_num_threads(); }
EOF
}

# small_dylib OUT ARCH [FLAGS...]
small_dylib() {
  local out=$1 arch=$2
  shift 2
  # shellcheck disable=SC2046
  $CLANGXX $(macho_flags sdk "$arch") -shared -nostdlib++ s.cpp -o "$out" \
      -Lsdk/omp -lomp "$@" 2>/dev/null || test_failed "link of $out"
}

# truncations SRC DIR [HEAD TAIL]: DIR/t<N> = the first N bytes of SRC, for
# every N; with HEAD and TAIL, every N in the first HEAD and the last TAIL
# bytes (headers, load commands, __LINKEDIT) and every 61st in between, so
# page-aligned linker output does not write hundreds of MB of test data.
truncations() {
  mkdir -p "$2"
  perl -e 'local $/; open my $in, "<:raw", $ARGV[0] or die; my $d = <$in>;
           my ($len, $head, $tail) = (length($d), $ARGV[2], $ARGV[3]);
           for my $n (0 .. $len - 1) {
             next if $head >= 0 && $n >= $head && $n < $len - $tail && $n % 61;
             open my $o, ">:raw", "$ARGV[1]/t$n" or die; print $o substr($d, 0, $n); close $o }' \
    "$1" "$2" "${3:--1}" "${4:-0}"
}

# patch_lc SRC OUT CMD FIELD_OFFSET VALUE [WIDTH]: copies SRC to OUT with
# the 32-bit (or 64-bit when WIDTH=8) field at FIELD_OFFSET inside the first
# load command CMD (a number, e.g. 0xc for LC_LOAD_DYLIB) set to VALUE.
# CMD 0 patches the mach header itself.
patch_lc() {
  perl -e '
    my ($src, $out, $cmd, $field, $value, $width) = @ARGV;
    local $/; open my $in, "<:raw", $src or die; my $d = <$in>;
    my $at;
    if (hex($cmd) == 0) { $at = 0 }
    else {
      my ($ncmds) = unpack("V", substr($d, 16, 4));
      my $off = 32;
      for (1 .. $ncmds) {
        my ($c, $size) = unpack("VV", substr($d, $off, 8));
        if ($c == hex($cmd)) { $at = $off; last }
        $off += $size;
      }
      die "no load command $cmd\n" unless defined $at;
    }
    my $v = $value =~ /^0x/ ? hex($value) : $value;
    substr($d, $at + $field, $width // 4) =
        ($width // 4) == 8 ? pack("Q<", $v) : pack("V", $v);
    open my $o, ">:raw", $out or die; print $o $d;' "$@" || test_failed "patch_lc $*"
}

# chained_patch SRC OUT FIELD VALUE: a field of dyld_chained_fixups_header
# (0 fixups_version, 4 starts_offset, 8 imports_offset, 12 symbols_offset,
# 16 imports_count, 20 imports_format).
chained_patch() {
  perl -e '
    my ($src, $out, $field, $value) = @ARGV;
    local $/; open my $in, "<:raw", $src or die; my $d = <$in>;
    my ($ncmds) = unpack("V", substr($d, 16, 4));
    my ($off, $data) = (32);
    for (1 .. $ncmds) {
      my ($c, $size, $dataoff) = unpack("VVV", substr($d, $off, 12));
      if ($c == 0x80000034) { $data = $dataoff; last }
      $off += $size;
    }
    die "no LC_DYLD_CHAINED_FIXUPS\n" unless defined $data;
    substr($d, $data + $field, 4) = pack("V", $value =~ /^0x/ ? hex($value) : $value);
    open my $o, ">:raw", $out or die; print $o $d;' "$@" || test_failed "chained_patch $*"
}

# expect_one_error WANT_STATUS FILE: one invocation, one error line.
expect_one_error() {
  local want=$1 f=$2 status
  "$LINKGUARD_BIN" inspect "$f" >out.txt 2>err.txt
  status=$?
  [ "$status" -eq "$want" ] || test_failed "inspect $f: status $status, expected $want; stderr: $(cat err.txt)"
  [ "$(wc -l <err.txt)" -eq 1 ] || test_failed "inspect $f: expected one stderr line, got: $(cat err.txt)"
  grep -q "^linkguard: error: $f: ." err.txt || test_failed "inspect $f: bad error line: $(cat err.txt)"
  [ ! -s out.txt ] || test_failed "inspect $f printed to stdout: $(cat out.txt)"
}

# expect_batch_malformed DIR: every file in DIR is malformed; one process.
expect_batch_malformed() {
  local dir=$1 n status
  n=$(find "$dir" -type f | wc -l)
  find "$dir" -type f -print0 | sort -z | xargs -0 "$LINKGUARD_BIN" inspect >out.txt 2>err.txt
  status=$?
  # xargs reports 123 for any status 1-125 of the command, 125+ on a signal.
  [ "$status" -eq 123 ] || test_failed "batch over $dir: xargs status $status (a crash is 125 or more)"
  [ ! -s out.txt ] || test_failed "a damaged file in $dir was accepted: $(head -3 out.txt)"
  [ "$(wc -l <err.txt)" -eq "$n" ] || test_failed "$n files in $dir but $(wc -l <err.txt) stderr lines"
  local bad
  bad=$(grep -v "^linkguard: error: $dir/t[0-9]*: ." err.txt | head -3)
  [ -z "$bad" ] || test_failed "unexpected stderr lines: $bad"
  # A sample, file by file, for the exact status.
  local i=0 f
  for f in $(find "$dir" -type f | sort | awk 'NR % 401 == 1'); do
    expect_one_error 65 "$f"
    i=$((i + 1))
  done
  [ "$i" -gt 0 ] || test_failed "no sample in $dir"
}

SUITE_inspect_malformed() {
  TEST "not object files: missing, directory, text, empty, unreadable"
  expect_one_error 66 missing.dylib
  # A directory is a tree (issue 29); one with no Mach-O or ELF file in it
  # is said to be so, as check says, rather than listing nothing.
  mkdir adir
  expect_one_error 65 adir
  echo "hello, I am text" >text.txt
  expect_one_error 65 text.txt
  : >empty.dylib
  expect_one_error 65 empty.dylib
  if [ "$(id -u)" -ne 0 ]; then
    small_dylib locked.dylib arm64
    chmod 000 locked.dylib
    expect_one_error 66 locked.dylib
    chmod 644 locked.dylib
  else
    echo "  (running as root: the permission case cannot fail, skipped)"
  fi

  TEST "every truncation of a compact dylib (tests/yaml/compact.yaml)"
  "$LLVM_BIN/yaml2obj" "$LINKGUARD_SOURCE_DIR/tests/yaml/compact.yaml" -o compact.dylib \
    || test_failed yaml2obj
  truncations compact.dylib tc
  expect_batch_malformed tc

  TEST "truncations of an x86_64 opcode dylib (every length at both ends)"
  small_dylib sx.dylib x86_64
  truncations sx.dylib tx 4096 2048
  expect_batch_malformed tx

  TEST "truncations of an arm64 -fixup_chains dylib (every length at both ends)"
  small_dylib sa.dylib arm64 -Wl,-fixup_chains
  truncations sa.dylib ta 4096 2048
  expect_batch_malformed ta

  TEST "huge counts and out-of-range offsets in load commands"
  small_dylib b.dylib arm64
  small_dylib c.dylib arm64 -Wl,-fixup_chains
  # mach header: ncmds (16), sizeofcmds (20)
  patch_lc b.dylib ncmds.dylib 0 16 0xffffffff
  patch_lc b.dylib sizeofcmds.dylib 0 20 0xfffffff0
  # LC_SYMTAB (0x2): symoff 8, nsyms 12, stroff 16, strsize 20
  patch_lc b.dylib nsyms.dylib 0x2 12 0x7fffffff
  patch_lc b.dylib symoff.dylib 0x2 8 0xfffffff0
  patch_lc b.dylib stroff.dylib 0x2 16 0xfffffff0
  # LC_LOAD_DYLIB (0xc): cmdsize 4, name offset 8
  patch_lc b.dylib dylibname.dylib 0xc 8 0xffff
  patch_lc b.dylib dylibsize.dylib 0xc 4 0x7fffffff
  # LC_DYLD_INFO_ONLY (0x80000022): bind_off 16, bind_size 20, lazy_bind_off 40
  patch_lc b.dylib bindoff.dylib 0x80000022 16 0xfffffff0
  patch_lc b.dylib bindsize.dylib 0x80000022 20 0x7fffffff
  patch_lc b.dylib lazyoff.dylib 0x80000022 40 0xfffffff0
  # LC_DYLD_CHAINED_FIXUPS (0x80000034): dataoff 8, datasize 12
  patch_lc c.dylib fixupoff.dylib 0x80000034 8 0xfffffff0
  patch_lc c.dylib fixupsize.dylib 0x80000034 12 0x7fffffff
  # LC_SEGMENT_64 (0x19): nsects 64, fileoff 40 (64-bit)
  patch_lc b.dylib nsects.dylib 0x19 64 0x7fffffff
  patch_lc b.dylib segoff.dylib 0x19 40 0x7ffffffffff0 8
  local f
  for f in ncmds sizeofcmds nsyms symoff stroff dylibname dylibsize bindoff bindsize \
           lazyoff fixupoff fixupsize nsects segoff; do
    expect_one_error 65 $f.dylib
  done

  TEST "damage inside the chained-fixups payload: a warning, never a false 'not referenced'"
  small_dylib c.dylib arm64 -Wl,-fixup_chains
  local field value field_value out status
  for field_value in 16:0x7fffffff 8:0xfffffff0 12:0xfffffff0 0:7 20:9 4:0xfffffff0; do
    field=${field_value%%:*} value=${field_value#*:}
    chained_patch c.dylib "cf$field.dylib" "$field" "$value"
    out=$("$LINKGUARD_BIN" inspect --symbols "cf$field.dylib" 2>err.txt)
    status=$?
    case $status in
      0)
        grep -q "^linkguard: warning: cf$field.dylib: " err.txt \
          || test_failed "chained header field $field=$value: status 0 without a warning"
        expect_not_contains "$out" "referenced: no" "chained header field $field=$value"
        ;;
      65)
        [ "$(wc -l <err.txt)" -eq 1 ] || test_failed "field $field: $(cat err.txt)" ;;
      *) test_failed "chained header field $field=$value: status $status" ;;
    esac
  done

  TEST "universal headers: huge nfat_arch, slice past the end"
  small_dylib x.dylib x86_64
  small_dylib a.dylib arm64
  "$LLVM_BIN/llvm-lipo" -create x.dylib a.dylib -output fat.dylib || test_failed lipo
  # fat_header is big-endian: magic, nfat_arch; fat_arch[i] at 8 + 20*i:
  # cputype, cpusubtype, offset (+8), size (+12), align (+16).
  perl -e '
    local $/; open my $in, "<:raw", "fat.dylib" or die; my $d = <$in>;
    my %p = ("nfat" => [4, 0x7fffffff], "off" => [8 + 20 + 8, 0x7ffffff0],
             "size" => [8 + 12, 0x7ffffff0], "align" => [8 + 16, 40]);
    for my $k (keys %p) { my $c = $d; substr($c, $p{$k}[0], 4) = pack("N", $p{$k}[1]);
      open my $o, ">:raw", "fat_$k.dylib" or die; print $o $c; close $o }' \
    || test_failed "perl"
  for f in nfat off size align; do
    expect_one_error 65 fat_$f.dylib
  done
  truncations fat.dylib tf 4096 1024
  # The first 8 bytes of a fat file cannot be told from Java class files and
  # the like; libObject calls those "not an object": still 65.
  expect_batch_malformed tf

  TEST "ELF: truncations and patched header counts"
  if ! command -v cc >/dev/null; then
    echo "  (no host cc: skipped)"
  else
    echo 'int e(void) { return 1; }' >e.c
    $CLANG -shared -fPIC e.c -o libe.so 2>/dev/null || test_failed "host link"
    truncations libe.so te 4096 2048
    # Some truncations keep everything the reader needs (section headers are
    # optional for the dynamic section): those are accepted. The rest must
    # fail cleanly; no file may crash the batch.
    find te -type f -print0 | sort -z | xargs -0 "$LINKGUARD_BIN" inspect >out.txt 2>err.txt
    status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 123 ] || test_failed "ELF batch: xargs status $status"
    local bad
    bad=$(grep -v -e '^linkguard: error: te/t[0-9]*: .' -e '^linkguard: warning: te/t[0-9]*: .' err.txt | head -3)
    [ -z "$bad" ] || test_failed "unexpected stderr: $bad"
    # e_phnum (56, 16 bits) and e_shnum (60) huge, e_phoff (32) past the end.
    perl -e '
      local $/; open my $in, "<:raw", "libe.so" or die; my $d = <$in>;
      my %p = ("phnum" => [56, "v", 0xffff], "shnum" => [60, "v", 0xffff],
               "phoff" => [32, "Q<", 0x7ffffffffff0], "shoff" => [40, "Q<", 0x7ffffffffff0]);
      for my $k (keys %p) { my $c = $d; my ($at, $f, $v) = @{$p{$k}};
        substr($c, $at, length(pack($f, 0))) = pack($f, $v);
        open my $o, ">:raw", "elf_$k.so" or die; print $o $c; close $o }' || test_failed perl
    for f in phnum shnum phoff shoff; do
      "$LINKGUARD_BIN" inspect elf_$f.so >out.txt 2>err.txt
      status=$?
      case $status in
        0|65) ;;
        *) test_failed "elf_$f.so: status $status: $(cat err.txt)" ;;
      esac
      if [ $status -eq 65 ]; then
        [ "$(wc -l <err.txt)" -eq 1 ] || test_failed "elf_$f.so: $(cat err.txt)"
      fi
    done
  fi
}
