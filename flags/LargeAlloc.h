//===- LargeAlloc.h - memory for the vectors of a long command line -*- C++ -*-===//
//
// A 100,000-argument @file makes three large arrays: its text (1.6 MB,
// split in place), the argument pointers (0.8 MB) and the light arguments
// (0.4 MB). Each 4 KiB page of them is a page fault when first written,
// and on the VM scripts/bench runs on a fault costs ~11 us: those pages
// were most of the step's time. On Linux a request of LargeAllocThreshold
// bytes or more is its own anonymous mapping, 2 MiB aligned and advised
// MADV_HUGEPAGE, so that the kernel can back it with transparent huge
// pages: one fault per 2 MiB. Measured there: writing 512 fresh pages took
// 5.0 ms as 4 KiB pages and under 0.1 ms as one huge page.
//
// Only an advice: with transparent huge pages "never", no free huge page,
// or another system, the mapping is ordinary memory (and on other systems,
// or below the threshold, this is operator new). Memory is rounded up to
// 2 MiB, so nothing small comes here: a command line of a few hundred
// arguments never reaches the threshold.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <vector>

namespace linkguard::flags {

/// Requests of this many bytes or more get their own (huge-page) mapping.
inline constexpr size_t LargeAllocThreshold = size_t{256} * 1024;

/// Bytes of memory, as operator new would give them (throws
/// std::bad_alloc). Bytes >= LargeAllocThreshold: a 2 MiB aligned mapping
/// advised for transparent huge pages, where the system has them.
void *allocateLarge(size_t Bytes);
/// Frees what allocateLarge(Bytes) returned, with the same Bytes.
void deallocateLarge(void *P, size_t Bytes) noexcept;

/// Whether allocateLarge(Bytes) maps memory of its own (and advises huge
/// pages) on this system.
bool mapsLarge(size_t Bytes);

/// A standard allocator over allocateLarge, for the containers above.
template <class T> struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <class U> LargeAllocator(const LargeAllocator<U> &) noexcept {}
  T *allocate(size_t N) {
    if (N > static_cast<size_t>(-1) / sizeof(T))
      throw std::bad_array_new_length();
    return static_cast<T *>(allocateLarge(N * sizeof(T)));
  }
  void deallocate(T *P, size_t N) noexcept {
    deallocateLarge(static_cast<void *>(P), N * sizeof(T));
  }
  template <class U> bool operator==(const LargeAllocator<U> &) const noexcept { return true; }
  template <class U> bool operator!=(const LargeAllocator<U> &) const noexcept { return false; }
};

/// The text of a response file.
using LargeText = std::basic_string<char, std::char_traits<char>, LargeAllocator<char>>;
/// Argument strings as the option parser takes them.
using ArgVector = std::vector<const char *, LargeAllocator<const char *>>;

} // namespace linkguard::flags
