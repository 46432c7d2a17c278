//===- FormatReaders.h - one reader per object format -----------*- C++ -*-===//
//
// Private to objlib: Reader.cpp opens the file and picks the format, then
// hands each Mach-O slice or the ELF file to the reader in its own file, the
// way llvm-readobj splits MachODumper.cpp and ELFDumper.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"
#include "objlib/Image.h"
#include "objlib/Reader.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace llvm::object {
class MachOObjectFile;
class ELFObjectFileBase;
} // namespace llvm::object

namespace linkguard::objlib {

/// Decodes one thin Mach-O image (a whole file or one universal slice), whose
/// header and load commands Bytes already holds; it loads the link-edit
/// tables it reads itself. FileName is used only in messages. Not const:
/// libObject's bind tables are non-const members.
llvm::Expected<Slice> readMachOSlice(llvm::object::MachOObjectFile &Obj,
                                     const SliceBytes &Bytes,
                                     llvm::StringRef FileName,
                                     const ReadOptions &Options);

/// Loads what ELFObjectFile::create reads: the ELF header, program headers
/// and section headers (ELFLoad.cpp).
llvm::Error loadELFHeaders(Image &Img);

/// Loads what readELFFile reads: the dynamic segment and section, the
/// dynamic string table, .dynsym, .gnu.version, .gnu.version_r and the
/// string tables they link to, as far as Options has them read
/// (ELFLoad.cpp).
llvm::Error loadELFTables(Image &Img, const llvm::object::ELFObjectFileBase &Obj,
                          const ReadOptions &Options);

/// Decodes an ELF file of any class and byte order.
llvm::Expected<Slice> readELFFile(const llvm::object::ELFObjectFileBase &Obj,
                                  llvm::StringRef FileName,
                                  const ReadOptions &Options);

/// Slice::Exports of a Mach-O image (ReadOptions::Exports, Exports.cpp);
/// loads the trie or symbol table it reads. An error: the file shrank.
llvm::Error readMachOExports(const llvm::object::MachOObjectFile &Obj,
                             const SliceBytes &Bytes, const ReadOptions &Options,
                             Slice &S);
/// The same for ELF, from .dynsym (loadELFTables loaded it).
void readELFExports(const llvm::object::ELFObjectFileBase &Obj,
                    const ReadOptions &Options, Slice &S);

/// One value of a header's file-type word and its printed name.
struct FileTypeName {
  uint32_t Value;
  const char *Name;
};

/// The name Names gives Value, or "<Field> <Value>" ("e_type 65024") for a
/// value it does not list (Names.cpp).
std::string fileTypeName(llvm::ArrayRef<FileTypeName> Names, uint32_t Value,
                         const char *Field);

inline llvm::Error makeReadError(ReadErrorKind Kind, const llvm::Twine &Msg) {
  return llvm::make_error<ReadError>(Kind, Msg.str());
}

} // namespace linkguard::objlib
