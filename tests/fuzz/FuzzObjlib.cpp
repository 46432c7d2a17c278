//===- FuzzObjlib.cpp - libFuzzer entry point for objlib::readBinary ------===//
//
// The bytes become a file and objlib::readBinary reads it, as `linkguard
// inspect`, `check` and the driver's verify step do with a link output.
// Seeds are small Mach-O (thin, universal, opcode and chained-fixup) and ELF
// binaries that scripts/fuzz links with the cross-link recipe of
// ../shared/README.md. readBinary must return a BinaryInfo or a ReadError
// (objlib/Reader.h), never crash, hang or allocate without bound.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "objlib/Reader.h"

using namespace linkguard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static fuzz::ScratchFile File(".bin");
  auto Info = objlib::readBinary(File.write(Data, Size));
  if (!Info) {
    // A ReadError is the only documented failure.
    llvm::handleAllErrors(Info.takeError(), [](const objlib::ReadError &) {});
    return 0;
  }
  return 0;
}
