//===- SelfPath.cpp -------------------------------------------------------===//
#include "driver/SelfPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <climits>
#include <sys/stat.h>
#include <unistd.h>

namespace linkguard::driver {

std::string selfPath() {
#if defined(__linux__)
  // The kernel's link is already canonical: the path of the file that was
  // executed, every symbolic link resolved (proc(5)). One readlink, where
  // getMainExecutable reads it and then walks it again with realpath.
  // A binary deleted or replaced since it started reads "PATH (deleted)":
  // no file answers to that name, and "" says that, as realpath failing did.
  char Buf[PATH_MAX];
  ssize_t N = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N > 0) {
    std::string Exe(Buf, static_cast<size_t>(N));
    struct stat St;
    return ::stat(Exe.c_str(), &St) == 0 ? Exe : std::string();
  }
#endif
  // No /proc (a chroot), or another system: getMainExecutable reads the
  // platform's own answer (_NSGetExecutablePath on macOS); the address
  // argument only matters on platforms without one.
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Exe, Real))
    return std::string(Real);
  return Exe;
}

} // namespace linkguard::driver
