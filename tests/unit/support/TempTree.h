//===- TempTree.h - a temporary directory tree for a test ------*- C++ -*-===//
//
// Created under the system temporary directory with a unique name, named by
// its real path (so paths compare equal to what getcwd and realpath give),
// and removed with everything in it when the test ends. Also the one way a
// unit test skips: print the reason and exit LINKGUARD_SKIP_CODE (125; 4
// on Catch2 v3, tests/CMakeLists.txt), which ctest reports as skipped
// (SKIP_RETURN_CODE), never as passed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "tests/unit/support/Catch.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace linkguard::testsupport {

struct TempTree {
  std::string Root;
  TempTree() {
    llvm::SmallString<128> P;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("lg-test", P));
    llvm::SmallString<256> Real;
    REQUIRE_FALSE(llvm::sys::fs::real_path(P, Real));
    Root = std::string(Real);
  }
  TempTree(const TempTree &) = delete;
  TempTree &operator=(const TempTree &) = delete;
  ~TempTree() { llvm::sys::fs::remove_directories(Root); }
  std::string dir(const std::string &Rel) const {
    std::string P = Root + "/" + Rel;
    llvm::sys::fs::create_directories(P);
    return P;
  }
  std::string file(const std::string &Rel, const std::string &Text) const {
    std::string P = Root + "/" + Rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::ofstream(P, std::ios::binary) << Text;
    return P;
  }
  /// A shell script that exits 0, mode 0700: a compiler or a cache as the
  /// resolution tests need one on PATH.
  std::string executable(const std::string &Rel) const {
    std::string P = file(Rel, "#!/bin/sh\nexit 0\n");
    llvm::sys::fs::setPermissions(P, llvm::sys::fs::owner_all);
    return P;
  }
};

/// Ends this test (one ctest entry per TEST_CASE) as skipped. Call it before
/// anything needs cleaning up.
[[noreturn]] inline void skipTest(const std::string &Why) {
  std::printf("SKIP: %s\n", Why.c_str());
  std::fflush(stdout);
  std::_Exit(LINKGUARD_SKIP_CODE);
}

} // namespace linkguard::testsupport
