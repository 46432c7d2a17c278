// config/RulesFileSearch: which linkguard.toml is trusted (git's
// safe.directory view). Ownership is tested against the uid the search is
// given (RulesFileSearch::User), so every case runs without root; the cases
// that need a file owned by someone else for real chown it and skip
// (skipTest) when not root.
#include "config/RulesFileSearch.h"

#include "support/TempTree.h"

#include "tests/unit/support/Catch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace linkguard::config;
using linkguard::testsupport::skipTest;
using linkguard::testsupport::TempTree;

namespace {

const char *Rule = "[[rule]]\nname = \"r\"\n[rule.add]\nflags = [\"-Wl,-x\"]\n";

RulesFileSearch searchFrom(const std::string &Dir) {
  RulesFileSearch W;
  W.WorkingDir = Dir;
  W.User = ::geteuid();
  return W;
}

std::string usedPath(const RulesFileLookup &L) {
  return L.File ? L.File->Path : std::string("(none)");
}

std::string ignoredReason(const RulesFileLookup &L, const std::string &Path) {
  for (const IgnoredRulesFile &I : L.Ignored)
    if (I.Path == Path)
      return I.Reason;
  return "(not ignored)";
}

} // namespace

TEST_CASE("LINKGUARD_CONFIG wins, unchecked for owner, it must be a regular "
          "file within the cap",
          "[rulesfile][search]") {
  TempTree T;
  std::string Given = T.file("given.toml", Rule);
  T.file("proj/linkguard.toml", Rule);
  RulesFileSearch W = searchFrom(T.dir("proj"));
  W.Explicit = Given;
  W.User = ::geteuid() + 1; // the user trusts what they name, whoever owns it
  RulesFileLookup L = findRulesFile(W);
  REQUIRE(L.File);
  CHECK(L.File->Path == Given);
  CHECK(L.File->Directory == T.Root);
  CHECK(L.File->Origin == RulesFileOrigin::Explicit);
  CHECK(L.File->Text == Rule);
  CHECK_FALSE(L.File->Error);

  W.Explicit = T.Root + "/missing.toml";
  L = findRulesFile(W);
  REQUIRE(L.File);
  CHECK(L.File->Error ==
        "LINKGUARD_CONFIG=" + T.Root + "/missing.toml: no such file");

  // A FIFO is refused without being opened (opening it would block until a
  // writer came, and would take what the writer meant for someone else).
  std::string Fifo = T.Root + "/fifo.toml";
  REQUIRE(::mkfifo(Fifo.c_str(), 0600) == 0);
  W.Explicit = Fifo;
  L = findRulesFile(W);
  REQUIRE(L.File);
  CHECK(L.File->Error ==
        "LINKGUARD_CONFIG=" + Fifo + ": not a regular file (a pipe or FIFO)");

  // A 3 GB sparse file costs nothing: its size is read, not its bytes.
  std::string Big = T.file("big.toml", "");
  REQUIRE(::truncate(Big.c_str(), off_t{3} << 30) == 0);
  W.Explicit = Big;
  L = findRulesFile(W);
  REQUIRE(L.File);
  CHECK(L.File->Error ==
        "LINKGUARD_CONFIG=" + Big + ": larger than 1048576 bytes");
  CHECK(L.File->Text.empty());
}

TEST_CASE("the project file is found in the directory or a parent, before the "
          "user's",
          "[rulesfile][search]") {
  TempTree T;
  std::string Project = T.file("proj/linkguard.toml", Rule);
  std::string User = T.file("xdg/linkguard/linkguard.toml", Rule);
  std::string Home = T.file("home/.config/linkguard/linkguard.toml", Rule);
  RulesFileSearch W = searchFrom(T.dir("proj/build/sub"));
  W.XdgConfigHome = T.Root + "/xdg";
  W.Home = T.Root + "/home";
  RulesFileLookup L = findRulesFile(W);
  CHECK(usedPath(L) == Project);
  CHECK(L.File->Directory == T.Root + "/proj");
  CHECK(L.File->Origin == RulesFileOrigin::Project);
  CHECK(L.Ignored.empty());

  W.WorkingDir = T.dir("elsewhere");
  L = findRulesFile(W);
  CHECK(usedPath(L) == User);
  CHECK(L.File->Origin == RulesFileOrigin::User);

  W.XdgConfigHome = "relative/dir"; // invalid per the XDG spec: ignored
  CHECK(usedPath(findRulesFile(W)) == Home);

  W.XdgConfigHome.reset();
  W.Home = T.Root + "/nohome";
  CHECK(usedPath(findRulesFile(W)) == "(none)");
}

TEST_CASE("the walk stops at the user's home", "[rulesfile][search]") {
  TempTree T;
  std::string Above = T.file("linkguard.toml", Rule);
  RulesFileSearch W = searchFrom(T.dir("home/me/proj"));
  CHECK(usedPath(findRulesFile(W)) == Above); // control: no home, found
  W.Home = T.Root + "/home/me";
  CHECK(usedPath(findRulesFile(W)) == "(none)");
  // Home itself is still looked at.
  std::string InHome = T.file("home/me/linkguard.toml", Rule);
  CHECK(usedPath(findRulesFile(W)) == InHome);
}

TEST_CASE("a linkguard.toml in a directory others can write is never read",
          "[rulesfile][search]") {
  TempTree T;
  std::string Mine = T.file("linkguard.toml", Rule); // above: a trusted one
  for (mode_t Mode : {mode_t{01777}, mode_t{0777}, mode_t{0757}}) {
    INFO("mode " << std::oct << Mode);
    std::string Shared = T.dir("shared");
    std::string Planted = T.file("shared/linkguard.toml", Rule);
    REQUIRE(::chmod(Shared.c_str(), Mode) == 0);
    RulesFileSearch W = searchFrom(T.dir("shared/me/build"));
    RulesFileLookup L = findRulesFile(W);
    // The planted file ends the walk; the user's file (none here) applies.
    CHECK(usedPath(L) == "(none)");
    CHECK(ignoredReason(L, Planted) ==
          "its directory " + Shared + " is writable by everyone");
    REQUIRE(::chmod(Shared.c_str(), 0755) == 0);
    CHECK(usedPath(findRulesFile(W)) == Planted); // control
    ::unlink(Planted.c_str());
    CHECK(usedPath(findRulesFile(W)) == Mine);
  }
  // /tmp itself, for real: sticky and writable by everyone.
  struct stat Tmp {};
  REQUIRE(::stat("/tmp", &Tmp) == 0);
  CHECK(untrustedBecause(Tmp, ::geteuid()) ==
        std::optional<std::string>("writable by everyone"));
}

TEST_CASE("ownership and group rules", "[rulesfile][search]") {
  struct stat St {};
  St.st_uid = 1000;
  St.st_gid = 1000;
  St.st_mode = S_IFREG | 0644;
  CHECK_FALSE(untrustedBecause(St, 1000));
  CHECK(untrustedBecause(St, 1001) ==
        std::optional<std::string>(
            "owned by uid 1000, not by you (uid 1001) or root"));
  St.st_uid = 0;
  CHECK_FALSE(untrustedBecause(St, 1001)); // root's
  St.st_uid = 1000;
  St.st_mode = S_IFDIR | 0775; // group-writable, the user's private group
  CHECK_FALSE(untrustedBecause(St, 1000));
  St.st_gid = 100; // "users": others are in it
  CHECK(untrustedBecause(St, 1000) ==
        std::optional<std::string>("writable by group 100"));
  St.st_mode = S_IFDIR | 0755;
  CHECK_FALSE(untrustedBecause(St, 1000));
}

TEST_CASE("a file the user does not own is ignored, also behind a link",
          "[rulesfile][search]") {
  TempTree T;
  std::string Proj = T.dir("proj");
  std::string File = T.file("proj/linkguard.toml", Rule);
  RulesFileSearch W = searchFrom(Proj);
  W.User = ::geteuid() + 1; // the tree is someone else's
  if (::geteuid() == 0)
    W.User = 4242; // root's files are trusted by everyone; pretend to be 4242
  RulesFileLookup L = findRulesFile(W);
  if (::geteuid() != 0) {
    CHECK(usedPath(L) == "(none)");
    CHECK_THAT(ignoredReason(L, File),
               Catch::StartsWith("its directory " + Proj + " is owned by uid"));
  } else {
    CHECK(usedPath(L) == File); // owned by root: trusted
  }
  // A FIFO named linkguard.toml is passed over, never opened.
  ::unlink(File.c_str());
  REQUIRE(::mkfifo(File.c_str(), 0600) == 0);
  W.User = ::geteuid();
  L = findRulesFile(W);
  CHECK(usedPath(L) == "(none)");
  CHECK(ignoredReason(L, File) == "not a regular file (a pipe or FIFO)");
}

TEST_CASE("someone else's file is ignored, whether found directly or behind a "
          "link in the user's directory",
          "[rulesfile][search][root]") {
  if (::geteuid() != 0)
    skipTest("needs root to make a file owned by someone else (chown)");
  TempTree T;
  std::string Theirs = T.file("theirs/rules.toml", Rule);
  REQUIRE(::chown(Theirs.c_str(), 65534, 65534) == 0);
  std::string Proj = T.dir("proj");
  std::string Link = Proj + "/linkguard.toml";
  REQUIRE(::symlink(Theirs.c_str(), Link.c_str()) == 0);
  RulesFileSearch W = searchFrom(Proj);
  RulesFileLookup L = findRulesFile(W);
  CHECK(usedPath(L) == "(none)");
  CHECK(ignoredReason(L, Link) ==
        "it is owned by uid 65534, not by you (uid 0) or root");
  // Control: a link to the user's own file is followed and used.
  std::string Own = T.file("dotfiles/linkguard.toml", Rule);
  ::unlink(Link.c_str());
  REQUIRE(::symlink(Own.c_str(), Link.c_str()) == 0);
  L = findRulesFile(W);
  CHECK(usedPath(L) == Link);
  CHECK(L.File->Text == Rule);
  // Their own directory, with the file in it.
  std::string TheirDir = T.dir("theirproj");
  std::string TheirFile = T.file("theirproj/linkguard.toml", Rule);
  REQUIRE(::chown(TheirDir.c_str(), 65534, 65534) == 0);
  L = findRulesFile(searchFrom(T.dir("theirproj/build")));
  CHECK(usedPath(L) == "(none)");
  CHECK(ignoredReason(L, TheirFile) ==
        "its directory " + TheirDir +
            " is owned by uid 65534, not by you (uid 0) or root");
}

TEST_CASE("a trusted file past the cap is an error, not read",
          "[rulesfile][search]") {
  TempTree T;
  std::string File = T.file("proj/linkguard.toml", std::string(100, '#'));
  RulesFileSearch W = searchFrom(T.dir("proj"));
  W.MaxBytes = 99;
  RulesFileLookup L = findRulesFile(W);
  REQUIRE(L.File);
  CHECK(L.File->Error == File + ": larger than 99 bytes");
  W.MaxBytes = 100;
  L = findRulesFile(W);
  REQUIRE(L.File);
  CHECK_FALSE(L.File->Error);
  CHECK(L.File->Text.size() == 100);
}
