//===- LargeAlloc.cpp - 2 MiB aligned mappings advised for huge pages -----===//
#include "flags/LargeAlloc.h"

#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace linkguard::flags {

namespace {

/// The transparent huge page size of x86-64 and of arm64 with 4 KiB
/// pages (the kernel's HPAGE_PMD_SIZE there).
constexpr size_t HugePage = size_t(2) << 20;

size_t roundedUp(size_t Bytes) { return (Bytes + HugePage - 1) & ~(HugePage - 1); }

} // namespace

bool mapsLarge(size_t Bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  return Bytes >= LargeAllocThreshold && Bytes <= SIZE_MAX - 2 * HugePage;
#else
  (void)Bytes;
  return false;
#endif
}

void *allocateLarge(size_t Bytes) {
  if (!mapsLarge(Bytes))
    return ::operator new(Bytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Map one huge page more than needed, then unmap the unaligned head and
  // the tail: what is left starts on a 2 MiB boundary, as a huge page must.
  const size_t Len = roundedUp(Bytes);
  void *P = ::mmap(nullptr, Len + HugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    throw std::bad_alloc();
  char *const Start = static_cast<char *>(P);
  const size_t Head = (HugePage - reinterpret_cast<uintptr_t>(Start) % HugePage) % HugePage;
  char *const Aligned = Start + Head;
  if (Head > 0)
    ::munmap(Start, Head);
  if (const size_t Tail = HugePage - Head; Tail > 0)
    ::munmap(Aligned + Len, Tail);
  // Advice only: EINVAL where transparent huge pages are compiled out.
  ::madvise(Aligned, Len, MADV_HUGEPAGE);
  return Aligned;
#else
  return nullptr; // not reached: mapsLarge is false
#endif
}

void deallocateLarge(void *P, size_t Bytes) noexcept {
  if (!P)
    return;
  if (!mapsLarge(Bytes)) {
    ::operator delete(P);
    return;
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  ::munmap(P, roundedUp(Bytes));
#endif
}

} // namespace linkguard::flags
