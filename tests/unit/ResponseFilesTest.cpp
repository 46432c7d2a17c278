// flags/ResponseFiles: linkguard reads an @file only when that takes nothing
// from the compiler -- a regular file, within the caps -- and leaves every
// other one in place, unread and recorded, so the rules decline and the step
// runs unchanged. A hang here would be the defect itself: alarm() turns it
// into a failure.
#include "flags/ResponseFiles.h"
#include "flags/Classify.h"

#include "support/TempTree.h"

#include "tests/unit/support/Catch.h"

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace linkguard::flags;
using linkguard::testsupport::TempTree;
using Strings = std::vector<std::string>;

namespace {

/// Fails the test (SIGALRM) instead of hanging it.
struct HangGuard {
  HangGuard() { ::alarm(30); }
  ~HangGuard() { ::alarm(0); }
};

ExpandedArgs expandOk(const Strings &Args, const std::string &Dir,
                      const ResponseFileLimits &L = {}) {
  llvm::Expected<ExpandedArgs> E = expandResponseFiles(Args, Dir, L);
  if (!E) {
    std::string Msg = llvm::toString(E.takeError());
    FAIL(Msg);
  }
  return std::move(*E);
}

std::string unreadReason(const ExpandedArgs &E, const std::string &Name) {
  for (const UnreadResponseFile &U : E.Unread)
    if (U.Name == Name)
      return U.Reason;
  return "(read)";
}

} // namespace

TEST_CASE("a pipe is never read: the compiler gets all of it", "[flags][rsp]") {
  HangGuard G;
  int P[2];
  REQUIRE(::pipe(P) == 0);
  const char Text[] = "-c x.cpp -o x.o";
  REQUIRE(::write(P[1], Text, sizeof(Text) - 1) == sizeof(Text) - 1);
  // @/dev/stdin and bash's @<(...) are such a descriptor.
  std::string Name = "/dev/fd/" + std::to_string(P[0]);
  ExpandedArgs E = expandOk({"@" + Name}, "");
  CHECK(E.Args == Strings{"@" + Name});
  CHECK(E.Files.empty());
  CHECK(unreadReason(E, Name) ==
        "a pipe or FIFO, which only the compiler may read: not read");
  // Everything written is still there for the compiler.
  char Buf[64] = {};
  REQUIRE(::fcntl(P[0], F_SETFL, O_NONBLOCK) == 0);
  ssize_t N = ::read(P[0], Buf, sizeof(Buf));
  CHECK(std::string(Buf, N > 0 ? static_cast<size_t>(N) : 0) == Text);
  ::close(P[0]);
  ::close(P[1]);
}

TEST_CASE("a FIFO and a device are never opened", "[flags][rsp]") {
  HangGuard G;
  TempTree T;
  // A FIFO with no writer: opening it for reading would block forever.
  REQUIRE(::mkfifo((T.Root + "/args").c_str(), 0600) == 0);
  ExpandedArgs E = expandOk({"a.o", "@args", "@/dev/zero"}, T.Root);
  CHECK(E.Args == Strings{"a.o", "@args", "@/dev/zero"});
  CHECK(unreadReason(E, "args") ==
        "a pipe or FIFO, which only the compiler may read: not read");
  CHECK(unreadReason(E, "/dev/zero") ==
        "a character device, which only the compiler may read: not read");
}

TEST_CASE("past a cap an @file is left unread, never an error",
          "[flags][rsp]") {
  TempTree T;
  T.file("big.rsp", std::string(100, 'x'));
  T.file("loop.rsp", "-c @loop.rsp");
  T.file("a.rsp", "-DA " + std::string(60, ' '));
  T.file("b.rsp", "-DB " + std::string(60, ' '));
  ResponseFileLimits L;

  L.MaxFileBytes = 99;
  ExpandedArgs E = expandOk({"@big.rsp"}, T.Root, L);
  CHECK(E.Args == Strings{"@big.rsp"});
  CHECK(unreadReason(E, "big.rsp") == "larger than 99 bytes: not read");
  L.MaxFileBytes = 100; // control: exactly the cap is read
  CHECK(expandOk({"@big.rsp"}, T.Root, L).Args ==
        Strings{std::string(100, 'x')});

  E = expandOk({"@loop.rsp"}, T.Root);
  CHECK(E.Files.size() == 32);
  CHECK(E.Args.back() == "@loop.rsp");
  CHECK(unreadReason(E, "loop.rsp") ==
        "nested more than 32 levels deep (a cycle?): not read");

  L = {};
  L.MaxTotalBytes = 100;
  E = expandOk({"@a.rsp", "@b.rsp"}, T.Root, L);
  CHECK(E.Args == Strings{"-DA", "@b.rsp"});
  CHECK(unreadReason(E, "b.rsp") ==
        "response files together larger than 100 bytes: not read");

  L = {};
  L.MaxFiles = 1;
  E = expandOk({"@a.rsp", "@b.rsp"}, T.Root, L);
  CHECK(E.Args == Strings{"-DA", "@b.rsp"});
  CHECK(unreadReason(E, "b.rsp") == "more than 1 response files: not read");

  L = {};
  L.MaxArgs = 1;
  T.file("two.rsp", "-DA -DB");
  E = expandOk({"@two.rsp", "-c"}, T.Root, L);
  CHECK(E.Args == Strings{"@two.rsp", "-c"});
  CHECK(unreadReason(E, "two.rsp") ==
        "more than 1 arguments from response files: not read");
}

TEST_CASE("what clang itself fails on stays an error (67)", "[flags][rsp]") {
  TempTree T;
  T.dir("dir");
  llvm::Expected<ExpandedArgs> E = expandResponseFiles(Strings{"@dir"}, T.Root);
  REQUIRE_FALSE(bool(E));
  std::string Msg = llvm::toString(E.takeError());
  CHECK(Msg == "response file 'dir': is a directory");
  // A missing one stays in place (a value like @rpath/x), as in clang.
  ExpandedArgs M = expandOk({"-install_name", "@rpath/liba.dylib"}, T.Root);
  CHECK(M.Missing == Strings{"rpath/liba.dylib"});
  CHECK(M.Unread.empty());
}

TEST_CASE("classify: an unread @file makes the command unknown, so rules "
          "decline",
          "[flags][rsp][classify]") {
  HangGuard G;
  TempTree T;
  REQUIRE(::mkfifo((T.Root + "/link.args").c_str(), 0600) == 0);
  ClassifyOptions O;
  O.WorkingDir = T.Root;
  O.HostFormat = ObjectFormat::MachO;
  llvm::Expected<Classification> C =
      classify(Strings{"a.o", "-shared", "-o", "m.dylib", "@link.args"}, O);
  REQUIRE(bool(C));
  CHECK(C->UnknownArgs ==
        Strings{"@link.args (a pipe or FIFO, which only the compiler may read: "
                "not read)"});
  CHECK(C->ResponseFiles.empty());
}
