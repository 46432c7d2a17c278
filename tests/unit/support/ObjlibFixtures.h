//===- ObjlibFixtures.h - cross-linked objlib test fixtures -----*- C++ -*-===//
//
// Fixtures are linked during the test run with clang++-19 + ld64.lld against
// TAPI stubs written here (../shared/README.md recipe), in one temporary
// directory per test process; with no LLVM 19 toolchain each case is
// reported to ctest as skipped (exit LINKGUARD_SKIP_CODE). Used by ObjlibTest.cpp and
// ObjlibHostileTest.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/Reader.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "tests/unit/support/Catch.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace linkguard::testsupport {

using namespace linkguard::objlib;
using namespace llvm;

inline const std::string BinDir = LINKGUARD_LLVM_BINDIR;

/// A temporary directory with the stubs and sources every case links from.
class FixtureDir {
public:
  FixtureDir() {
    SmallString<128> P;
    if (sys::fs::createUniqueDirectory("linkguard-objlib", P))
      return;
    Dir = std::string(P);
    write("sdk/usr/lib/libSystem.tbd", tbd("/usr/lib/libSystem.B.dylib",
                                           "dyld_stub_binder, _malloc, _free"));
    write("omp/libomp.tbd", tbd("/opt/llvm-openmp/lib/libomp.dylib",
                                "_omp_get_num_threads, _omp_get_thread_num"));
    write("foo/libfoo.tbd", tbd("/usr/local/lib/libfoo.1.dylib", "_foo_fn"));
    write("plain.cpp", "extern \"C\" int k() { return 42; }\n");
    write("use_omp.cpp",
          "extern \"C\" int omp_get_num_threads();\n"
          "extern \"C\" int k() { return omp_get_num_threads(); }\n");
    write("dyn.cpp", "extern \"C\" int dyn_fn();\nextern \"C\" int foo_fn();\n"
                     "extern \"C\" int k() { return dyn_fn() + foo_fn(); }\n");
  }
  ~FixtureDir() {
    if (!Dir.empty())
      sys::fs::remove_directories(Dir);
  }

  /// Why the toolchain cannot be used, or empty when it can.
  std::string unusable() const {
    if (Dir.empty())
      return "cannot create a temporary directory";
    for (const char *Tool : {"clang++", "ld64.lld", "llvm-lipo", "yaml2obj"})
      if (!sys::fs::can_execute(BinDir + "/" + Tool))
        return BinDir + "/" + Tool + " not found";
    return "";
  }

  std::string path(StringRef Name) const { return Dir + "/" + Name.str(); }

  void write(StringRef Name, StringRef Text) const {
    std::string P = path(Name);
    sys::fs::create_directories(sys::path::parent_path(P));
    std::ofstream(P, std::ios::binary) << Text.str();
  }

  /// Links (or compiles, with -c) Out from Src for Arch; true on success.
  bool link(StringRef Out, StringRef Src, std::vector<std::string> Extra,
            StringRef Arch = "arm64") const {
    std::vector<std::string> Args = {BinDir + "/clang++",
                                     "-target",
                                     (Arch + "-apple-macos11").str(),
                                     "-isysroot",
                                     path("sdk"),
                                     "-fuse-ld=lld",
                                     "-nostdlib++",
                                     path(Src),
                                     "-o",
                                     path(Out),
                                     "-L" + path("omp"),
                                     "-L" + path("foo")};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return run(Args);
  }

  bool run(const std::vector<std::string> &Args) const {
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(""),
                                            StringRef("")};
    return sys::ExecuteAndWait(Args[0], Refs, std::nullopt, Redirects) == 0;
  }

private:
  static std::string tbd(StringRef Name, StringRef Symbols) {
    return ("--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-macos, "
            "x86_64-macos ]\ninstall-name: '" +
            Name +
            "'\ncurrent-version: 1311\nexports:\n  - targets: [ "
            "arm64-macos, x86_64-macos ]\n    symbols: [ " +
            Symbols + " ]\n...\n")
        .str();
  }

  std::string Dir;
};

inline FixtureDir &fixtures() {
  static FixtureDir F;
  return F;
}

/// Without the toolchain a case cannot run: it says why and exits
/// LINKGUARD_SKIP_CODE, which ctest (one process per case,
/// SKIP_RETURN_CODE) reports as skipped rather than passed.
#define REQUIRE_TOOLCHAIN()                                                    \
  do {                                                                         \
    std::string Why = fixtures().unusable();                                   \
    if (!Why.empty()) {                                                        \
      std::printf("SKIP: %s\n", Why.c_str());                                  \
      std::fflush(stdout);                                                     \
      std::_Exit(LINKGUARD_SKIP_CODE);                                         \
    }                                                                          \
  } while (0)

inline BinaryInfo readOk(const std::string &Path) {
  Expected<BinaryInfo> Info = readBinary(Path);
  if (!Info) {
    std::string Msg = toString(Info.takeError());
    FAIL("readBinary(" << Path << "): " << Msg);
  }
  return std::move(*Info);
}

inline const Dependency *findDep(const Slice &S, StringRef Needle) {
  for (const Dependency &D : S.Dependencies)
    if (StringRef(D.Name).contains(Needle))
      return &D;
  return nullptr;
}

inline bool hasImport(const std::vector<Import> &Imports, StringRef Symbol) {
  for (const Import &I : Imports)
    if (I.Symbol == Symbol)
      return true;
  return false;
}

inline ReadErrorKind errorKind(const std::string &Path,
                               std::string *Msg = nullptr) {
  Expected<BinaryInfo> Info = readBinary(Path);
  REQUIRE_FALSE(static_cast<bool>(Info));
  ReadErrorKind Kind = ReadErrorKind::Unsupported;
  handleAllErrors(Info.takeError(), [&](const ReadError &E) {
    Kind = E.kind();
    if (Msg)
      *Msg = E.message();
  });
  return Kind;
}

inline const std::vector<std::pair<const char *, std::vector<std::string>>>
    Styles = {{"opcodes", {}}, {"chained", {"-Wl,-fixup_chains"}}};

inline std::vector<std::string> plus(std::vector<std::string> A,
                                     const std::vector<std::string> &B) {
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

} // namespace linkguard::testsupport
