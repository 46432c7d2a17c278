//===- CppBuilderFixtures.h - the shared cpp_builder command lines -*- C++ -*-===//
//
// Reads ../shared/fixtures/cpp_builder_darwin_mps.txt (or its copy in
// tests/data, so tests run when ../shared is absent): "## name | phase=P |
// inject=I" followed by the command as cpp_builder passes it to shlex.split.
// Used by ClassifyTest and RuleTest.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/StringSaver.h"

#include "tests/unit/support/Catch.h"

#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace linkguard::testsupport {

/// shlex.split as cpp_builder uses it; GNU tokenization agrees with it on
/// these lines (no backslash-newline, POSIX quotes).
inline std::vector<std::string> splitCommand(llvm::StringRef Line) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 64> Tokens;
  llvm::cl::TokenizeGNUCommandLine(Line, Saver, Tokens);
  return std::vector<std::string>(Tokens.begin(), Tokens.end());
}

struct FixtureRow {
  std::string Name, Phase, Inject, Command;
};

inline std::optional<std::string> fixturePath() {
  for (const char *P :
       {LINKGUARD_SHARED_DIR "/fixtures/cpp_builder_darwin_mps.txt",
        LINKGUARD_SOURCE_DIR "/tests/data/cpp_builder_darwin_mps.txt"})
    if (llvm::sys::fs::exists(P))
      return std::string(P);
  return std::nullopt;
}

inline std::vector<FixtureRow> readFixtures(const std::string &Path) {
  std::vector<FixtureRow> Rows;
  std::ifstream In(Path);
  std::string Line;
  FixtureRow Cur;
  bool Pending = false;
  while (std::getline(In, Line)) {
    llvm::StringRef L(Line);
    if (L.starts_with("## ")) {
      llvm::SmallVector<llvm::StringRef, 3> Parts;
      L.drop_front(3).split(Parts, '|');
      REQUIRE(Parts.size() == 3);
      Cur = FixtureRow{Parts[0].trim().str(),
                       Parts[1].trim().drop_front(std::strlen("phase=")).str(),
                       Parts[2].trim().drop_front(std::strlen("inject=")).str(), ""};
      Pending = true;
    } else if (Pending && !L.trim().empty() && !L.starts_with("#")) {
      Cur.Command = Line;
      Rows.push_back(Cur);
      Pending = false;
    }
  }
  return Rows;
}

} // namespace linkguard::testsupport
