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
//  - nesting depth, file size and argument count are capped, so a cycle
//    (a.rsp containing @a.rsp) is an error rather than a hang.
//
//===----------------------------------------------------------------------===//
#include "flags/ResponseFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

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

  Error expand(ArrayRef<std::string> Args, unsigned Depth) {
    for (const std::string &A : Args) {
      if (A.size() < 2 || A[0] != '@') {
        if (Error E = push(A))
          return E;
        continue;
      }
      if (Error E = expandFile(A, Depth))
        return E;
    }
    return Error::success();
  }

private:
  Error push(std::string A) {
    if (Out.Args.size() >= Limits.MaxArgs)
      return make_error<ResponseFileError>(
          Out.Files.empty() ? std::string("(command line)") : Out.Files.back(),
          "more than " + std::to_string(Limits.MaxArgs) +
              " arguments after expansion");
    Out.Args.push_back(std::move(A));
    return Error::success();
  }

  Error expandFile(const std::string &At, unsigned Depth) {
    std::string Name = At.substr(1);
    if (Depth >= Limits.MaxDepth)
      return make_error<ResponseFileError>(
          Name, "nested more than " + std::to_string(Limits.MaxDepth) +
                    " levels deep (a cycle?)");
    SmallString<256> Path(Name);
    if (!sys::path::is_absolute(Path) && !WorkingDir.empty()) {
      Path = WorkingDir;
      sys::path::append(Path, Name);
    }
    if (!sys::fs::exists(Path)) {
      Out.Missing.push_back(Name);
      return push(At);
    }
    if (sys::fs::is_directory(Path))
      return make_error<ResponseFileError>(Name, "is a directory");
    uint64_t Size = 0;
    if (!sys::fs::file_size(Path, Size) && Size > Limits.MaxFileBytes)
      return make_error<ResponseFileError>(
          Name,
          "larger than " + std::to_string(Limits.MaxFileBytes) + " bytes");
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Buf)
      return make_error<ResponseFileError>(Name, Buf.getError().message());
    Out.Files.push_back(Name);

    // clang's ExpansionContext also accepts UTF-16 with a BOM and strips a
    // UTF-8 BOM; the UTF-8 BOM is the only one seen on Unix hosts.
    StringRef Text = (*Buf)->getBuffer();
    Text.consume_front("\xEF\xBB\xBF");

    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 64> Tokens;
    cl::TokenizeGNUCommandLine(Text, Saver, Tokens, /*MarkEOLs=*/false);
    std::vector<std::string> Nested(Tokens.begin(), Tokens.end());
    return expand(Nested, Depth + 1);
  }

  StringRef WorkingDir;
  const ResponseFileLimits &Limits;
  ExpandedArgs &Out;
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
