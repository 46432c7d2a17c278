//===- ResponseFiles.h - @file expansion for classification -----*- C++ -*-===//
//
// clang reads `@file` arguments before parsing: the file's contents, split
// with GNU quoting rules (llvm::cl::TokenizeGNUCommandLine, as clang does on
// every non-Windows host), replace the argument, and nested @files are
// expanded too. linkguard expands them only to classify the command; the
// compiler is still executed with the original argv.
//
// linkguard reads an @file only when that cannot take anything from the
// compiler: a regular file (stat, then the opened descriptor), through
// pread() from offset 0, within the limits below. A pipe, FIFO, socket or
// device (@/dev/stdin, bash's @<(...), @/dev/zero) is never opened -- the
// compiler must be the one to read it -- and neither is a file past a
// limit. Such an @file is left in place and listed in Unread: the command is
// then only partly known, the rules decline (classify() records it among
// the unknown arguments) and the step runs unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/LargeAlloc.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"

#include <memory>
#include <string>
#include <vector>

namespace linkguard::flags {

/// A response file clang itself would fail on: a directory, one that cannot
/// be opened or read (no permission), or a missing one where clang would
/// read "@name" as an input file. The driver maps it to
/// ExitCode::BadResponseFile (67).
class ResponseFileError : public llvm::ErrorInfo<ResponseFileError> {
public:
  static char ID;
  ResponseFileError(std::string Path, std::string Reason)
      : Path(std::move(Path)), Reason(std::move(Reason)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;
  const std::string &path() const { return Path; }
  const std::string &reason() const { return Reason; }

private:
  std::string Path;
  std::string Reason;
};

/// Limits that keep a hostile or cyclic @file from hanging the wrapper or
/// taking its memory. Past one, the @file is not read (Unread).
struct ResponseFileLimits {
  unsigned MaxDepth = 32;                          // @file inside @file
  size_t MaxFileBytes = size_t{16} * 1024 * 1024;  // one file
  size_t MaxTotalBytes = size_t{64} * 1024 * 1024; // all files together
  size_t MaxFiles = 4096;                          // files read
  size_t MaxArgs = 1u << 20;                       // arguments after expansion
};

/// An @file left unexpanded, and why ("a pipe or FIFO: not read, the
/// compiler reads it", "larger than 16777216 bytes: not read").
struct UnreadResponseFile {
  std::string Name;
  std::string Reason;
};

/// The text ExpandedArgs::Args point into. Behind a unique_ptr, so moving
/// an ExpandedArgs moves no character.
struct ArgStorage {
  llvm::BumpPtrAllocator Alloc;  // copies: the caller's words, quoted tokens
  /// Files split in place: each string is the token's home, never resized
  /// or moved.
  std::vector<std::unique_ptr<LargeText>> Texts;
};

struct ExpandedArgs {
  /// The arguments with every @file read replaced, as the C strings clang's
  /// parser takes. They point into Storage: valid while this object lives,
  /// moved or not.
  ArgVector Args;
  /// Where each of the caller's arguments begins in Args: what an @file was
  /// replaced by runs from its Starts entry to the next one's.
  std::vector<size_t> Starts;
  std::vector<std::string> Files; // the files read, in order, as named
  /// "@name" arguments left in place because no file `name` exists.
  std::vector<std::string> Missing;
  /// "@name" arguments left in place because linkguard must not read them.
  std::vector<UnreadResponseFile> Unread;
  std::unique_ptr<ArgStorage> Storage; // set by expandResponseFiles
};

/// Splits the text of a response file, Text[Begin, Size), as
/// llvm::cl::TokenizeGNUCommandLine does (clang's rules on every non-Windows
/// host), appending the arguments to Tokens. Text[Size] must be a NUL (a
/// string's terminator). A text with no quote and no backslash -- the
/// usual @file, one word a line -- is split in place: each whitespace byte
/// becomes a NUL and the tokens point into Text, which must then outlive
/// them unmoved. Any other text is tokenized by LLVM itself into copies
/// kept in Saver. ResponseFilesTest compares the two on every shape of
/// input; tests/fuzz/FuzzClassify.cpp does so on fuzzed text.
void tokenizeResponseFile(char *Text, size_t Size, size_t Begin, llvm::StringSaver &Saver,
                          ArgVector &Tokens);

/// The same over a whole string (std::string or LargeText).
template <class Str>
void tokenizeResponseFile(Str &Text, size_t Begin, llvm::StringSaver &Saver,
                          ArgVector &Tokens) {
  tokenizeResponseFile(Text.data(), Text.size(), Begin, Saver, Tokens);
}

/// Expands every argument that starts with '@'. Relative names are read
/// from WorkingDir (or the current directory when empty); a nested @file
/// is resolved the same way, as clang 19's driver does (checked against
/// clang++-19 -###: nested names are not relative to the including file).
///
/// Like clang (and libiberty), an "@name" whose file does not exist is left
/// in place: `-install_name @rpath/libx.dylib` is a value, not a response
/// file. classify() reports it as a ResponseFileError only when it ends up
/// as an input file, which is where clang fails ("no such file or
/// directory: '@name'"). A directory, or a file that cannot be opened or
/// read, fails here; one that must not be read is left in place (Unread).
llvm::Expected<ExpandedArgs>
expandResponseFiles(llvm::ArrayRef<std::string> Args,
                    llvm::StringRef WorkingDir,
                    const ResponseFileLimits &Limits = {});

} // namespace linkguard::flags
