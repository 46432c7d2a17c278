//===- SelfPath.cpp -------------------------------------------------------===//
#include "driver/SelfPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

namespace linkguard::driver {

std::string selfPath() {
  // getMainExecutable reads /proc/self/exe (or the macOS equivalent); the
  // address argument only matters on platforms without either.
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Exe, Real))
    return std::string(Real);
  return Exe;
}

} // namespace linkguard::driver
