//===- PlatformPolicy.h - what a shipment promises the platforms it installs on -*- C++ -*-===//
//
// A wheel's file name promises where pip installs it (PEP 425 / 427 platform
// tags), and a build its deployment target; a binary that asks for more does
// not load there. Under `check --portable`, rule `platform`:
//   macOS: every slice's minimum macOS (LC_BUILD_VERSION's minos, or
//     LC_VERSION_MIN_MACOSX) is at most the tag's version
//     (`macosx_11_0_arm64`), or --macos-min / MACOSX_DEPLOYMENT_TARGET; and
//     every image has the slices of the tag's architectures (arm64, x86_64,
//     universal2 = both, intel = i386 + x86_64), as delocate's
//     --require-archs asks;
//   Linux: a manylinux / musllinux tag against the symbol versions its ELF
//     files need (.gnu.version_r: GLIBC_2.x, GLIBCXX_, CXXABI_, GCC_, ...)
//     and the libraries they load, by auditwheel's policy files
//     (data/auditwheel/, compiled in as contract/LinuxPolicies.inc): a
//     version the policy does not list, or a library it does not promise
//     that the wheel does not ship, is a violation. A tag auditwheel's table
//     does not know is undecided.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::contract {

struct PlatformTarget {
  /// One macOS promise: a slice of Arch whose minimum is at most MinOS
  /// (packed xxxx.yy.zz, as Mach-O stores it). Required: each image must
  /// have that slice (a wheel tag); otherwise it bounds any slice of Arch
  /// ("" = every architecture: --macos-min).
  struct MacOSPromise {
    std::string Arch;
    uint32_t MinOS = 0;
    bool Required = false;
    std::string Source; // "the wheel tag macosx_11_0_arm64", "--macos-min 11.0"
  };
  std::vector<MacOSPromise> Mac;
  /// A manylinux / musllinux promise: the policy's name (manylinux_2_17)
  /// and the tag's architecture as auditwheel names it (x86_64, aarch64,
  /// i686, armv7l, ...).
  struct LinuxPromise {
    std::string Policy, Arch, Source;
  };
  std::vector<LinuxPromise> Linux;
  /// Platform tags that cannot be judged (a manylinux version auditwheel's
  /// table does not know, a macOS architecture word not known here): each
  /// is an unknown finding, never "holds".
  std::vector<std::string> Unknown;
  bool empty() const { return Mac.empty() && Linux.empty() && Unknown.empty(); }
};

/// "11.0", "10.9", "14.2.1" -> packed; nullopt if not a version.
std::optional<uint32_t> parseMacOSVersion(llvm::StringRef V);
/// Packed -> "11.0", "10.15.4".
std::string formatMacOSVersion(uint32_t V);

/// The platform tags of a wheel file name (NAME-VER[-BUILD]-PY-ABI-PLAT.whl,
/// PLAT possibly a '.'-separated set): nullopt when FileName (a path's last
/// component is taken) is not a wheel's name. A pure wheel ("any") promises
/// nothing: an empty target.
std::optional<PlatformTarget> wheelTarget(llvm::StringRef FileName);

/// Whether auditwheel's table (LinuxPolicies.inc) knows Policy for Arch.
bool knownLinuxPolicy(llvm::StringRef Policy, llvm::StringRef Arch);

/// Judges one image against T. Shipped says whether one of its
/// dependencies (a DT_NEEDED name) resolves to a file the shipment holds.
void judgePlatform(const objlib::BinaryInfo &Binary, const PlatformTarget &T,
                   llvm::function_ref<bool(llvm::StringRef Dependency)> Shipped, Verdict &V);

} // namespace linkguard::contract
