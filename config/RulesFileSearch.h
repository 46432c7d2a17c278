//===- RulesFileSearch.h - which linkguard.toml to trust -------*- C++ -*-===//
//
// A rules file found by walking up from the working directory is input from
// whoever owns the directory it sits in, so linkguard takes git's
// safe.directory view (git/git setup.c, ensure_valid_ownership; the
// discovery stops at a filesystem boundary as git's does without
// GIT_DISCOVERY_ACROSS_FILESYSTEM):
//
//  1. LINKGUARD_CONFIG names the file explicitly. The user trusts it, so its
//     owner is not checked; it must still be a regular file of at most
//     MaxRulesFileBytes.
//  2. Otherwise the first linkguard.toml in the working directory or a
//     parent (the project). The walk goes up through the real directories
//     (openat(dir, "..")), stops after the user's home, before a directory
//     on another filesystem, and at /. The first linkguard.toml it meets
//     ends the walk, used or ignored.
//  3. Otherwise $XDG_CONFIG_HOME/linkguard/linkguard.toml, $XDG_CONFIG_HOME
//     defaulting to ~/.config (the user's own file).
//
// A found file (2, 3) is ignored, with the reason, when its directory or the
// file (the opened descriptor, after symbolic links) is owned by someone
// other than the user or root, or is writable by everyone, or by a group
// other than the owner's private one (gid == uid, as adduser creates them;
// OpenSSH's Debian patch accepts the same). So a linkguard.toml in /tmp,
// /var/tmp or any sticky or world-writable directory is never read. A file
// that is trusted but unusable -- not readable, too large -- is the user's
// own fault and is reported as an error instead (Error).
//
// The search opens nothing in a directory but linkguard.toml, costs an
// fstatat, an fstat and an openat("..") per directory, and reads nothing
// when there is no file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::config {

inline constexpr const char *RulesFileName = "linkguard.toml";
/// A rules file is a few hundred bytes; anything past 1 MiB is not one.
inline constexpr size_t MaxRulesFileBytes = size_t{1} << 20;

enum class RulesFileOrigin { Explicit, Project, User, Last = User };
/// "LINKGUARD_CONFIG", "project", "user".
const char *rulesFileOriginName(RulesFileOrigin O);

struct RulesFileSearch {
  std::optional<std::string> Explicit; // LINKGUARD_CONFIG
  std::string WorkingDir;              // start of the project search
  std::optional<std::string> XdgConfigHome;
  std::optional<std::string> Home;
  unsigned User = 0; // the uid whose files are trusted
  size_t MaxBytes = MaxRulesFileBytes;
};

struct FoundRulesFile {
  std::string Path;
  std::string Directory;
  RulesFileOrigin Origin = RulesFileOrigin::Project;
  std::string Text;
  /// Set when the file is the one in force but cannot be used ("no such
  /// file", "larger than 1048576 bytes"); Text is empty then.
  std::optional<std::string> Error;
};

struct IgnoredRulesFile {
  std::string Path;
  std::string Reason; // "its directory /tmp is writable by everyone"
};

struct RulesFileLookup {
  std::optional<FoundRulesFile> File;
  std::vector<IgnoredRulesFile> Ignored;
};

/// The rules file in force, read, and the ones passed over.
RulesFileLookup findRulesFile(const RulesFileSearch &Where);

/// Why a file or directory with this stat may not supply rules for User
/// ("owned by uid 1001, not by you (uid 1000) or root", "writable by
/// everyone"), or nothing.
std::optional<std::string> untrustedBecause(const struct stat &St,
                                            unsigned User);

} // namespace linkguard::config
