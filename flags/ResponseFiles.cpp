//===- ResponseFiles.cpp - @file expansion for classification ------------===//
//
// Mirrors clang 19's driver (llvm::cl::ExpansionContext with the GNU
// tokenizer): an argument "@name" is replaced by the tokens of the file
// `name`, recursively. Differences, on purpose:
//  - clang leaves "@missing" in place when no such file exists (so
//    `-install_name @rpath/x.dylib` stays a value) and fails later with "no
//    such file or directory: '@missing'" if it is an input; linkguard does
//    the same, and classify() turns the input case into a ResponseFileError
//    so the driver can say which file and exit 67.
//  - only regular files are read (BoundedRead.h): @/dev/stdin and @<(...)
//    are pipes the compiler must read, and @/dev/zero never ends;
//  - nesting depth, file size, total size, the number of files and of
//    arguments are capped. Past a cap the @file is left unread, so a cycle
//    (a.rsp containing @a.rsp) or a huge file costs linkguard nothing and
//    the compiler reports it as it would without linkguard.
//
//===----------------------------------------------------------------------===//
#include "flags/ResponseFiles.h"

#include "flags/BoundedRead.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>

using namespace llvm;

namespace linkguard::flags {

char ResponseFileError::ID = 0;

void ResponseFileError::log(raw_ostream &OS) const {
  OS << "response file '" << Path << "': " << Reason;
}

std::error_code ResponseFileError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

void tokenizeResponseFile(char *Text, size_t Size, size_t Begin, StringSaver &Saver,
                          ArgVector &Tokens) {
  StringRef Rest = StringRef(Text, Size).drop_front(Begin);
  auto Has = [&](char C) { return std::memchr(Rest.data(), C, Rest.size()) != nullptr; };
  if (Has('"') || Has('\'') || Has('\\')) {
    SmallVector<const char *, 64> Quoted;
    cl::TokenizeGNUCommandLine(Rest, Saver, Quoted, /*MarkEOLs=*/false);
    Tokens.insert(Tokens.end(), Quoted.begin(), Quoted.end());
    return;
  }
  // Room for the most words the text can hold (one byte and a separator
  // each), reserved, not touched: the pages a 100,000-word file uses are
  // faulted in once, with no doubling series copying them. Still geometric,
  // so thousands of small nested @files do not copy the vector each.
  size_t Most = Tokens.size() + (Rest.size() + 1) / 2;
  if (Most > Tokens.capacity())
    Tokens.reserve(std::max(Most, 2 * Tokens.capacity()));
  // With nothing quoted or escaped, an argument is a maximal run of bytes
  // other than LLVM's four whitespace characters (' ', \t, \r, \n; not \v,
  // \f or NUL). An embedded NUL ends the C string early, as it does for the
  // saved copy LLVM returns. The string's own terminator ends the last one.
  auto Space = [](char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; };
  char *P = Text + Begin, *End = Text + Size;
  while (P != End) {
    if (Space(*P)) {
      *P++ = '\0';
      continue;
    }
    Tokens.push_back(P);
    while (P != End && !Space(*P))
      ++P;
  }
}

namespace {

/// "@name": a lone "@" is an ordinary argument.
bool isResponseFileName(const char *A) { return A[0] == '@' && A[1] != '\0'; }

class Expander {
public:
  Expander(StringRef WorkingDir, const ResponseFileLimits &Limits,
           ExpandedArgs &Out)
      : WorkingDir(WorkingDir), Limits(Limits), Out(Out),
        Saver(Out.Storage->Alloc) {}

  template <typename Strings> Error expand(const Strings &Args, unsigned Depth) {
    for (const auto &Word : Args) {
      const char *A = owned(Word);
      if (Depth == 0)
        Out.Starts.push_back(Out.Args.size());
      if (!isResponseFileName(A)) {
        Out.Args.push_back(A);
        continue;
      }
      if (Error E = expandFile(A, Depth))
        return E;
    }
    return Error::success();
  }

private:
  /// The caller's words are copied into the storage; a token already is
  /// there.
  const char *owned(const std::string &Word) { return Saver.save(Word).data(); }
  static const char *owned(const char *Token) { return Token; }

  /// Leaves "@name" in place, unread, with the reason.
  Error leave(const char *At, std::string Why) {
    Out.Unread.push_back({std::string(At + 1), std::move(Why) + ": not read"});
    Out.Args.push_back(At);
    return Error::success();
  }

  Error expandFile(const char *At, unsigned Depth) {
    std::string Name(At + 1);
    if (Depth >= Limits.MaxDepth)
      return leave(At, "nested more than " + std::to_string(Limits.MaxDepth) +
                           " levels deep (a cycle?)");
    if (Out.Files.size() >= Limits.MaxFiles)
      return leave(At, "more than " + std::to_string(Limits.MaxFiles) +
                           " response files");
    SmallString<256> Path(Name);
    if (!sys::path::is_absolute(Path) && !WorkingDir.empty()) {
      Path = WorkingDir;
      sys::path::append(Path, Name);
    }
    LargeBoundedFile F = readBounded<LargeText>(AT_FDCWD, Path.c_str(), Limits.MaxFileBytes);
    switch (F.Outcome) {
    case ReadOutcome::Missing:
      Out.Missing.push_back(Name);
      Out.Args.push_back(At);
      return Error::success();
    case ReadOutcome::NotRegular:
      if (S_ISDIR(F.St.st_mode))
        return make_error<ResponseFileError>(Name, "is a directory");
      return leave(At, F.Reason + ", which only the compiler may read");
    case ReadOutcome::TooLarge:
      return leave(At, F.Reason);
    case ReadOutcome::Failed:
      return make_error<ResponseFileError>(Name, F.Reason);
    case ReadOutcome::Ok:
      break;
    }
    if (F.Text.size() > Limits.MaxTotalBytes - TotalBytes)
      return leave(At, "response files together larger than " +
                           std::to_string(Limits.MaxTotalBytes) + " bytes");
    TotalBytes += F.Text.size();

    // clang's ExpansionContext also accepts UTF-16 with a BOM and strips a
    // UTF-8 BOM; the UTF-8 BOM is the only one seen on Unix hosts.
    size_t Begin = StringRef(F.Text.data(), F.Text.size()).starts_with("\xEF\xBB\xBF") ? 3 : 0;
    LargeText &Text =
        *Out.Storage->Texts.emplace_back(std::make_unique<LargeText>(std::move(F.Text)));
    // The words go straight to Args; only a file that names other @files
    // has its words taken back out to be expanded in turn.
    const size_t First = Out.Args.size();
    tokenizeResponseFile(Text, Begin, Saver, Out.Args);
    const size_t Count = Out.Args.size() - First;
    // Every token of every file counts, so Args never holds more than the
    // command line's own arguments plus MaxArgs.
    if (Count > Limits.MaxArgs - TotalTokens) {
      Out.Args.resize(First);
      return leave(At, "more than " + std::to_string(Limits.MaxArgs) +
                           " arguments from response files");
    }
    TotalTokens += Count;
    Out.Files.push_back(Name);
    auto Words = llvm::drop_begin(Out.Args, First);
    if (std::none_of(Words.begin(), Words.end(), isResponseFileName))
      return Error::success();
    std::vector<const char *> Nested(Words.begin(), Words.end());
    Out.Args.resize(First);
    return expand(Nested, Depth + 1);
  }

  StringRef WorkingDir;
  const ResponseFileLimits &Limits;
  ExpandedArgs &Out;
  StringSaver Saver;
  size_t TotalBytes = 0;
  size_t TotalTokens = 0;
};

} // namespace

Expected<ExpandedArgs> expandResponseFiles(ArrayRef<std::string> Args,
                                           StringRef WorkingDir,
                                           const ResponseFileLimits &Limits) {
  ExpandedArgs Out;
  Out.Storage = std::make_unique<ArgStorage>();
  Expander X(WorkingDir, Limits, Out);
  if (Error E = X.expand(Args, 0))
    return std::move(E);
  return Out;
}

} // namespace linkguard::flags
