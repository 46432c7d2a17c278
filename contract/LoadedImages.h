//===- LoadedImages.h - judge what a process really mapped -------*- C++
//-*-===//
//
// `linkguard try-load` loads a library in a clean process and lists every
// image mapped there. The same contract options as `check` apply to that
// list: --forbid P (no mapped image may match) and --require P (some image
// must). The load commands say what a library asks for; this says what a
// process got, after every search path, cache and symbolic link.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"

#include <string>
#include <vector>

namespace linkguard::contract {

/// One image mapped in a process: the path the loader opened it by, and
/// the same path with symbolic links resolved.
struct LoadedImage {
  std::string Path;
  std::string RealPath;
  /// Other names of the same file (another path the process mapped it
  /// under, its SONAME): a pattern matches them too, and the image is
  /// still one finding.
  std::vector<std::string> OtherNames;
  /// The image whose dependency brought it in, when known (try-load).
  std::string Via;
  /// The runtime entry points it defines (libnames::runtimeMarkers), read
  /// from the mapped file: a family pattern (--forbid openmp) matches an
  /// image that defines one of its family's, whatever it is called.
  std::vector<std::string> Defines;
  /// Why Defines could not be read (a damaged export trie, an unreadable
  /// .gnu.version): a family pattern its names do not match is then
  /// unknown for it, never "not a runtime".
  std::string DefinesProblem;
};

/// Judges Images against Spec.Forbid and Spec.Require; a pattern matches an
/// image when it matches its path, its real path or one of its other names
/// (whole name or file name), or when it names a family whose runtime
/// markers the image defines (Defines): one finding per image and pattern. The rest
/// of Spec does not apply to a process.
/// --require P: some image matches, by its names or (a family) by what it
/// defines; when none does and an image's exports cannot be read, whether
/// one is P's runtime is unknown (a finding of that kind), never a
/// violation.
Verdict judgeLoadedImages(const std::vector<LoadedImage> &Images,
                          const ContractSpec &Spec);

/// Whether P names a family whose runtimes are known by what they define
/// (libnames::runtimeMarkers: openmp): such a pattern needs each image's
/// Defines.
bool judgedByExports(const Pattern &P);

} // namespace linkguard::contract
