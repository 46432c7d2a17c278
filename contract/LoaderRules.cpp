//===- LoaderRules.cpp - dyld's and ld.so's search rules, one table each ---===//
//
// dyld: apple-oss-distributions/dyld at dyld-1378, dyld/Loader.cpp:
//   Loader::forEachResolvedAtPathVar expands "@loader_path" (the image
//   holding the load command), then "@executable_path" (the main
//   executable), then "@rpath/": for each link of options.rpathStack, from
//   the loading image up through each image that loaded it to the main
//   executable, every LC_RPATH of that image, itself expanded with
//   expandAtLoaderPath against *that* image (an inherited
//   "@loader_path/../lib" is relative to the image holding the LC_RPATH)
//   or expandAtExecutablePath; an absolute LC_RPATH is used as it stands;
//   any other LC_RPATH is skipped ("no LC_RPATH's used. They may be
//   invalid, eg, not start with '@loader_path' or '@executable_path'").
//   Loader::getLoader: an "@rpath/" name that an already loaded image has
//   as its install name is that image ("already-loaded-by-rpath"); a weak
//   dylib (options.canBeMissing) that is not found clears the error. man dyld(1): DYLD_LIBRARY_PATH and friends.
//   Loader::expandAtLoaderPath / expandAtExecutablePath: the token must be
//   followed by '/' or end the path ("@loader_pathX" is no token). A load
//   path that starts with an '@' dyld does not expand is never tried
//   (forEachResolvedAtPathVar: "only call with origin path if it did not
//   start with @"); an LC_RPATH that is neither expanded nor absolute
//   ("@foo/lib", "lib") is tried relative to the process's current
//   directory, and only when @ paths are allowed: it ships nothing.
// ld.so: glibc 2.36, elf/dl-load.c _dl_map_object: a name that an object
//   already loaded has as its name or DT_SONAME is that object; else a
//   name without '/' is
//   searched in the DT_RPATH of the loading object and of each object that
//   loaded it up to the executable ("First try the DT_RPATH of the
//   dependent object that caused NAME to be loaded. Then that object's
//   dependent, and on up."), only when the loading object has no
//   DT_RUNPATH; then LD_LIBRARY_PATH; then the loading object's own
//   DT_RUNPATH; then ld.so.cache and the default directories.
//   elf/get-dynamic-info.h: an object with DT_RUNPATH has its DT_RPATH
//   ignored. elf/dl-load.c _dl_dst_substitute / is_dst: $ORIGIN and
//   ${ORIGIN} are the directory of the object whose path holds them, $LIB
//   and $PLATFORM depend on the machine. man ld.so(8) says the same.
//   is_dst: "$NAME" is a token only when no letter, digit or '_' follows
//   ("$ORIGINX" is not), "${NAME}" only with its '}'; _dl_dst_substitute
//   copies any other '$' as it stands ("No DST we recognize"), so
//   "$ORIGIN/$FOO" is the directory "$FOO" beside the object, a literal
//   name. A token is expanded anywhere in the path, not only at its start.
//   elf/dl-deps.c _dl_map_object_deps: a DT_NEEDED name has its tokens
//   expanded (expand_dst) before _dl_map_object looks for a '/'.
//
//===----------------------------------------------------------------------===//
#include "contract/LoaderRules.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <unistd.h>
#include <optional>

namespace linkguard::contract {

namespace {

constexpr const char *DyldSrc = "dyld-1378 dyld/Loader.cpp";
constexpr const char *GlibcSrc = "glibc elf/dl-load.c";

constexpr Token DyldTokens[] = {
    {"@loader_path", TokenMeaning::ImageDir, true,
     "dyld/Loader.cpp Loader::expandAtLoaderPath"},
    {"@executable_path", TokenMeaning::ExecutableDir, true,
     "dyld/Loader.cpp Loader::expandAtExecutablePath"},
};

constexpr SearchRow DyldSearch[] = {
    {SearchStep::Environment, "man dyld: DYLD_LIBRARY_PATH (the user's machine)"},
    {SearchStep::ChainSearchPaths,
     "dyld/Loader.cpp Loader::forEachResolvedAtPathVar: options.rpathStack, "
     "each LC_RPATH of the image, then of each loader up to the executable"},
    {SearchStep::ApplicationDirs, "--search: the application's LC_RPATHs"},
};

constexpr const char *DyldSystemPrefixes[] = {"/usr/lib/", "/System/Library/"};

constexpr Token LdSoTokens[] = {
    {"${ORIGIN}", TokenMeaning::ImageDir, false, "glibc elf/dl-load.c is_dst, _dl_dst_substitute"},
    {"$ORIGIN", TokenMeaning::ImageDir, true, "glibc elf/dl-load.c is_dst, _dl_dst_substitute"},
    {"${LIB}", TokenMeaning::MachineDependent, false, "glibc elf/dl-load.c is_dst, _dl_dst_substitute"},
    {"$LIB", TokenMeaning::MachineDependent, true, "glibc elf/dl-load.c is_dst, _dl_dst_substitute"},
    {"${PLATFORM}", TokenMeaning::MachineDependent, false, "glibc elf/dl-load.c is_dst, _dl_dst_substitute"},
    {"$PLATFORM", TokenMeaning::MachineDependent, true, "glibc elf/dl-load.c is_dst, _dl_dst_substitute"},
};

constexpr SearchRow LdSoSearch[] = {
    {SearchStep::ChainSearchPaths,
     "glibc elf/dl-load.c _dl_map_object: DT_RPATH of the loading object, "
     "then of its loaders up to the executable, unless it has DT_RUNPATH"},
    {SearchStep::Environment, "LD_LIBRARY_PATH (the user's machine)"},
    {SearchStep::OwnRunPath, "glibc elf/dl-load.c _dl_map_object: the loading object's DT_RUNPATH"},
    {SearchStep::ApplicationDirs, "--search: the application's directories"},
    {SearchStep::SystemDefault, "ld.so.cache, then /lib and /usr/lib (ld.so(8))"},
};

// The C/C++ runtime every Linux distribution installs (glibc, libstdc++,
// libgcc_s, the loader); libgomp is GCC's but OpenMP, not in it.
constexpr const char *LdSoSystemNames[] = {
    "libc.so.",     "libm.so.",   "libmvec.so.",         "libpthread.so.",
    "libdl.so.",    "librt.so.",  "libutil.so.",         "libresolv.so.",
    "libanl.so.",   "libnsl.so.", "libBrokenLocale.so.", "libstdc++.so.",
    "libgcc_s.so.", "ld64.so.",   "ld-linux"};
// The one absolute name of the runtime every system of a machine holds:
// its interpreter, at the path the machine's psABI fixes (x86-64 psABI
// 5.2.1 /lib64/ld-linux-x86-64.so.2; AArch64, i386, Arm, RISC-V, POWER and
// s390x likewise; musl's /lib/ld-musl-ARCH.so.1). A runtime library named
// absolutely is not: its directory is the distribution's (Debian
// /lib/x86_64-linux-gnu, Fedora /lib64, Arch /usr/lib), and ld.so opens
// the name as written (elf/dl-load.c _dl_map_object: no search).
constexpr InterpreterPath LdSoSystemPaths[] = {
    {"x86_64", "/lib64/ld-linux-x86-64.so.2"},       {"x86_64", "/lib/ld-musl-x86_64.so.1"},
    {"aarch64", "/lib/ld-linux-aarch64.so.1"},       {"aarch64", "/lib/ld-musl-aarch64.so.1"},
    {"i386", "/lib/ld-linux.so.2"},                  {"i386", "/lib/ld-musl-i386.so.1"},
    {"arm", "/lib/ld-linux-armhf.so.3"},             {"arm", "/lib/ld-linux.so.3"},
    {"riscv64", "/lib/ld-linux-riscv64-lp64d.so.1"}, {"powerpc64le", "/lib64/ld64.so.2"},
    {"s390x", "/lib/ld64.so.1"}};

const LoaderRules Dyld = {
    "dyld", DyldSrc, DyldTokens, "@rpath/", DyldSearch,
    /*RunPathStopsInheritance=*/false,
    "dyld/Loader.cpp Loader::getLoader: \"for @rpath paths, first check if already loaded "
    "as rpath\" (matchesPath: the loaded image's install name)",
    "dyld/Loader.cpp Loader::getLoader: a dylib that canBeMissing (LC_LOAD_WEAK_DYLIB) "
    "and is not found clears the error",
    DyldSystemPrefixes, {}, {}};

const LoaderRules LdSo = {
    "ld.so", GlibcSrc, LdSoTokens, "", LdSoSearch,
    /*RunPathStopsInheritance=*/true,
    "glibc elf/dl-load.c _dl_map_object: \"Look for this name among those already "
    "loaded\" (_dl_name_match_p, and the object's DT_SONAME)",
    "", {}, LdSoSystemNames, LdSoSystemPaths};

bool nameChar(char C) { return isalnum(static_cast<unsigned char>(C)) || C == '_'; }

} // namespace

const LoaderRules &rulesFor(objlib::Format F) {
  return F == objlib::Format::MachO ? Dyld : LdSo;
}

NameLookup lookupName(const LoaderRules &R, llvm::StringRef Name, llvm::StringRef ImageDir,
                      llvm::StringRef ExeDir) {
  NameLookup L;
  if (R.SearchPrefix[0] == '@') {
    if (Name.starts_with(R.SearchPrefix)) {
      L.Searched = true;
      L.Leaf = Name.drop_front(strlen(R.SearchPrefix)).str();
    } else {
      L.Path = expand(R, Name, ImageDir, ExeDir);
    }
    return L;
  }
  L.Path = expand(R, Name, ImageDir, ExeDir);
  // Only a name whose expansion holds no '/' is searched: a token that
  // expanded is a directory, so the result is a path; text that was no
  // token ("$FOO") stays as it was.
  if (L.Path.Undecidable.empty() && !L.Path.FromToken && !Name.contains('/')) {
    L.Searched = true;
    L.Leaf = Name.str();
  }
  return L;
}

std::string mainProgramPath(llvm::StringRef Abs) {
  std::string P = normalizePath(Abs);
  for (unsigned Hops = 0; Hops < 40; ++Hops) {
    char Buf[4096];
    ssize_t N = ::readlink(P.c_str(), Buf, sizeof(Buf));
    if (N <= 0 || size_t(N) >= sizeof(Buf))
      break; // not a link (or unreadable): the file itself
    llvm::StringRef Target(Buf, size_t(N));
    P = Target.starts_with("/")
            ? normalizePath(Target)
            : joinPath(llvm::sys::path::parent_path(P, llvm::sys::path::Style::posix), Target);
  }
  return P;
}

std::string rawJoin(llvm::StringRef Dir, llvm::StringRef Rest) {
  if (Dir.empty())
    return Rest.str();
  return Dir.rtrim('/').str() + "/" + Rest.ltrim('/').str();
}

namespace {
/// Whether remove_dots would leave P as it is: no "." or ".." component,
/// no empty one (a doubled or trailing slash), and no "//" root name. Most
/// paths a search builds are; telling costs a scan, not a copy and a split.
bool alreadyNormal(llvm::StringRef P) {
  if (P.starts_with("//") || (P.size() > 1 && P.ends_with("/")))
    return false;
  size_t I = P.starts_with("/") ? 1 : 0;
  while (I < P.size()) {
    size_t J = P.find('/', I);
    if (J == llvm::StringRef::npos)
      J = P.size();
    llvm::StringRef C = P.slice(I, J);
    if (C.empty() || C == "." || C == "..")
      return false;
    I = J + 1;
  }
  return true;
}
} // namespace

std::string normalizePath(llvm::StringRef P) {
  if (alreadyNormal(P))
    return P.str();
  llvm::SmallString<256> S(P);
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  return std::string(S.str());
}

std::string joinPath(llvm::StringRef Dir, llvm::StringRef Rest) {
  llvm::SmallString<256> S(Dir);
  llvm::sys::path::append(S, llvm::sys::path::Style::posix, Rest);
  return normalizePath(S);
}

bool isUnder(llvm::StringRef P, llvm::StringRef Root) {
  if (Root == "/")
    return P.starts_with("/");
  return P == Root || (P.starts_with(Root) && P.drop_front(Root.size()).starts_with("/"));
}

bool isSystemName(const LoaderRules &R, llvm::StringRef Name) {
  if (!R.SystemPrefixes.empty()) {
    std::string N = normalizePath(Name);
    for (const char *P : R.SystemPrefixes)
      if (llvm::StringRef(N).starts_with(P))
        return true;
    return false;
  }
  llvm::StringRef File = llvm::sys::path::filename(Name, llvm::sys::path::Style::posix);
  bool Family = false;
  for (const char *P : R.SystemNamePrefixes)
    Family |= File.starts_with(P) && File.contains(".so");
  if (!Family)
    return false;
  if (!Name.contains('/'))
    return true;
  return llvm::any_of(R.SystemPaths, [&](const InterpreterPath &I) { return Name == I.Path; });
}

Expansion expand(const LoaderRules &R, llvm::StringRef P, llvm::StringRef ImageDir,
                 llvm::StringRef ExeDir) {
  Expansion E;
  auto meaning = [&](const Token &T) -> std::optional<std::string> {
    switch (T.Meaning) {
    case TokenMeaning::ImageDir:
      return ImageDir.str();
    case TokenMeaning::ExecutableDir:
      if (ExeDir.empty()) {
        E.Undecidable = std::string(T.Spelling) +
                        " is unknown: no executable of the tree loads this image "
                        "(name one with --executable)";
        return std::nullopt;
      }
      return ExeDir.str();
    case TokenMeaning::MachineDependent:
      E.Undecidable = std::string(T.Spelling) + " depends on the machine that loads it";
      return std::nullopt;
    }
    return std::nullopt;
  };
  if (R.SearchPrefix[0] == '@') {
    // dyld: a token only at the start, as a whole component.
    for (const Token &T : R.Tokens) {
      llvm::StringRef S(T.Spelling);
      if (P.starts_with(S) && (P.size() == S.size() || P[S.size()] == '/')) {
        std::optional<std::string> Dir = meaning(T);
        if (!Dir)
          return E;
        E.FromToken = true;
        E.Path = joinPath(*Dir, P.drop_front(S.size()).ltrim('/'));
        E.Raw = *Dir + P.drop_front(S.size()).str();
        return E;
      }
    }
    E.UnknownPrefix = P.starts_with("@");
    E.Path = E.UnknownPrefix ? P.str() : normalizePath(P);
    E.Raw = P.str();
    return E;
  }
  // ld.so: tokens anywhere.
  std::string Out;
  while (!P.empty()) {
    size_t Dollar = P.find('$');
    Out += P.take_front(Dollar).str();
    if (Dollar == llvm::StringRef::npos)
      break;
    P = P.drop_front(Dollar);
    const Token *Hit = nullptr;
    for (const Token &T : R.Tokens) {
      llvm::StringRef S(T.Spelling);
      if (P.starts_with(S) && (!T.WholeComponent || P.size() == S.size() || !nameChar(P[S.size()]))) {
        Hit = &T;
        break;
      }
    }
    if (!Hit) { // not a token glibc knows: kept as text
      Out += "$";
      P = P.drop_front(1);
      continue;
    }
    std::optional<std::string> Dir = meaning(*Hit);
    if (!Dir)
      return E;
    E.FromToken = true;
    Out += *Dir;
    P = P.drop_front(strlen(Hit->Spelling));
  }
  E.Path = normalizePath(Out);
  E.Raw = std::move(Out);
  return E;
}

bool isSystemInterpreter(const LoaderRules &R, llvm::StringRef Arch, llvm::StringRef Path) {
  return llvm::any_of(R.SystemPaths,
                      [&](const InterpreterPath &I) { return Arch == I.Arch && Path == I.Path; });
}

} // namespace linkguard::contract
