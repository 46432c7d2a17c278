//===- FormatReaders.h - one reader per object format ------------*- C++
//-*-===//
//
// Private to objlib: Reader.cpp opens the file and picks the format, then
// hands each Mach-O slice or the ELF file to the reader in its own file, the
// way llvm-readobj splits MachODumper.cpp and ELFDumper.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"
#include "objlib/Reader.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace llvm::object {
class MachOObjectFile;
class ELFObjectFileBase;
} // namespace llvm::object

namespace linkguard::objlib {

/// Decodes one thin Mach-O image (a whole file or one universal slice).
/// FileName is used only in messages. Not const: libObject's bind tables are
/// non-const members.
llvm::Expected<Slice> readMachOSlice(llvm::object::MachOObjectFile &Obj,
                                     llvm::StringRef FileName);

/// Decodes an ELF file of any class and byte order.
llvm::Expected<Slice> readELFFile(const llvm::object::ELFObjectFileBase &Obj,
                                  llvm::StringRef FileName);

inline llvm::Error makeReadError(ReadErrorKind Kind, const llvm::Twine &Msg) {
  return llvm::make_error<ReadError>(Kind, Msg.str());
}

} // namespace linkguard::objlib
