// check --portable on one file expands load paths with the loaders' own
// table (contract/LoaderRules.cpp), as the tree's closure does: the inputs
// on which Portability.cpp's own expandMachO / expandELF differed from
// LoaderRules::expand, each with what the loader really does.
//
//  input (where)                        | before (own)   | loader, now
//  -------------------------------------+----------------+----------------
//  DT_RUNPATH $ORIGIN/$FOO              | unknown        | the directory "$FOO" (glibc
//                                       |                | elf/dl-load.c _dl_dst_substitute:
//                                       |                | "No DST we recognize", '$' kept)
//  DT_RUNPATH $ORIGIN/../${FOO}, $LIBX  | unknown        | literal text, as above
//  DT_RUNPATH $ORIGINX/lib, ${ORIGIN    | unknown        | a relative path (is_dst: a name
//                                       |                | character follows / no '}')
//  DT_RUNPATH $ORIGIN/$LIB, ${PLATFORM} | unknown        | unknown (the machine's), unchanged
//  DT_NEEDED lib$FOO.so                 | unknown        | searched as it stands (elf/dl-deps.c
//                                       |                | expand_dst, then _dl_map_object: no '/')
//  DT_NEEDED $ORIGIN/$FOO/libfoo.so     | unknown        | the file in "$FOO"
//  LC_RPATH @foo/lib, @loader_pathX     | unknown        | skipped: dyld-1378 dyld/Loader.cpp
//                                       |                | forEachResolvedAtPathVar tries it only
//                                       |                | against the cwd; ships nothing
//  @executable_path in a dylib          | the dylib's    | the main executable's (expandAt-
//                                       | own directory  | ExecutablePath): --executable, else
//                                       |                | unknown (undecided, never holds)
//  @executable_path in an executable    | its directory  | its directory, unchanged
#include "contract/LoaderRules.h"
#include "contract/Portability.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include "tests/unit/support/Catch.h"

#include <set>
#include <string>
#include <vector>

using namespace linkguard::contract;
using namespace linkguard::objlib;

namespace {

struct Row {
  const char *What;
  std::vector<std::string> Deps;
  std::vector<std::string> Paths; // DT_RUNPATH / LC_RPATH
  std::set<std::string> Files;    // what exists
  Placement Want;
  const char *Resolved = ""; // the shipped file, when Want is Shipped
};

BinaryInfo binary(Format Fmt, const std::string &Path, const Row &R, bool Main = false) {
  BinaryInfo B;
  B.Path = Path;
  B.Fmt = Fmt;
  Slice S;
  S.Arch = Fmt == Format::MachO ? "arm64" : "x86_64";
  S.FileType = Fmt == Format::MachO ? (Main ? "executable" : "dylib") : "ET_DYN";
  S.MainProgram = Main;
  unsigned Ordinal = 0;
  for (const std::string &D : R.Deps) {
    Dependency Dep;
    Dep.Name = D;
    Dep.Ordinal = ++Ordinal;
    Dep.Kind = Fmt == Format::MachO ? DependencyKind::Load : DependencyKind::Needed;
    S.Dependencies.push_back(Dep);
  }
  for (const std::string &P : R.Paths)
    S.SearchPaths.push_back(
        {P, Fmt == Format::MachO ? SearchPathKind::RPath : SearchPathKind::RunPath});
  B.Slices.push_back(S);
  return B;
}

void checkRows(Format Fmt, const std::string &Path, const std::vector<Row> &Rows,
               const std::string &ExeDir = "", bool Main = false) {
  for (const Row &R : Rows) {
    INFO(R.What);
    PortabilityOptions O;
    O.BundleRoot = "/b";
    O.ExecutableDir = ExeDir;
    std::set<std::string> Files = R.Files;
    FileProbe FS = [Files](const std::string &P) { return Files.count(normalizePath(P)) != 0; };
    std::vector<DependencyPlacement> P = placeDependencies(binary(Fmt, Path, R, Main), O, FS);
    REQUIRE(P.size() == 1);
    INFO(P[0].Reason);
    CHECK(placementName(P[0].Where) == std::string(placementName(R.Want)));
    if (R.Want == Placement::Shipped)
      CHECK(P[0].ResolvedPath == R.Resolved);
  }
}

} // namespace

TEST_CASE("ELF: an unknown $NAME in a runpath is text ld.so keeps, not unknown",
          "[contract][portability][loader]") {
  checkRows(Format::ELF, "/b/bin/m.so",
            {{"$FOO shipped", {"libfoo.so"}, {"$ORIGIN/$FOO"}, {"/b/bin/$FOO/libfoo.so"},
              Placement::Shipped, "/b/bin/$FOO/libfoo.so"},
             {"$FOO missing", {"libfoo.so"}, {"$ORIGIN/$FOO"}, {}, Placement::NonPortable},
             {"${FOO}", {"libfoo.so"}, {"$ORIGIN/../${FOO}"}, {"/b/${FOO}/libfoo.so"},
              Placement::Shipped, "/b/${FOO}/libfoo.so"},
             {"$LIBX is not $LIB", {"libfoo.so"}, {"$ORIGIN/../$LIBX"}, {"/b/$LIBX/libfoo.so"},
              Placement::Shipped, "/b/$LIBX/libfoo.so"},
             {"$ORIGINX is no token", {"libfoo.so"}, {"$ORIGINX/lib"}, {}, Placement::NonPortable},
             {"${ORIGIN without its brace", {"libfoo.so"}, {"${ORIGIN/lib"}, {},
              Placement::NonPortable},
             // Unchanged: the tokens whose value only the target machine knows.
             {"$LIB", {"libfoo.so"}, {"$ORIGIN/../$LIB"}, {}, Placement::Unknown},
             {"${PLATFORM}", {"libfoo.so"}, {"$ORIGIN/${PLATFORM}"}, {}, Placement::Unknown},
             {"${ORIGIN}", {"libfoo.so"}, {"${ORIGIN}/../lib"}, {"/b/lib/libfoo.so"},
              Placement::Shipped, "/b/lib/libfoo.so"}});
}

TEST_CASE("ELF: a DT_NEEDED name is expanded before ld.so looks for a slash",
          "[contract][portability][loader]") {
  checkRows(Format::ELF, "/b/bin/m.so",
            {{"lib$FOO.so is searched", {"lib$FOO.so"}, {"$ORIGIN"}, {"/b/bin/lib$FOO.so"},
              Placement::Shipped, "/b/bin/lib$FOO.so"},
             {"a path through $FOO", {"$ORIGIN/$FOO/libfoo.so"}, {}, {"/b/bin/$FOO/libfoo.so"},
              Placement::Shipped, "/b/bin/$FOO/libfoo.so"},
             {"$PLATFORM in a bare name", {"libfoo-$PLATFORM.so"}, {"$ORIGIN"}, {},
              Placement::Unknown},
             {"$ORIGIN path", {"$ORIGIN/../lib/libfoo.so"}, {}, {"/b/lib/libfoo.so"},
              Placement::Shipped, "/b/lib/libfoo.so"}});
}

TEST_CASE("Mach-O: an LC_RPATH with an @ prefix dyld does not expand is skipped",
          "[contract][portability][loader]") {
  checkRows(Format::MachO, "/b/lib/m.dylib",
            {{"@foo alone", {"@rpath/libfoo.dylib"}, {"@foo/lib"}, {}, Placement::NonPortable},
             {"@loader_pathX", {"@rpath/libfoo.dylib"}, {"@loader_pathX/lib"}, {},
              Placement::NonPortable},
             {"@foo then @loader_path",
              {"@rpath/libfoo.dylib"},
              {"@foo/lib", "@loader_path"},
              {"/b/lib/libfoo.dylib"},
              Placement::Shipped,
              "/b/lib/libfoo.dylib"},
             {"an @foo load path", {"@foo/libfoo.dylib"}, {}, {}, Placement::NonPortable}});
}

TEST_CASE("Mach-O: @executable_path is the main executable's, unknown in a lone dylib",
          "[contract][portability][loader]") {
  const std::vector<Row> Rows = {
      {"LC_RPATH", {"@rpath/libfoo.dylib"}, {"@executable_path/../lib"}, {"/b/lib/libfoo.dylib"},
       Placement::Unknown},
      {"load path", {"@executable_path/../lib/libfoo.dylib"}, {}, {"/b/lib/libfoo.dylib"},
       Placement::Unknown}};
  checkRows(Format::MachO, "/b/plugins/p.dylib", Rows);
  // --executable /b/bin/app decides it.
  std::vector<Row> Known = Rows;
  for (Row &R : Known)
    R.Want = Placement::Shipped, R.Resolved = "/b/lib/libfoo.dylib";
  checkRows(Format::MachO, "/b/plugins/p.dylib", Known, "/b/bin");
  // A main program's @executable_path is its own directory.
  checkRows(Format::MachO, "/b/bin/app", Known, "", /*Main=*/true);
}

TEST_CASE("lookupName: dyld searches @rpath/ names, ld.so names without a slash after expansion",
          "[contract][loader]") {
  const LoaderRules &LdSo = rulesFor(Format::ELF);
  NameLookup L = lookupName(LdSo, "lib$FOO.so", "/w", "");
  CHECK(L.Searched);
  CHECK(L.Leaf == "lib$FOO.so");
  L = lookupName(LdSo, "$ORIGIN/libx.so", "/w", "");
  CHECK_FALSE(L.Searched);
  CHECK(L.Path.Path == "/w/libx.so");
  L = lookupName(LdSo, "libx-$PLATFORM.so", "/w", "");
  CHECK_FALSE(L.Searched);
  CHECK_FALSE(L.Path.Undecidable.empty());
  const LoaderRules &Dyld = rulesFor(Format::MachO);
  L = lookupName(Dyld, "@rpath/libx.dylib", "/w", "");
  CHECK(L.Searched);
  CHECK(L.Leaf == "libx.dylib");
  L = lookupName(Dyld, "@rpathx/libx.dylib", "/w", "");
  CHECK_FALSE(L.Searched);
  CHECK(L.Path.UnknownPrefix);
}

TEST_CASE("normalizePath is remove_dots, on every path of up to five components",
          "[contract][paths]") {
  // normalizePath skips remove_dots for a path it would leave as it is
  // (LoaderRules.cpp alreadyNormal): every path built from these pieces,
  // absolute and relative, with and without a trailing slash, gives what
  // remove_dots gives.
  const std::vector<std::string> Parts = {"a", "bc", ".", "..", "", "...", ".a", "a."};
  size_t Checked = 0;
  std::vector<std::string> Paths = {""};
  for (int Len = 1; Len <= 5; ++Len) {
    std::vector<std::string> Next;
    for (const std::string &P : Paths)
      for (const std::string &C : Parts)
        Next.push_back(P.empty() && Len == 1 ? C : P + "/" + C);
    Paths = std::move(Next);
    for (const std::string &P : Paths)
      for (const std::string &Q : {P, "/" + P, "//" + P, P + "/", "/" + P + "/"}) {
        llvm::SmallString<256> Want(Q);
        llvm::sys::path::remove_dots(Want, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
        INFO("path: '" << Q << "'");
        CHECK(normalizePath(Q) == std::string(Want.str()));
        ++Checked;
      }
  }
  CHECK(Checked > 150000);
}
