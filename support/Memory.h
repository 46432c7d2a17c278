//===- Memory.h - how freed memory is kept while binaries are read -*- C++ -*-===//
//
// Reading a binary's import tables allocates and frees blocks of a few
// hundred KB, slice after slice (objlib's symbol map, its arena, the import
// lists). glibc serves blocks of 128 KB and more with mmap and unmaps them
// on free, so the next slice pays for fresh pages again: the kernel zeroes
// each one and, in a VM, the host backs it, which costs more than the work
// done in it (docs/reliability.md, "Where the time goes"). Keeping blocks
// below 32 MB on the heap lets the second slice reuse the first one's pages:
// checking a 106 MB universal dylib touched 896 pages, then 755.
//
// Not process-wide from main: a growing buffer on the heap is copied on
// each doubling where an mmapped one is mremapped in place, so the
// 100,000-argument @file step touched 1,486 pages with it, 1,290 without.
// So only the commands and steps that read binaries call this.
//
//===----------------------------------------------------------------------===//
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace linkguard {

inline void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

} // namespace linkguard
