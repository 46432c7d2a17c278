//===- Reader.h - open a binary and decode its dependencies ------*- C++
//-*-===//
#pragma once

#include "objlib/BinaryInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <functional>
#include <string>
#include <vector>

namespace linkguard::objlib {

/// Kinds of failure, so the CLI can map them to distinct exit codes.
enum class ReadErrorKind {
  Unreadable,
  Malformed,
  Unsupported,
  Last = Unsupported
};
const char *
readErrorKindName(ReadErrorKind K); // "unreadable", "malformed", ...

/// An llvm::ErrorInfo carrying a ReadErrorKind and a message that names the
/// file and the fault ("k.dylib: load command 7 extends past end of file").
class ReadError : public llvm::ErrorInfo<ReadError> {
public:
  static char ID;
  ReadError(ReadErrorKind Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}
  ReadErrorKind kind() const { return Kind; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  ReadErrorKind Kind;
  std::string Message;
};

/// What a read keeps besides the dependencies and their answers.
struct ReadOptions {
  /// When set, only the dependencies it accepts (by install name or
  /// DT_NEEDED string) keep their lists of imports; the others still get
  /// ImportCount and IsReferenced, decided from the same tables. A verifier
  /// judging libomp need not hold the 10,000 names bound to other
  /// libraries: on this project's VM, building them was a quarter of a
  /// verify (issue 14). The other lists of a Slice are always kept.
  std::function<bool(llvm::StringRef DependencyName)> ListImportsOf;

  /// false: no import table is read at all (bind opcodes, chained fixups,
  /// symbol tables, ELF symbol versions): only the headers, load commands
  /// and dynamic section, and every dependency's IsReferenced is Unknown.
  /// For a caller that needs names and search paths only (the load
  /// closure of a tree, shipment/): its cost is then linear in the load
  /// commands' bytes.
  bool Imports = true;
  /// With Imports false, still read .gnu.version_r into
  /// Slice::VersionNeeds (ELF; one section, bounded by its size).
  bool VersionNeeds = false;
  /// Read each slice's strong exported definitions into Slice::Exports
  /// (objlib/Exports.cpp): ELF .dynsym, a Mach-O export trie or, without
  /// one, its symbol table. ExportsAmong, when not empty: only whether
  /// the image defines these names (a caller asking about a few): a
  /// Mach-O trie is looked up for each, not walked.
  bool Exports = false;
  std::vector<std::string> ExportsAmong;
  bool listsImportsOf(llvm::StringRef DependencyName) const {
    return !ListImportsOf || ListImportsOf(DependencyName);
  }
};

/// Whether llvm::identify_magic's M names a format readBinary reads: thin
/// Mach-O of any file type, universal, or ELF.
bool isBinaryMagic(llvm::file_magic M);

/// Reads Mach-O (thin or universal, every slice) or ELF. Never prints.
/// Opens Path once and reads only the headers, load commands and the
/// tables that name imports (objlib/Image.h); a file that shrinks while it
/// is read is Unreadable, never a signal.
llvm::Expected<BinaryInfo> readBinary(const std::string &Path,
                                      const ReadOptions &Options = {});

/// The same through FD, a descriptor of Path open for reading, which the
/// read owns from here (closed on every path): a tree's walk hands over
/// the descriptor it read the file's first bytes through.
llvm::Expected<BinaryInfo> readBinary(int FD, const std::string &Path,
                                      const ReadOptions &Options = {});

/// The same over bytes already in memory (a member of a zip archive, an
/// image found inside a blob). Name is used in messages and as
/// BinaryInfo::Path; Buffer must outlive the call only.
llvm::Expected<BinaryInfo> readBinary(llvm::MemoryBufferRef Buffer,
                                      llvm::StringRef Name,
                                      const ReadOptions &Options = {});

} // namespace linkguard::objlib
