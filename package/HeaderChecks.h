//===- HeaderChecks.h - headers read by hand, before libObject --*- C++ -*-===//
//
// The cheap half of the scan (Scan.h): whether the bytes at a position
// could start a Mach-O, universal or ELF image, decided field by field from
// the header alone, and how far an ELF image's tables reach. Only a
// candidate that passes is handed to libObject (Scan.cpp). Private to
// package/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace linkguard::package {

/// The smallest header any candidate has (a 32-bit Mach-O header). The
/// checks below read only that much before they know the size they need.
constexpr size_t MinHeader = 28;

/// What validating candidates may cost, in units of about 64 bytes read.
struct WorkBudget {
  uint64_t Left;
  bool Exhausted = false;
  bool spend(uint64_t N) {
    if (N > Left) {
      Exhausted = true;
      return false;
    }
    Left -= N;
    return true;
  }
};

/// End = max(End, Off + Size) for a non-empty range; overflow means "not an
/// image". An empty range (a count of zero) says nothing about its offset.
bool reach(uint64_t &End, uint64_t Off, uint64_t Size);

/// mach_header(_64) with a known CPU type and file type and load commands
/// that fit (D holds at least MinHeader bytes).
bool plausibleMachO(llvm::StringRef D);

/// fat_header and fat_arch(_64) records with known CPU types.
bool plausibleFat(llvm::StringRef D);

/// Elf32_Ehdr / Elf64_Ehdr of an object, executable or shared object.
bool plausibleELF(llvm::StringRef D);

/// The furthest byte an ELF image's header, program headers and sections
/// reach, read by hand: libObject reads ELF only from aligned memory, and
/// the copy that lets it must know how many bytes to take. D passed
/// plausibleELF.
std::optional<uint64_t> elfHeaderExtent(llvm::StringRef D, WorkBudget &Budget);

} // namespace linkguard::package
