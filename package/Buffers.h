//===- Buffers.h - bytes that libObject can read, within a memory cap -*- C++
//-*-===//
//
// libObject reads ELF only from 8-byte aligned memory ("Insufficient
// alignment"), and an image found at an odd offset of a blob, or a stored
// zip member written without PyTorch's 64-byte padding, is not. Such bytes
// are copied: into one heap buffer up to a cap, beyond it into an unlinked
// temporary file that is mapped read-only, so a large member never costs
// more heap than the cap.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace linkguard::package {

/// Alignment every buffer handed to objlib has.
constexpr uintptr_t ImageAlignment = 16;

inline bool isImageAligned(llvm::StringRef Data) {
  return reinterpret_cast<uintptr_t>(Data.data()) % ImageAlignment == 0;
}

/// A descriptor of a new temporary file that no directory names any more
/// (removed when the last descriptor or mapping closes). Mode 0600.
llvm::Expected<int> anonymousFile();

/// Maps the first Size bytes of FD read-only (closes nothing).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mapAnonymousFile(int FD, uint64_t Size, llvm::StringRef Name);

/// Data copied to aligned memory: the heap when it fits InMemoryCap, else
/// an anonymous temporary file, mapped.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
alignedCopy(llvm::StringRef Data, llvm::StringRef Name, uint64_t InMemoryCap);

/// Drops the whole pages of Range from this process's memory. Only for a
/// read-only mapping of a file (a later read fetches them from the file
/// again): inflating or scanning a large mapped archive then costs a window
/// of resident memory, not the archive's size.
void releaseFilePages(llvm::StringRef Range);

/// Writes all of Data to FD, retrying short writes and EINTR.
llvm::Error writeAll(int FD, llvm::StringRef Data);

} // namespace linkguard::package
