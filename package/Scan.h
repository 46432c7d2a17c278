//===- Scan.h - find Mach-O and ELF images embedded in a blob ----*- C++
//-*-===//
//
// ExecuTorch's AOTInductor backends (Metal, CUDA) keep the compiled model
// library inside the .pte program: AotiBackend.preprocess reads the .so
// and stores its bytes as named data "<method>_so_blob" (pytorch/executorch:
// backends/aoti/aoti_backend.py), serialize_pte_binary places named data in
// segments after the flatbuffer (exir/_serialize/_program.py), and the
// runtime writes the bytes back to a temporary file and dlopens it
// (backends/apple/metal/runtime/metal_backend.cpp). Nothing in the file
// says where the library starts, so the scanner looks for one.
//
// A candidate is a position holding a Mach-O (thin 32/64-bit either byte
// order, universal 32/64) or ELF magic whose header is plausible field by
// field (a known CPU type and file type, the right header and entry sizes,
// ELF's version 1 and zero padding); libObject must then accept the bytes
// from there, and every segment, section and table the image declares must
// end inside the blob. The image's extent is the furthest byte any of them
// reaches; scanning resumes after it, so slices of a universal image and
// anything embedded inside an image are not reported twice. Random data
// yields no image (the fuzzer and the unit tests assert it); the price is
// that a truncated or damaged embedded image is not found either.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace linkguard::package {

struct EmbeddedImage {
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

/// True when Head starts with a Mach-O, universal or ELF magic (what objlib
/// reads), as llvm::identify_magic classifies it (a Java class file, which
/// shares 0xcafebabe, is not).
bool hasBinaryMagic(llvm::StringRef Head);

/// The size of the image that starts at Data[0], or nullopt when Data does
/// not start with one (see the file comment for what counts).
std::optional<uint64_t> imageExtent(llvm::StringRef Data);

struct ScanResult {
  std::vector<EmbeddedImage> Images; // in file order, none inside another
  /// The scan stopped early: so many plausible headers that validating them
  /// all would cost more than a generous multiple of the file's size.
  bool Exhausted = false;
  /// The validation work spent, in the units of scanBudget.
  uint64_t Work = 0;
  /// The load commands libObject was handed to walk (the ncmds of every
  /// Mach-O header it read), counted apart from what was charged.
  uint64_t LoadCommands = 0;
};

/// What validating the candidates of a Size-byte blob may cost, in units of
/// about what the scan loop spends on one byte of random data: Size plus a
/// fixed allowance for the real images a small blob holds. A blob built to
/// hold a plausible header everywhere stops there (ScanResult::Exhausted)
/// instead of taking time quadratic in its size.
uint64_t scanBudget(uint64_t Size);

/// Every image inside Data. Consumed, when given, is told now and then how
/// far the scan has gone: bytes before that are not read again.
ScanResult
scanForImages(llvm::StringRef Data,
              llvm::function_ref<void(uint64_t UpTo)> Consumed = nullptr);

} // namespace linkguard::package
