//===- DyldRules.h - the load-time checks dyld refuses an image for -*- C++ -*-===//
//
// Since dyld-1284.13, dyld's JustInTimeLoader validates every image it maps
// from disk (and since dyld-1323.3 the main executable too) with
// mach_o::Header::valid (mach_o/UnsafeHeader.cpp from dyld-1376.6): a file
// that fails one check does not load ("duplicate LC_RPATH '@loader_path'").
// Many checks are gated on the SDK the image was built with (its
// LC_BUILD_VERSION / LC_VERSION_MIN_* sdk field, mapped to an "epoch" by
// mach_o/Platform.cpp) and the gates moved between dyld releases
// (mach_o/Policy.cpp). DyldRules.cpp holds those facts as one table, per
// release, with the dyld tags they were read from.
//
// A file is refused when ANY listed dyld release would refuse it: a shipped
// binary meets every macOS its users run. These are per-file functions, so
// `check --portable` and a closure over a tree can both call them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"

#include <cstdint>
#include <string>
#include <vector>

namespace linkguard::contract {

/// One check dyld would fail the image on.
struct DyldRefusal {
  std::string Rule;     // "duplicate-rpath", ...
  std::string Function; // "validSemanticsRPath"
  /// dyld's own message for this file ("duplicate LC_RPATH '@loader_path'").
  std::string DyldMessage;
  /// Which releases refuse it and from which SDK on, for this file's
  /// platform ("dyld-1284.13..dyld-1286.10 from SDK 15.4; ...").
  std::string Releases;
  /// The SDK the gates were compared with ("macOS SDK 15.4", "no SDK").
  std::string FileSDK;
  /// Bit I set: dyldReleaseRanges()[I] refuses it (Releases, as bits).
  unsigned ReleaseMask = 0;
};

/// The dyld releases the table knows, in order ("dyld-1284.13..dyld-1286.10",
/// ...): the bits of DyldRefusal::ReleaseMask. dyldRefusals lists a slice's
/// refusals in the order dyld's loader checks them, so a release's first
/// refusal is the message that release prints.
std::vector<std::string> dyldReleaseRanges();

/// dyld's epoch encoding (mach_o/Platform.h): year * 10, + 5 for the fall
/// release; 0 before any epoch.
using DyldEpoch = uint32_t;

/// The epoch dyld assigns to Version (packed xxxx.yy.zz) of Platform
/// (PLATFORM_* value); 0 for a platform dyld has no versions for.
DyldEpoch dyldEpoch(uint32_t Platform, uint32_t Version);

/// The platform commands as macOS's dyld reads them
/// (Header::forEachPlatformLoadCommand): an LC_VERSION_MIN_MACOSX without an
/// sdk has SDK = minOS, an Intel LC_VERSION_MIN_IPHONEOS/TVOS/WATCHOS is a
/// simulator, and an image with none is taken as macOS 10.5 (x86_64, i386)
/// or 11.0 (arm64); empty for any other CPU.
std::vector<objlib::MachOPlatform>
dyldPlatforms(const objlib::MachOLoadFacts &F);

/// The platform and SDK dyld's Policy would use for the image: macOS's when
/// a zippered image has two. Platform 0 when there is none.
objlib::MachOPlatform dyldPlatform(const objlib::MachOLoadFacts &F);

/// Every check of the table that some listed dyld release fails the slice
/// on. Empty for a slice without Mach-O facts (ELF).
std::vector<DyldRefusal> dyldRefusals(const objlib::Slice &S);

/// The table, for docs and tests: one line per rule and release.
struct DyldRuleRow {
  const char *Rule;
  const char *Function;
  const char *Wording; // dyld's format string
  std::string Releases; // "dyld-1284.13..dyld-1286.10"
  DyldEpoch NonExecutable; // gate for dylibs and bundles
  DyldEpoch Executable;    // gate for the main executable
};
std::vector<DyldRuleRow> dyldRuleTable();

/// "always", "never", "fall2024", "spring2025", ...
std::string dyldEpochName(DyldEpoch E);

} // namespace linkguard::contract
