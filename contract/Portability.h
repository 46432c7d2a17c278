//===- Portability.h - will each dependency load on another machine? -*- C++ -*-===//
//
// `check --portable` asks, for every dependency of every slice, whether it is
//   (a) a system library: Mach-O under /usr/lib/ or /System/Library/; ELF the
//       glibc / libstdc++ / libgcc_s / ld-linux family, plus an allowlist;
//   (b) shipped with the binary: an @rpath/, @loader_path/ or
//       @executable_path/ name (ELF: a bare DT_NEEDED name found through
//       DT_RUNPATH or DT_RPATH with $ORIGIN) that resolves, through the
//       binary's own search paths and the application's directories, to a
//       file that exists under the bundle root; or
//   (c) declared application-provided (--provided).
// Anything else is non-portable. In particular an absolute path outside the
// system prefixes is non-portable even when the file exists on this machine:
// the machine that built a binary is the one place where its baked paths
// resolve, which is how a wrong dependency passes CI "for the wrong reason"
// (../shared/seed review). And an @rpath name proves nothing about shipping
// until it resolves to a shipped file.
//
// This is a pure function over BinaryInfo: the only contact with a file
// system is the FileProbe, which tests replace with a fake. Paths are
// compared lexically (after removing "." and ".."), so callers pass absolute
// paths; symlinks are not followed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/LoaderRules.h"
#include "contract/Pattern.h"
#include "objlib/BinaryInfo.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>
#include <vector>

namespace linkguard::contract {

/// True if a file (not a directory) exists at the absolute path.
using FileProbe = std::function<bool(const std::string &Path)>;

/// The real file system (llvm::sys::fs).
FileProbe realFileProbe();

struct PortabilityOptions {
  /// The root of what ships. Empty: the binary's own directory.
  /// @loader_path / $ORIGIN expand to the binary's directory (and
  /// @executable_path too when the binary is a main program), and a shipped
  /// dependency must resolve to a file under here.
  std::string BundleRoot;
  /// The application's library directories (--search): where the process
  /// that loads the binary looks for @rpath names (its own LC_RPATHs). A
  /// relative one is relative to the bundle root.
  std::vector<std::string> SearchDirs;
  /// Application-provided libraries (--provided). For an absolute name only
  /// a whole-name match counts.
  std::vector<Pattern> Provided;
  /// Extra system libraries (--system-list), same matching rule.
  std::vector<Pattern> SystemList;
  /// The main executable's directory (--executable), for @executable_path
  /// in a binary that is not a main program; empty: unknown, and a path
  /// that needs it is undecided, as in a tree (shipment/Closure.h).
  std::string ExecutableDir;
  /// Search directories tried for one binary's dependencies, in all: the
  /// tree's closure's bound (shipment::ClosureOptions::MaxEdges). Past it a
  /// dependency is unknown (92): search paths x names grows as the square
  /// of the file's size, and each try is a stat(2).
  size_t MaxProbes = LoaderSearchBound;
  /// Whether the file at a path under the bundle root Root is in it once
  /// its symbolic links are followed (empty: always, as in a zip, which
  /// ships no links). A plain file's check sets it: lib/x.so -> /opt/x.so
  /// ships a link to this machine's file, which the tree's closure also
  /// refuses ("a link out of the tree names nothing", shipment/Shipment.h).
  std::function<bool(const std::string &Path, const std::string &Root)> InsideRoot;
};

enum class Placement {
  System,      // (a)
  Shipped,     // (b)
  Provided,    // (c)
  NonPortable, // none of these: a violation
  Unknown,     // cannot be decided ($PLATFORM / $LIB in a search path, ...)
  // enumName (support/EnumNames.h) names each enumerator up to Last.
  Last = Unknown,
};
const char *placementName(Placement P); // "system", "shipped", ...

/// Where one dependency of one slice stands.
struct DependencyPlacement {
  std::string Slice;      // arch, always set
  std::string Dependency; // install name / DT_NEEDED, as stored
  objlib::DependencyKind Kind = objlib::DependencyKind::Load;
  Placement Where = Placement::NonPortable;
  std::string ResolvedPath; // the shipped file, or a file found elsewhere
  std::string Via;    // "LC_RPATH @loader_path/../lib", "--search lib", ...
  std::string Reason; // one sentence, why
};

/// Places every dependency of every slice of Binary, in load order.
std::vector<DependencyPlacement>
placeDependencies(const objlib::BinaryInfo &Binary,
                  const PortabilityOptions &Options, const FileProbe &Exists);

/// Under --portable, what a shipped library makes its users bake: a Mach-O
/// dylib whose LC_ID_DYLIB is an absolute path outside /usr/lib/ and
/// /System/Library/ (PyTorch's libomp: /opt/llvm-openmp/lib/libomp.dylib)
/// is copied into every binary linked against it, which then loads that
/// path. Returns the reason, or empty when the install name is fine (an
/// @rpath/, @loader_path/ or system name; not a dylib; ELF). A per-file
/// check: a closure over a tree calls it for each shipped library.
std::string installNameProblem(const objlib::Slice &S, objlib::Format Fmt);

/// The system allowlist file format: one pattern per line, '#' starts a
/// comment, blank lines ignored.
std::vector<Pattern> parseSystemList(llvm::StringRef Text);

} // namespace linkguard::contract
