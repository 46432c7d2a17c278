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
#include "driver/Config.h"

#include <string>

namespace linkguard::driver {

enum class FrontCacheKind { None, Ccache, Sccache };

struct FrontCache {
  FrontCacheKind Kind = FrontCacheKind::None;
  /// True when the parent process is the cache; false when only ccache's
  /// environment shows it (a link ccache exec()ed, so no parent to see).
  bool FromParent = false;
};

/// The cache whose compiler this process is: the parent process's
/// executable is ccache or sccache (/proc/PPID/exe, proc_pidpath on macOS),
/// or - on a link step, which ccache runs by exec() - CCACHE_DISABLE is set,
/// as ccache sets it for every command it runs.
FrontCache detectFrontCache(const Config &Cfg, bool IsLink);

/// The warning for Compiler run behind Cache, given the compiler recorded
/// last time (empty: none recorded). Empty when there is nothing to say:
/// the same compiler as recorded, or ccache keys on the compiler's own
/// output (CCACHE_COMPILERCHECK runs %compiler%).
std::string frontCacheWarning(FrontCacheKind Cache, const Config &Cfg,
                              const std::string &Recorded,
                              const std::string &Compiler);

/// Detects a cache in front and, when the compiler behind linkguard is new
/// to that cache, warns once: on ccache's UNCACHED_ERR_FD (errors ccache
/// does not store with the object, distcc's convention) or, on a link step,
/// on stderr. A compile step without such a channel (sccache's server)
/// neither warns nor records: its stderr would be cached and replayed.
/// The record lives in $XDG_STATE_HOME/linkguard (~/.local/state), one file
/// per cache and linkguard binary, read and written under flock(2).
void warnIfCacheInFront(const CompilerCommand &Compiler, const Config &Cfg,
                        const std::string &SelfPath, bool IsLink);

} // namespace linkguard::driver
