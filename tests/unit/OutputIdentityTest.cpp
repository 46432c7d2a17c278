// driver/OutputIdentity: which file a link wrote, decided from what it left
// at -o (issue 28 item 2). Each case does to the file system what a linker
// does: lld/ld64 (temporary file renamed over -o), GNU ld through a dangling
// symbolic link (the target created), a link that writes nothing.
#include "driver/OutputIdentity.h"

#include "tests/unit/support/Catch.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace linkguard::driver;

namespace {

struct TempDir {
  std::string Path;
  TempDir() {
    llvm::SmallString<128> P;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("lg-outid", P));
    // realpath: /tmp may itself be a symbolic link.
    llvm::SmallString<128> Real;
    REQUIRE(!llvm::sys::fs::real_path(P, Real));
    Path = std::string(Real);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  std::string operator/(const std::string &Name) const { return Path + "/" + Name; }
};

void write(const std::string &Path, const std::string &Text) {
  std::ofstream(Path, std::ios::binary | std::ios::trunc) << Text;
}

} // namespace

TEST_CASE("a regular file that replaced a symbolic link at -o is the link's (lld, ld64)",
          "[driver][output]") {
  TempDir D;
  write(D / "t.so", "old");
  REQUIRE(::symlink("t.so", (D / "out.so").c_str()) == 0);
  OutputState Before = recordOutputState(D / "out.so");
  CHECK(Before.Entry.Symlink);
  CHECK(Before.TargetPath == D / "t.so");
  write(D / "out.so.tmp", "new library");
  REQUIRE(::rename((D / "out.so.tmp").c_str(), (D / "out.so").c_str()) == 0);
  WrittenFile W = writtenByLink(D / "out.so", Before);
  CHECK(W.Why.empty());
  CHECK(W.Path == D / "out.so");
  CHECK_FALSE(W.ThroughSymlink);
}

TEST_CASE("the target GNU ld writes through a dangling symbolic link is the link's",
          "[driver][output]") {
  TempDir D;
  REQUIRE(::symlink("t.so", (D / "out.so").c_str()) == 0);
  OutputState Before = recordOutputState(D / "out.so");
  CHECK(Before.TargetPath.empty());
  write(D / "out.so", "library"); // opens through the link, creates t.so
  WrittenFile W = writtenByLink(D / "out.so", Before);
  CHECK(W.Why.empty());
  CHECK(W.Path == D / "t.so");
  CHECK(W.ThroughSymlink);
  // Removing what was judged removes the target, not the link.
  CHECK(removeIfStill(W.Path, W.Id));
  CHECK(identify(D / "out.so").Symlink);
}

TEST_CASE("a dangling chain pointed elsewhere after the link leads to a file that is not the link's",
          "[driver][output]") {
  TempDir D;
  write(D / "victim.so", "someone else's library");
  REQUIRE(::symlink("mid", (D / "out.so").c_str()) == 0);
  REQUIRE(::symlink("sub/../t.so", (D / "mid").c_str()) == 0);
  REQUIRE(::mkdir((D / "sub").c_str(), 0755) == 0);
  OutputState Before = recordOutputState(D / "out.so");
  CHECK(Before.TargetPath.empty());
  CHECK(Before.DanglingEnd == D / "t.so"); // where a write through it goes
  SECTION("left alone: the file written through it is the link's") {
    write(D / "out.so", "library");
    WrittenFile W = writtenByLink(D / "out.so", Before);
    CHECK(W.Why.empty());
    CHECK(W.Path == D / "t.so");
  }
  SECTION("mid pointed at another file: neither judged nor removed") {
    write(D / "out.so", "library");
    REQUIRE(::unlink((D / "mid").c_str()) == 0);
    REQUIRE(::symlink("victim.so", (D / "mid").c_str()) == 0);
    WrittenFile W = writtenByLink(D / "out.so", Before);
    CHECK(W.Why == D / "out.so" + " now leads to " + D / "victim.so" + ", not to " +
                       D / "t.so" + " as before the link");
    CHECK(W.Path.empty());
  }
  SECTION("a chain that loops or whose directory is missing creates nothing") {
    REQUIRE(::symlink("loop2", (D / "loop1").c_str()) == 0);
    REQUIRE(::symlink("loop1", (D / "loop2").c_str()) == 0);
    CHECK(recordOutputState(D / "loop1").DanglingEnd.empty());
    REQUIRE(::symlink("nodir/t.so", (D / "nodir.so").c_str()) == 0);
    CHECK(recordOutputState(D / "nodir.so").DanglingEnd.empty());
  }
}

TEST_CASE("a symbolic link at -o whose target the link did not write is not the link's",
          "[driver][output]") {
  TempDir D;
  write(D / "t.so", "someone else's");
  REQUIRE(::symlink("t.so", (D / "out.so").c_str()) == 0);
  OutputState Before = recordOutputState(D / "out.so");
  // -Wl,--version: nothing written.
  WrittenFile W = writtenByLink(D / "out.so", Before);
  CHECK_THAT(W.Why, Catch::Contains("the link did not write " + D / "t.so"));
  CHECK(W.Path.empty());
}

TEST_CASE("a symbolic link replaced or retargeted during the link is not judged",
          "[driver][output]") {
  TempDir D;
  write(D / "t.so", "a");
  write(D / "u.so", "b");
  REQUIRE(::symlink("t.so", (D / "out.so").c_str()) == 0);
  OutputState Before = recordOutputState(D / "out.so");
  ::unlink((D / "out.so").c_str());
  REQUIRE(::symlink("u.so", (D / "out.so").c_str()) == 0);
  write(D / "u.so", "changed");
  WrittenFile W = writtenByLink(D / "out.so", Before);
  CHECK_FALSE(W.Why.empty());
  CHECK(W.Path.empty());
}

TEST_CASE("a symbolic link to a directory or nothing is never judged", "[driver][output]") {
  TempDir D;
  REQUIRE(llvm::sys::fs::create_directory(D / "dir") == std::error_code());
  REQUIRE(::symlink("dir", (D / "out.so").c_str()) == 0);
  OutputState Before = recordOutputState(D / "out.so");
  WrittenFile W = writtenByLink(D / "out.so", Before);
  CHECK_THAT(W.Why, Catch::Contains("a directory"));
  REQUIRE(::symlink("missing", (D / "gone.so").c_str()) == 0);
  OutputState Gone = recordOutputState(D / "gone.so");
  CHECK_THAT(writtenByLink(D / "gone.so", Gone).Why, Catch::Contains("a symbolic link to nothing"));
}
