//===- HostSearch.h - where this host keeps compilers beyond PATH -*- C++
//-*-===//
//
// The last step of compiler resolution (docs/compiler-resolution.md) looks
// for clang++ on PATH, then in the host's usual compiler directories. On
// macOS those are Homebrew's (/opt/homebrew/bin on Apple silicon,
// /usr/local/bin on Intel): a process started by launchd, an IDE or a GUI
// app gets PATH=/usr/bin:/bin:/usr/sbin:/sbin, without them. Data only: one
// list per host, nothing probed or run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace linkguard::driver {

/// The directories searched after PATH on this host (empty off macOS).
const std::vector<std::string> &hostCompilerDirs();

/// The search path for the fallback lookup: PathVar (a default when PATH is
/// unset), then each of Extra that PATH does not already hold, in order.
std::string fallbackSearchPath(const std::optional<std::string> &PathVar,
                               const std::vector<std::string> &Extra);

} // namespace linkguard::driver
