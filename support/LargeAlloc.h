//===- LargeAlloc.h - memory for the arrays of a long command line -*- C++ -*-===//
//
// A 100,000-argument @file makes three large arrays: its text (1.6 MB,
// split in place), the argument pointers (0.8 MB written of a reserve sized
// for the most words the text can hold) and the light arguments (0.4 MB).
// Each 4 KiB page of them is a page fault when first written, and on the
// VM scripts/bench runs on, a fresh page costs ~10 us: those pages were
// most of the step's time. There, writing 512 fresh 4 KiB pages took 5.0
// ms and one 2 MiB transparent huge page under 0.1 ms.
//
// So on Linux with 4 KiB pages, a request of LargeAllocThreshold bytes or
// more is its own anonymous mapping, 2 MiB aligned and advised
// MADV_HUGEPAGE: the kernel may back it with huge pages, one fault per
// 2 MiB (ordinary pages where THP is "never" or compiled out). Elsewhere,
// below the threshold, and under AddressSanitizer (which checks only
// what operator new hands out), this is operator new.
//
// What it costs:
//  - memory: a mapping is the request rounded up to 2 MiB, and a huge
//    page is resident whole once written. At 1 MiB or more a fully written
//    request is at most twice its size; a vector's reserve that is written
//    only in part (the pointers above) is resident up to the next 2 MiB.
//  - latency: with the kernel's default defrag setting ("madvise"), a
//    fault in an advised mapping may reclaim and compact memory to find a
//    huge page before falling back to small pages: on a host short of
//    free 2 MiB blocks, milliseconds once per huge page. Only command
//    lines of a megabyte or more come here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LINKGUARD_LARGE_ALLOC_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LINKGUARD_LARGE_ALLOC_ASAN 1
#endif

namespace linkguard {

/// Requests of this many bytes or more get their own (huge-page) mapping.
inline constexpr size_t LargeAllocThreshold = size_t{1} << 20;

/// The transparent huge page of x86-64 and arm64 with 4 KiB pages (the
/// kernel's HPAGE_PMD_SIZE there); other page sizes get no mappings.
inline constexpr size_t LargeAllocHugePage = size_t{2} << 20;

/// Whether allocateLarge(Bytes) maps memory of its own, advised for huge
/// pages, on this system.
inline bool mapsLarge(size_t Bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(LINKGUARD_LARGE_ALLOC_ASAN)
  static const bool FourKiBPages = ::sysconf(_SC_PAGESIZE) == 4096;
  return FourKiBPages && Bytes >= LargeAllocThreshold &&
         Bytes <= SIZE_MAX - 2 * LargeAllocHugePage;
#else
  (void)Bytes;
  return false;
#endif
}

/// The length of the mapping allocateLarge(Bytes) makes when mapsLarge.
inline size_t largeMappingSize(size_t Bytes) {
  return (Bytes + LargeAllocHugePage - 1) & ~(LargeAllocHugePage - 1);
}

/// Bytes of memory, as operator new would give them (throws
/// std::bad_alloc): zero-filled pages of a 2 MiB aligned mapping when
/// mapsLarge(Bytes).
inline void *allocateLarge(size_t Bytes) {
  if (!mapsLarge(Bytes))
    return ::operator new(Bytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Map one huge page more than needed, then unmap the unaligned head and
  // the tail: what is left starts on a 2 MiB boundary, as a huge page must.
  const size_t Len = largeMappingSize(Bytes);
  void *P = ::mmap(nullptr, Len + LargeAllocHugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    throw std::bad_alloc();
  char *const Start = static_cast<char *>(P);
  const size_t Head =
      (LargeAllocHugePage - reinterpret_cast<uintptr_t>(Start) % LargeAllocHugePage) %
      LargeAllocHugePage;
  char *const Aligned = Start + Head;
  if (Head > 0)
    ::munmap(Start, Head);
  if (const size_t Tail = LargeAllocHugePage - Head; Tail > 0)
    ::munmap(Aligned + Len, Tail);
  // Advice only: EINVAL where transparent huge pages are compiled out.
  ::madvise(Aligned, Len, MADV_HUGEPAGE);
  return Aligned;
#else
  return nullptr; // not reached: mapsLarge is false
#endif
}

/// Frees what allocateLarge(Bytes) returned, with the same Bytes.
inline void deallocateLarge(void *P, size_t Bytes) noexcept {
  if (!P)
    return;
  if (!mapsLarge(Bytes)) {
    ::operator delete(P);
    return;
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  ::munmap(P, largeMappingSize(Bytes));
#endif
}

/// A standard allocator over allocateLarge, for the arrays above.
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

} // namespace linkguard
