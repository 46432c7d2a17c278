/* shim: dyld's lsl/Allocator.h (an allocator for dyld's own process) reduced to what
   common/Array.h calls: page allocation for an overflowing OverflowSafeArray. */
#pragma once
#include <sys/mman.h>
#include <stddef.h>
#include <stdlib.h>
namespace lsl {
struct MemoryManager {
  static void *allocate_pages(size_t size) {
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) abort();
    return p;
  }
  static void deallocate_pages(void *p, size_t size) { munmap(p, size); }
};
}
