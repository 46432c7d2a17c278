//===- Pattern.cpp - match dependency names against groups and globs -----===//
#include "contract/Pattern.h"

#include "libnames/LibraryNames.h"

#include "llvm/Support/GlobPattern.h"

namespace linkguard::contract {

static bool isGroup(const std::string &Text) { return libnames::isGroupName(Text); }

static bool globMatch(const std::string &Text, const std::string &Name) {
  auto Glob = llvm::GlobPattern::create(Text);
  if (!Glob) {
    llvm::consumeError(Glob.takeError());
    return Text == Name;
  }
  return Glob->match(Name);
}

bool isBareWord(const std::string &Text) {
  return !Text.empty() && !isGroup(Text) &&
         Text.find_first_of("*?[]{}\\/") == std::string::npos;
}

bool Pattern::matches(const std::string &InstallName) const {
  if (isGroup(Text))
    return libnames::inGroup(Text, InstallName);
  // A bare word names a library by its stem as well: "libomp" is
  // libomp.dylib, libomp.5.dylib, libomp.so.5 (delocate's and -l's sense).
  return globMatch(Text, InstallName) ||
         globMatch(Text, libnames::fileNameOf(InstallName)) ||
         (isBareWord(Text) && libnames::namesLibrary(Text, InstallName));
}

bool Pattern::matchesWholeName(const std::string &InstallName) const {
  // The groups are families of file names, spelled anywhere, and a bare
  // word is a file name's stem: neither vouches for one absolute location
  // (a bare word holds no slash, so its glob never matches one).
  return !isGroup(Text) && globMatch(Text, InstallName);
}

llvm::Error validatePattern(const std::string &Text) {
  if (Text.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "empty pattern");
  if (isGroup(Text))
    return llvm::Error::success();
  auto Glob = llvm::GlobPattern::create(Text);
  if (!Glob)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "bad pattern '" + Text + "': " + llvm::toString(Glob.takeError()));
  return llvm::Error::success();
}

} // namespace linkguard::contract
