//===- FrontCache.h - a compiler cache in front of linkguard ------*- C++
//-*-===//
//
// CXX="ccache linkguard-clang++" (or sccache in front): the cache runs
// linkguard as its compiler and keys its results on linkguard's file, never
// on the compiler linkguard runs. When LINKGUARD_CXX changes, the cache
// serves the old compiler's objects. linkguard cannot change that key; it
// says so once, where the cache does not store what it says
// (docs/integration.md, "A cache in front of linkguard").
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/CompilerResolution.h"
#include "config/Config.h"

#include <optional>
#include <string>

namespace linkguard::driver {

/// Distcc is not a cache, but in front of linkguard it sends linkguard's
/// name to the farm, which refuses it (distccd runs only the compilers its
/// /usr/lib/distcc lists), and the job compiles here, silently: said once
/// per compiler, the same way.
enum class FrontCacheKind { None, Ccache, Sccache, Distcc };

struct FrontCache {
  FrontCacheKind Kind = FrontCacheKind::None;
  /// True when the parent process is the cache; false when only ccache's
  /// environment shows it (a link ccache exec()ed, so no parent to see).
  bool FromParent = false;
};

/// The cache whose compiler this process is: the parent process's
/// executable is ccache, sccache or distcc (/proc/PPID/exe, proc_pidpath on macOS),
/// or - on a link step, which ccache runs by exec() - CCACHE_DISABLE is set,
/// as ccache sets it for every command it runs.
FrontCache detectFrontCache(const config::Config &Cfg, bool IsLink);

/// The warning for Compiler run behind Cache, given the compiler recorded
/// last time (empty: none recorded). Empty when there is nothing to say:
/// the same compiler as recorded, or ccache keys on the compiler's own
/// output (CCACHE_COMPILERCHECK runs %compiler%).
std::string frontCacheWarning(FrontCacheKind Cache, const config::Config &Cfg,
                              const std::string &Recorded,
                              const std::string &Compiler);

/// linkguard's record, per cache and linkguard binary, of the compilers it
/// ran behind that cache (identities: words, then size and mtime).
struct FrontRecord {
  std::string Told;  // the compiler the user was last told about ("": none)
  std::string Other; // a compiler run since that differs from Told ("": none)
};

struct FrontDecision {
  std::string Text;                 // the warning to print, or ""
  std::optional<FrontRecord> Write; // the new record, if it changes
};

/// What to say and record for the compiler Now behind Cache, given the
/// record Old. CanPrint: this step has a channel the cache does not store
/// (sccache's compile steps have none: they only note a differing compiler
/// in Other, and the next link says it). FromParent: the cache was seen as
/// the parent process. Said once: on first sight, and once per change -
/// from Told to Now, or from Other when steps in between ran another
/// compiler.
FrontDecision decideFrontCache(FrontCacheKind Cache, const config::Config &Cfg,
                               const FrontRecord &Old, const std::string &Now,
                               bool CanPrint, bool FromParent);

/// Detects a cache in front and applies decideFrontCache: warnings go to
/// ccache's UNCACHED_ERR_FD (errors ccache does not store with the object,
/// distcc's convention) or, on a link step, to stderr. A compile step
/// without such a channel (sccache's server) prints nothing: its stderr
/// would be cached and replayed.
/// The record lives in $XDG_STATE_HOME/linkguard (~/.local/state), one file
/// per cache and linkguard binary, read and written under flock(2).
void warnIfCacheInFront(const CompilerCommand &Compiler, const config::Config &Cfg,
                        const std::string &SelfPath, bool IsLink);

/// ccache's UNCACHED_ERR_FD, when it names an open descriptor: what a
/// compile step writes there is shown once and never stored with the
/// object, so it is not replayed on later hits. -1 otherwise.
int uncachedErrFd(const config::Config &Cfg);
/// The same from the variable's value, read earlier (driver/Logging.cpp
/// keeps it until its fallback needs it).
int uncachedErrFd(llvm::StringRef Value);

} // namespace linkguard::driver
