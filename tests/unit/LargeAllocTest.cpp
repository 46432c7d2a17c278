// support/LargeAlloc: a large request is a 2 MiB aligned mapping the kernel is
// told it may back with huge pages (read back from /proc/self/smaps), a
// small one is ordinary memory, and the containers built on it keep their
// contents across growth; a long @file is read into such memory.
#include "support/LargeAlloc.h"
#include "flags/Classify.h"
#include "flags/ResponseFiles.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/TempTree.h"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

using namespace linkguard;
using namespace linkguard::flags;

namespace {

constexpr size_t TwoMiB = size_t(2) << 20;

struct Mapping {
  bool Found = false;
  uintptr_t Begin = 0, End = 0;
  std::string VmFlags; // "VmFlags: rd wr mr mw me ac hg" (proc(5))
};

/// The mapping of /proc/self/smaps that contains Addr.
Mapping mappingAt(const void *Addr) {
  std::ifstream Smaps("/proc/self/smaps");
  std::string Line;
  Mapping M;
  bool In = false;
  const auto A = reinterpret_cast<uintptr_t>(Addr);
  while (std::getline(Smaps, Line)) {
    // A mapping's first line: "7f...-7f... rw-p 00000000 00:00 0".
    size_t Dash = Line.find('-');
    if (Dash != std::string::npos && Dash > 0 && Line.find(' ') > Dash &&
        std::isxdigit(static_cast<unsigned char>(Line[0]))) {
      if (In)
        break;
      uintptr_t Begin = std::stoull(Line.substr(0, Dash), nullptr, 16);
      uintptr_t End = std::stoull(Line.substr(Dash + 1), nullptr, 16);
      In = Begin <= A && A < End;
      if (In)
        M = {true, Begin, End, ""};
      continue;
    }
    if (In && Line.rfind("VmFlags:", 0) == 0)
      M.VmFlags = Line;
  }
  return M;
}

/// Ends the test as skipped where this system makes no such mappings, or
/// /proc/self/smaps does not say what they are (some sandboxes).
void requireLargeMappings(size_t Bytes) {
#if !defined(__linux__)
  testsupport::skipTest("huge-page mappings are made on Linux only");
#endif
  if (!mapsLarge(Bytes))
    testsupport::skipTest("no huge-page mappings here (AddressSanitizer build, or pages not 4 KiB)");
  int Probe = 0;
  if (mappingAt(&Probe).VmFlags.empty())
    testsupport::skipTest("/proc/self/smaps has no VmFlags for the stack here");
}

/// The memory at P is a mapping of its own from P on, advised for huge
/// pages (proc(5): "hg"), of exactly largeMappingSize(Bytes).
void checkLargeMapping(const void *P, size_t Bytes) {
  Mapping M = mappingAt(P);
  INFO("smaps: " << M.VmFlags);
  REQUIRE(M.Found);
  CHECK(reinterpret_cast<uintptr_t>(P) % TwoMiB == 0);
  CHECK(M.VmFlags.find(" hg") != std::string::npos);
  // Exactly the rounded request: the head and tail mapped for the
  // alignment are unmapped (no neighbour has "hg" to merge with).
  CHECK(M.Begin == reinterpret_cast<uintptr_t>(P));
  CHECK(M.End == reinterpret_cast<uintptr_t>(P) + largeMappingSize(Bytes));
}

} // namespace

TEST_CASE("a large request is a 2 MiB aligned mapping advised for huge pages",
          "[largealloc]") {
  const size_t Bytes = TwoMiB + 12345; // two huge pages
  requireLargeMappings(Bytes);
  auto *P = static_cast<unsigned char *>(allocateLarge(Bytes));
  REQUIRE(P != nullptr);
  // Zero-filled and writable over the whole request.
  CHECK(P[0] == 0);
  CHECK(P[Bytes - 1] == 0);
  std::memset(P, 0xA5, Bytes);
  CHECK(P[Bytes - 1] == 0xA5);
  checkLargeMapping(P, Bytes);
  CHECK(largeMappingSize(Bytes) == 2 * TwoMiB);
  deallocateLarge(P, Bytes);
  // Unmapped: the address is in no advised mapping any more.
  Mapping After = mappingAt(P);
  CHECK((!After.Found || After.VmFlags.find(" hg") == std::string::npos));
}

TEST_CASE("a small request is ordinary memory", "[largealloc]") {
  CHECK_FALSE(mapsLarge(LargeAllocThreshold - 1));
  CHECK_FALSE(mapsLarge(0));
  void *P = allocateLarge(100);
  REQUIRE(P != nullptr);
  std::memset(P, 1, 100);
  deallocateLarge(P, 100);
  deallocateLarge(nullptr, 100); // as operator delete(nullptr)
}

TEST_CASE("containers on LargeAllocator keep their contents as they grow past the threshold",
          "[largealloc]") {
  ArgVector V;
  const size_t N = 3 * LargeAllocThreshold / sizeof(const char *);
  for (size_t I = 0; I < N; ++I)
    V.push_back(reinterpret_cast<const char *>(I));
  bool Same = true;
  for (size_t I = 0; I < N; ++I)
    Same &= V[I] == reinterpret_cast<const char *>(I);
  CHECK(Same);
  LargeText T;
  for (size_t I = 0; I < LargeAllocThreshold + 7; ++I)
    T.push_back(static_cast<char>('a' + I % 26));
  CHECK(T.size() == LargeAllocThreshold + 7);
  CHECK(T.c_str()[T.size()] == '\0');
  CHECK(T[LargeAllocThreshold + 6] == static_cast<char>('a' + (LargeAllocThreshold + 6) % 26));
  LargeText Moved = std::move(T);
  CHECK(Moved.size() == LargeAllocThreshold + 7);
}

namespace {

/// ~1.4 MB of text: 80,000 defines and the step's own words.
std::string writeLongResponseFile(const testsupport::TempTree &Tree) {
  std::string Text;
  for (int I = 0; I < 80000; ++I)
    Text += "-DMACRO_" + std::to_string(I) + "=1\n";
  Text += "-c\nk.cpp\n-o\nk.o\n";
  REQUIRE(Text.size() >= LargeAllocThreshold);
  return Tree.file("big.rsp", Text);
}

} // namespace

TEST_CASE("a long @file is read whole and classified", "[largealloc][rsp]") {
  testsupport::TempTree Tree;
  std::string Rsp = writeLongResponseFile(Tree);
  llvm::Expected<ExpandedArgs> E = expandResponseFiles({"@" + Rsp}, "");
  REQUIRE(static_cast<bool>(E));
  REQUIRE(E->Args.size() == 80004);
  CHECK(std::string(E->Args[0]) == "-DMACRO_0=1");
  CHECK(std::string(E->Args[79999]) == "-DMACRO_79999=1");
  CHECK(std::string(E->Args[80003]) == "k.o");
  auto C = classify({"@" + Rsp}, ClassifyOptions{});
  REQUIRE(static_cast<bool>(C));
  CHECK(C->Ph == Phase::Compile);
  CHECK(C->Defines.size() == 80000);
  CHECK(C->isDefined("MACRO_79999"));
}

TEST_CASE("a long @file's text and argument pointers are in huge-page mappings",
          "[largealloc][rsp]") {
  requireLargeMappings(LargeAllocThreshold); // before the tree: a skip exits
  testsupport::TempTree Tree;
  std::string Rsp = writeLongResponseFile(Tree);
  llvm::Expected<ExpandedArgs> E = expandResponseFiles({"@" + Rsp}, "");
  REQUIRE(static_cast<bool>(E));
  REQUIRE(E->Storage->Texts.size() == 1);
  checkLargeMapping(E->Storage->Texts[0]->data(), E->Storage->Texts[0]->capacity() + 1);
  checkLargeMapping(E->Args.data(), E->Args.capacity() * sizeof(const char *));
}
