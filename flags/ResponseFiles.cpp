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
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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

namespace {

class Expander {
public:
  Expander(StringRef WorkingDir, const ResponseFileLimits &Limits,
           ExpandedArgs &Out)
      : WorkingDir(WorkingDir), Limits(Limits), Out(Out) {}

  template <typename Strings> Error expand(const Strings &Args, unsigned Depth) {
    for (StringRef A : Args) {
      if (A.size() < 2 || A[0] != '@') {
        Out.Args.emplace_back(A);
        continue;
      }
      if (Error E = expandFile(A, Depth))
        return E;
    }
    return Error::success();
  }

private:
  /// Leaves "@name" in place, unread, with the reason.
  Error leave(StringRef At, std::string Why) {
    Out.Unread.push_back({At.substr(1).str(), std::move(Why) + ": not read"});
    Out.Args.emplace_back(At);
    return Error::success();
  }

  Error expandFile(StringRef At, unsigned Depth) {
    std::string Name = At.substr(1).str();
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
    BoundedFile F = readBounded(AT_FDCWD, Path.c_str(), Limits.MaxFileBytes);
    switch (F.Outcome) {
    case ReadOutcome::Missing:
      Out.Missing.push_back(Name);
      Out.Args.emplace_back(At);
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
    StringRef Text = F.Text;
    Text.consume_front("\xEF\xBB\xBF");

    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 64> Tokens;
    cl::TokenizeGNUCommandLine(Text, Saver, Tokens, /*MarkEOLs=*/false);
    // Every token of every file counts, so Args never holds more than the
    // command line's own arguments plus MaxArgs.
    if (Tokens.size() > Limits.MaxArgs - TotalTokens)
      return leave(At, "more than " + std::to_string(Limits.MaxArgs) +
                           " arguments from response files");
    TotalTokens += Tokens.size();
    Out.Files.push_back(Name);
    // One allocation for a 100,000-argument file, not a doubling series
    // (each step of which is a fresh mmap to fault in); still geometric, so
    // thousands of small nested @files do not copy the vector each.
    if (Out.Args.size() + Tokens.size() > Out.Args.capacity())
      Out.Args.reserve(std::max(Out.Args.size() + Tokens.size(), 2 * Out.Args.capacity()));
    return expand(Tokens, Depth + 1);
  }

  StringRef WorkingDir;
  const ResponseFileLimits &Limits;
  ExpandedArgs &Out;
  size_t TotalBytes = 0;
  size_t TotalTokens = 0;
};

} // namespace

Expected<ExpandedArgs> expandResponseFiles(ArrayRef<std::string> Args,
                                           StringRef WorkingDir,
                                           const ResponseFileLimits &Limits) {
  ExpandedArgs Out;
  Expander X(WorkingDir, Limits, Out);
  if (Error E = X.expand(Args, 0))
    return std::move(E);
  return Out;
}

} // namespace linkguard::flags
