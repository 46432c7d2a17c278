// flags/ResponseFiles: linkguard reads an @file only when that takes nothing
// from the compiler -- a regular file, within the caps -- and leaves every
// other one in place, unread and recorded, so the rules decline and the step
// runs unchanged. A hang here would be the defect itself: alarm() turns it
// into a failure.
#include "flags/ResponseFiles.h"
#include "flags/Classify.h"

#include "support/TempTree.h"

#include "tests/unit/support/Catch.h"

#include "llvm/Support/CommandLine.h"

#include <algorithm>
#include <csignal>
#include <random>
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

Strings argsOf(const ExpandedArgs &E) { return Strings(E.Args.begin(), E.Args.end()); }

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
  CHECK(argsOf(E) == Strings{"@" + Name});
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
  CHECK(argsOf(E) == Strings{"a.o", "@args", "@/dev/zero"});
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
  CHECK(argsOf(E) == Strings{"@big.rsp"});
  CHECK(unreadReason(E, "big.rsp") == "larger than 99 bytes: not read");
  L.MaxFileBytes = 100; // control: exactly the cap is read
  CHECK(argsOf(expandOk({"@big.rsp"}, T.Root, L)) ==
        Strings{std::string(100, 'x')});

  E = expandOk({"@loop.rsp"}, T.Root);
  CHECK(E.Files.size() == 32);
  CHECK(std::string(E.Args.back()) == "@loop.rsp");
  CHECK(unreadReason(E, "loop.rsp") ==
        "nested more than 32 levels deep (a cycle?): not read");

  L = {};
  L.MaxTotalBytes = 100;
  E = expandOk({"@a.rsp", "@b.rsp"}, T.Root, L);
  CHECK(argsOf(E) == Strings{"-DA", "@b.rsp"});
  CHECK(unreadReason(E, "b.rsp") ==
        "response files together larger than 100 bytes: not read");

  L = {};
  L.MaxFiles = 1;
  E = expandOk({"@a.rsp", "@b.rsp"}, T.Root, L);
  CHECK(argsOf(E) == Strings{"-DA", "@b.rsp"});
  CHECK(unreadReason(E, "b.rsp") == "more than 1 response files: not read");

  L = {};
  L.MaxArgs = 1;
  T.file("two.rsp", "-DA -DB");
  E = expandOk({"@two.rsp", "-c"}, T.Root, L);
  CHECK(argsOf(E) == Strings{"@two.rsp", "-c"});
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

namespace {

/// LLVM's own GNU tokenizer, the definition tokenizeResponseFile keeps to.
Strings llvmTokens(const std::string &Text) {
  llvm::BumpPtrAllocator A;
  llvm::StringSaver S(A);
  llvm::SmallVector<const char *, 16> T;
  llvm::cl::TokenizeGNUCommandLine(Text, S, T, /*MarkEOLs=*/false);
  return Strings(T.begin(), T.end());
}

Strings ourTokens(std::string Text, bool *InPlace = nullptr) {
  llvm::BumpPtrAllocator A;
  llvm::StringSaver S(A);
  linkguard::ArgVector T;
  tokenizeResponseFile(Text, 0, S, T);
  if (InPlace)
    *InPlace = std::all_of(T.begin(), T.end(), [&](const char *P) {
      return P >= Text.data() && P <= Text.data() + Text.size();
    });
  return Strings(T.begin(), T.end());
}

} // namespace

TEST_CASE("response-file text splits exactly as LLVM's GNU tokenizer",
          "[flags][rsp]") {
  SECTION("the usual file is split in place, into the same words") {
    bool InPlace = false;
    std::string Text = "-DA=1\n-c\t x.cpp\r\n -o x.o \v-f\fg\n";
    CHECK(ourTokens(Text, &InPlace) == llvmTokens(Text));
    CHECK(InPlace);
    CHECK(ourTokens(Text) == Strings{"-DA=1", "-c", "x.cpp", "-o", "x.o", "\v-f\fg"});
  }
  SECTION("quotes and backslashes go to LLVM") {
    for (std::string Text : {"'a b' \"c\\\"d\" e\\ f", "\"\" x", "a\\", "'open",
                             "\"\\\n\" y"}) {
      CAPTURE(Text);
      CHECK(ourTokens(Text) == llvmTokens(Text));
    }
  }
  SECTION("random text over every character class, NUL included") {
    const char Alphabet[] = {'a', '-', '@', '=', ' ', '\t', '\r', '\n', '\v',
                             '\f', '\0', '"', '\'', '\\', '\xC3', '\xA9'};
    std::mt19937 Rng(4242);
    for (int Round = 0; Round < 20000; ++Round) {
      std::string Text(Rng() % 24, ' ');
      // Half the rounds leave out quotes and backslashes: the in-place path.
      size_t Kinds = Round % 2 ? sizeof(Alphabet) : 11;
      for (char &C : Text)
        C = Alphabet[Rng() % Kinds];
      CAPTURE(Text);
      REQUIRE(ourTokens(Text) == llvmTokens(Text));
    }
  }
}

TEST_CASE("positions after @file expansion are the caller's argument indexes",
          "[flags][rsp][positions]") {
  TempTree T;
  T.file("objs.rsp", "a.o\nb.o @more.rsp\n");
  T.file("more.rsp", "c.o\n");
  T.file("libs.rsp", "-lz -lomp");
  ExpandedArgs E = expandOk({"-shared", "@objs.rsp", "-o", "x", "@libs.rsp", "--", "d.o"},
                            T.Root);
  CHECK(argsOf(E) ==
        Strings{"-shared", "a.o", "b.o", "c.o", "-o", "x", "-lz", "-lomp", "--", "d.o"});
  CHECK(E.Starts == std::vector<size_t>{0, 1, 4, 5, 6, 8, 9});
  CHECK(E.Files == Strings{"objs.rsp", "more.rsp", "libs.rsp"});

  ClassifyOptions O;
  O.WorkingDir = T.Root;
  llvm::Expected<Classification> C =
      classify(Strings{"-shared", "@objs.rsp", "-o", "x", "@libs.rsp", "--", "d.o"}, O);
  REQUIRE(bool(C));
  CHECK(C->FirstLibraryArg == 4); // the @file that brings -lz
  CHECK(C->EndOfOptions == 5);
  CHECK(C->ResponseFiles == E.Files);
}
