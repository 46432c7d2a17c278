//===- Image.h - the bytes of one input, read only where needed --*- C++
//-*-===//
//
// Private to objlib. libObject wants the whole input as one contiguous
// buffer and reads it through pointers; objlib needs only a few small parts
// of it (headers, load commands and the link-edit tables that name imports),
// and must survive a file that is truncated while it is read.
//
// So a file is never mapped. An Image of a file is a private anonymous
// mapping of the file's size, zero-filled by the kernel, into which only the
// ranges the readers ask for are pread (load()). Pages nobody asks for cost
// neither I/O nor memory (inspect of a 117 MB dylib stays near the process's
// own few MB); bytes are owned, so truncation cannot raise SIGBUS: pread
// comes back short and load() returns an Unreadable ReadError. The
// alternative, mmap plus a SIGBUS handler that siglongjmps out of libObject,
// would skip destructors (leaks, undefined behaviour in C++) and install a
// process-wide handler from a library; it is not used. docs/reliability.md
// ("Reading a file") has the reasoning and the tests.
//
// The price: a byte libObject reads that no reader loaded reads as zero.
// Each reader therefore loads exactly what it (or the libObject call it
// makes next) touches, in the order it touches it, and the fuzzer
// (tests/fuzz/FuzzObjlib.cpp) compares every result with a read of the same
// bytes held whole in memory.
//
// An Image of a caller's buffer (readBinary(MemoryBufferRef, Name)) is that
// buffer; load() and release() do nothing.
//
// The mapping an Image of a file ends with is kept for the next one on the
// same thread (a tree's files are read one after the other): a fresh
// anonymous page costs a fault and the kernel's clear of it each, and the
// mapping an munmap (3 % of a tree's check, issue 36). It is handed on all
// zero, as a fresh one: the bytes reads wrote are cleared when it is given
// back (memset while they are few, MADV_DONTNEED of the whole mapping
// otherwise).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace linkguard::objlib {

class Image {
public:
  /// Opens Path once (no separate stat by name: the descriptor's fstat
  /// decides what it is) and reserves the mapping. Unreadable errors name the
  /// file.
  static llvm::Expected<std::unique_ptr<Image>> open(const std::string &Path);
  /// The same over FD, a descriptor of Path the caller opened for reading
  /// (a tree's walk, which read the file's first bytes through it): the
  /// Image owns it from here, and closes it on every path.
  static llvm::Expected<std::unique_ptr<Image>> adopt(int FD, const std::string &Path);
  /// A buffer the caller keeps alive for the Image's lifetime.
  static std::unique_ptr<Image> view(llvm::MemoryBufferRef Buffer);
  ~Image();
  Image(const Image &) = delete;
  Image &operator=(const Image &) = delete;

  llvm::MemoryBufferRef buffer() const;
  const uint8_t *data() const {
    return reinterpret_cast<const uint8_t *>(Base);
  }
  uint64_t size() const { return Size; }
  const std::string &name() const { return Name; }

  /// Makes [Offset, Offset + Length), clamped to the file, hold the file's
  /// bytes (whole pages are read; pages already read are not read again).
  llvm::Error load(uint64_t Offset, uint64_t Length);
  /// Gives back the memory of the whole pages inside [Offset, Offset +
  /// Length): they read as zero again until loaded again. For tables that
  /// are streamed through in windows.
  void release(uint64_t Offset, uint64_t Length);

private:
  Image() = default;
  llvm::Error readPages(uint64_t Begin, uint64_t End);
  /// Clears what reads wrote and keeps the mapping for the next Image.
  void giveBack();

  int FD = -1;          // -1 for a view
  char *Base = nullptr; // the mapping, or the viewed buffer
  uint64_t Size = 0;
  uint64_t Reserved = 0; // the mapping's length (>= Size when handed on)
  uint64_t Kept = 0;     // bytes cleared by memset before, still resident
  bool Released = false; // release() gave pages back
  std::vector<std::pair<uint64_t, uint64_t>> Written; // what pread wrote
  std::string Name;
  std::map<uint64_t, uint64_t> Loaded; // loaded page runs: begin -> end
  uint64_t HitBegin = 0, HitEnd = 0;   // the run the last load() ended in
};

/// One object inside an Image: the whole file, or one universal slice at
/// Base. Offsets are relative to the slice and clamped to it.
struct SliceBytes {
  Image *Img = nullptr;
  uint64_t Base = 0;
  uint64_t Size = 0;

  llvm::Error load(uint64_t Offset, uint64_t Length) const {
    if (Offset >= Size)
      return llvm::Error::success();
    return Img->load(Base + Offset, std::min(Length, Size - Offset));
  }
  void release(uint64_t Offset, uint64_t Length) const {
    if (Offset < Size)
      Img->release(Base + Offset, std::min(Length, Size - Offset));
  }
  const uint8_t *data() const { return Img->data() + Base; }
  /// For a table read front to back in windows, from From: gives back the
  /// pages read so far up to End, and moves From so that the page End falls
  /// in, shared with the next window, is given back with that window.
  void releaseRead(uint64_t &From, uint64_t End) const {
    release(From, End - From);
    From = std::max(From, End > 4096 ? End - 4096 : 0);
  }
};

} // namespace linkguard::objlib
