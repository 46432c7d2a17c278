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

/// What validating candidates may cost, in units of about what the scan
/// loop spends on one byte of a random blob (about 1.2 ns here: 2 MB in
/// 2.5 ms of CPU).
struct WorkBudget {
  uint64_t Left;
  bool Exhausted = false;
  uint64_t Spent = 0;
  /// Observed, not charged: the load commands libObject was handed (the
  /// ncmds of every Mach-O header it was asked to read).
  uint64_t LoadCommands = 0;
  bool spend(uint64_t N) {
    if (N > Left) {
      Exhausted = true;
      Spent += Left;
      Left = 0;
      return false;
    }
    Left -= N;
    Spent += N;
    return true;
  }
};

/// The prices, measured with the budget lifted on crafted blobs (the chain
/// of issue 28, headers every 32 bytes, segments of many sections; the
/// figures are in docs/reliability.md), rounded up: a libObject parse of a
/// Mach-O header that fails at once (about 150 ns), a load command or a
/// section visited by MachOObjectFile::create and again by machOExtent
/// (about 7 ns), one step of checkOverlappingElement's sorted std::list (about
/// 1 ns), an ELF program or section header read by hand and by libObject,
/// and the copy of an ELF candidate into aligned memory (a byte in 4).
constexpr uint64_t ParseUnits = 128;
constexpr uint64_t CommandUnits = 8;
constexpr uint64_t ListStepUnits = 1;
constexpr uint64_t ELFEntryUnits = 8;
constexpr uint64_t CopyBytesPerUnit = 4;
/// What a scan may spend beyond one unit per byte of the blob: ample for
/// the real images a small blob can hold.
constexpr uint64_t FixedUnits = uint64_t(1) << 18;

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
