#!/usr/bin/env bash
# scripts/lib/demo_show.sh LG_DIR: what scripts/demo shows, with the
# linkguard and linkguard-clang++ of LG_DIR (built): an AOTI-shaped MPS model
# linked with -lomp once by the compiler itself and once through
# linkguard-clang++, both dependency lists, explain's decision and the
# verdict. Exit 0 when the plain link keeps libomp and linkguard's drops it
# and keeps libSystem. Run by scripts/demo and by tests/e2e/demo.bash.
. "$(dirname "$0")/common.sh"
. "$LINKGUARD_ROOT/scripts/lib/macho_sdk.sh"
LG_DIR=$(cd "${1:?usage: demo_show.sh LG_DIR}" && pwd)
LG=$LG_DIR/linkguard
work=$(mktemp -d "${TMPDIR:-/tmp}/linkguard-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
write_sdk sdk
write_aoti_model model
if [ "$LINKGUARD_PLATFORM" = macos ]; then
  CXX_REAL=$(xcrun --find clang++)
  MACHO=(-arch "$(uname -m)")
  OTOOL=(xcrun otool -L)
else
  read -r -a MACHO <<<"$(macho_flags "$work/sdk")"
  CXX_REAL=$LLVM_BIN/clang++
  OTOOL=("$LLVM_BIN/llvm-otool" -L)
fi

# The compile steps go through linkguard too: it passes them through untouched.
# (clang warns that -shared/-undefined are unused on -c: cpp_builder passes
# them on every phase; those warnings go to compile.log.)
for tu in wrapper kernel consts; do
  CXX=$CXX_REAL "$LG_DIR/linkguard-clang++" "${MACHO[@]}" \
    "model/model.$tu.cpp" "${AOTI_MPS_CFLAGS[@]}" -c -o "model.$tu.o" 2>>compile.log
done
OBJS=(model.wrapper.o model.kernel.o model.consts.o)
LINK=("${OBJS[@]}" "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" -nostdlib++ -lomp -L"$work/sdk/omp")

mkdir -p plain guarded
"$CXX_REAL" "${LINK[@]}" -o plain/model.so
# The user's CXX is honoured: linkguard runs it, and still applies the fix.
CXX=$CXX_REAL "$LG_DIR/linkguard-clang++" "${LINK[@]}" -o guarded/model.so

echo
echo "== what linkguard decides for the link step (linkguard explain) =="
"$LG" explain -- "$CXX_REAL" "${LINK[@]}" -o guarded/model.so |
  sed -n '/^phase/p;/^rule/,/^action/p'
echo
echo "== plain clang++: load commands (linkguard inspect) =="
"$LG" inspect plain/model.so
echo
echo "== through linkguard-clang++: load commands =="
"$LG" inspect guarded/model.so
echo
echo "== cross-check with ${OTOOL[*]} =="
"${OTOOL[@]}" guarded/model.so
echo
echo "== verdict =="
omp_plain=$("$LG" inspect plain/model.so | grep -c 'libomp' || true)
omp_guarded=$("$LG" inspect guarded/model.so | grep -c 'libomp' || true)
sys_guarded=$("$LG" inspect guarded/model.so | grep -c 'libSystem.B.dylib' || true)
if [ "$omp_plain" -gt 0 ] && [ "$omp_guarded" -eq 0 ] && [ "$sys_guarded" -gt 0 ]; then
  echo "plain build:     depends on /opt/llvm-openmp/lib/libomp.dylib, which no symbol uses:"
  echo "                 dlopen fails on any Mac without that file (\"Library not loaded\")"
  echo "linkguard build: libomp dropped, libSystem kept - the contract holds"
else
  echo "unexpected result: plain libomp=$omp_plain guarded libomp=$omp_guarded libSystem=$sys_guarded" >&2
  exit 1
fi
