//===- CommandWords.cpp - the words of a compiler command -----------------===//
//
// A compiler setting (CXX, LINKGUARD_CXX, a launcher call) is a list of
// words: split like a shell would, without running one, and read past the
// compiler launchers in front to the word that names the compiler
// (driver/CompilerResolution.h declares both).
//
//===----------------------------------------------------------------------===//
#include "driver/CompilerResolution.h"

#include "driver/DriverError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace linkguard::driver {

// The compiler launchers linkguard sees in CXX or in front of a compiler,
// and how each finds the word that names the compiler:
//   ccache [KEY=VALUE ...] compiler ...   ccache(1), settings since 4.8
//   sccache / distcc / icecc / buildcache compiler ...
//   zig cc|c++ ...                         the subcommand is the clang driver
//   xcrun [-sdk X] [-toolchain X] [-flags] tool ...   xcrun(1)
namespace {
enum class LauncherSyntax { Plain, Settings, Subcommand, Options };
struct CompilerLauncher {
  const char *Name;
  LauncherSyntax Syntax;
};
constexpr CompilerLauncher CompilerLaunchers[] = {
    {"ccache", LauncherSyntax::Settings},  {"sccache", LauncherSyntax::Plain},
    {"distcc", LauncherSyntax::Plain},     {"icecc", LauncherSyntax::Plain},
    {"buildcache", LauncherSyntax::Plain}, {"zig", LauncherSyntax::Subcommand},
    {"xcrun", LauncherSyntax::Options},
};
/// xcrun options that take a value (xcrun(1)).
constexpr const char *XcrunValueOptions[] = {"-sdk", "--sdk", "-toolchain",
                                             "--toolchain"};

const CompilerLauncher *launcherNamed(llvm::StringRef Word) {
  llvm::StringRef Name = llvm::sys::path::filename(Word);
  for (const CompilerLauncher &L : CompilerLaunchers)
    if (Name == L.Name)
      return &L;
  return nullptr;
}

/// The index of the first word after launcher L's own words at I.
size_t pastLauncherWords(const CompilerLauncher &L,
                         const std::vector<std::string> &Words, size_t I) {
  size_t Next = I + 1;
  switch (L.Syntax) {
  case LauncherSyntax::Settings:
    while (Next < Words.size() &&
           !llvm::StringRef(Words[Next]).starts_with("-") &&
           llvm::StringRef(Words[Next]).contains('='))
      ++Next;
    break;
  case LauncherSyntax::Options:
    while (Next < Words.size() && llvm::StringRef(Words[Next]).starts_with("-"))
      Next += llvm::is_contained(XcrunValueOptions, Words[Next]) ? 2 : 1;
    break;
  case LauncherSyntax::Plain:
  case LauncherSyntax::Subcommand:
    break;
  }
  return Next;
}
} // namespace

bool isCompilerLauncher(llvm::StringRef Word) {
  return launcherNamed(Word) != nullptr;
}

size_t compilerWordIndex(const std::vector<std::string> &Words) {
  size_t I = 0;
  while (I < Words.size()) {
    const CompilerLauncher *L = launcherNamed(Words[I]);
    if (!L)
      return I;
    size_t Next = pastLauncherWords(*L, Words, I);
    // A launcher with no compiler after it (distcc alone picks cc; "ccache
    // -s" is ccache's own option) is its own compiler word.
    if (Next >= Words.size() || llvm::StringRef(Words[Next]).starts_with("-"))
      return I;
    if (L->Syntax == LauncherSyntax::Subcommand)
      return Next;
    I = Next;
  }
  return Words.empty() ? 0 : Words.size() - 1;
}

llvm::Expected<std::vector<std::string>>
splitCommandWords(const std::string &S) {
  std::vector<std::string> Words;
  std::string Current;
  bool InWord = false;
  char Quote = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char Ch = S[I];
    if (Quote == '\'') {
      if (Ch == '\'')
        Quote = 0;
      else
        Current += Ch;
      continue;
    }
    if (Quote == '"') {
      if (Ch == '"')
        Quote = 0;
      else if (Ch == '\\' && I + 1 < S.size() &&
               llvm::StringRef("\"\\$`").contains(S[I + 1]))
        Current += S[++I];
      else
        Current += Ch;
      continue;
    }
    if (Ch == ' ' || Ch == '\t' || Ch == '\n') {
      if (InWord)
        Words.push_back(std::move(Current));
      Current.clear();
      InWord = false;
      continue;
    }
    InWord = true;
    if (Ch == '\'' || Ch == '"')
      Quote = Ch;
    else if (Ch == '\\' && I + 1 < S.size())
      Current += S[++I];
    else
      Current += Ch;
  }
  if (Quote)
    return makeDriverError(ExitCode::BadConfig,
                           "unterminated quote in compiler command: " + S);
  if (InWord)
    Words.push_back(std::move(Current));
  return Words;
}

} // namespace linkguard::driver
