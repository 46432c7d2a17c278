# mps_model.bash DIR: the cross-linked demo model (scripts/demo's), for the
# wheel's tests. In DIR: sdk/, model/*.o, plain.dylib linked by clang++-19,
# guarded.dylib linked by `linkguard-clang++` as found on PATH (the
# installed wheel's), with LINKGUARD_CXX=clang++-19.
set -euo pipefail
dir=$1
: "${LINKGUARD_LLVM_BINDIR:=/usr/lib/llvm-19/bin}"
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$src/scripts/lib/macho_sdk.sh"
cxx=$LINKGUARD_LLVM_BINDIR/clang++
cd "$dir"
write_sdk sdk
write_aoti_model model
read -r -a MACHO <<<"$(macho_flags "$PWD/sdk")"
for tu in wrapper kernel consts; do
  "$cxx" "${MACHO[@]}" "model/model.$tu.cpp" "${AOTI_MPS_CFLAGS[@]}" -c -o "model/$tu.o" 2>/dev/null
done
LINK=(model/wrapper.o model/kernel.o model/consts.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}"
  -nostdlib++ -lomp -L"$PWD/sdk/omp")
"$cxx" "${LINK[@]}" -o plain.dylib 2>/dev/null
LINKGUARD_CXX=$cxx linkguard-clang++ "${LINK[@]}" -o guarded.dylib
