// flags/LargeAlloc: a large request is a 2 MiB aligned mapping the kernel is
// told it may back with huge pages (read back from /proc/self/smaps), a
// small one is ordinary memory, and the containers built on it keep their
// contents across growth; a long @file is read into such memory.
#include "flags/LargeAlloc.h"
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

/// The VmFlags line of the mapping that begins at Start, "" if none does.
std::string vmFlagsOfMappingAt(const void *Start) {
  std::ifstream Smaps("/proc/self/smaps");
  std::string Line;
  bool In = false;
  while (std::getline(Smaps, Line)) {
    // A mapping's first line: "7f...-7f... rw-p 00000000 00:00 0".
    if (size_t Dash = Line.find('-');
        Dash != std::string::npos && Dash > 0 && Line.find(' ') > Dash &&
        std::isxdigit(static_cast<unsigned char>(Line[0]))) {
      In = std::stoull(Line.substr(0, Dash), nullptr, 16) ==
           reinterpret_cast<uintptr_t>(Start);
      continue;
    }
    if (In && Line.rfind("VmFlags:", 0) == 0)
      return Line;
  }
  return "";
}

} // namespace

TEST_CASE("a large request is a 2 MiB aligned mapping advised for huge pages",
          "[largealloc]") {
#if !defined(__linux__)
  testsupport::skipTest("transparent huge pages are Linux's");
#else
  const size_t Bytes = LargeAllocThreshold + 12345;
  REQUIRE(mapsLarge(Bytes));
  auto *P = static_cast<unsigned char *>(allocateLarge(Bytes));
  REQUIRE(P != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(P) % TwoMiB == 0);
  // Zero-filled and writable over the whole request.
  CHECK(P[0] == 0);
  CHECK(P[Bytes - 1] == 0);
  std::memset(P, 0xA5, Bytes);
  CHECK(P[Bytes - 1] == 0xA5);
  std::string Flags = vmFlagsOfMappingAt(P);
  INFO("smaps: " << Flags);
  REQUIRE_FALSE(Flags.empty());
  // "hg": MADV_HUGEPAGE (proc(5)). A kernel without transparent huge pages
  // refuses the advice; the memory is then ordinary and still correct.
  std::ifstream Thp("/sys/kernel/mm/transparent_hugepage/enabled");
  if (Thp)
    CHECK(Flags.find(" hg") != std::string::npos);
  deallocateLarge(P, Bytes);
  // Unmapped: no mapping begins there any more.
  CHECK(vmFlagsOfMappingAt(P).empty());
#endif
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

TEST_CASE("a long @file is read whole through large memory and classified",
          "[largealloc][rsp]") {
  testsupport::TempTree Tree;
  // ~600 KB of text, 40,000 defines and the step's own words.
  std::string Text;
  for (int I = 0; I < 40000; ++I)
    Text += "-DMACRO_" + std::to_string(I) + "=1\n";
  Text += "-c\nk.cpp\n-o\nk.o\n";
  REQUIRE(Text.size() >= LargeAllocThreshold);
  std::string Rsp = Tree.file("big.rsp", Text);
  llvm::Expected<ExpandedArgs> E = expandResponseFiles({"@" + Rsp}, "");
  REQUIRE(static_cast<bool>(E));
  REQUIRE(E->Args.size() == 40004);
  CHECK(std::string(E->Args[0]) == "-DMACRO_0=1");
  CHECK(std::string(E->Args[39999]) == "-DMACRO_39999=1");
  CHECK(std::string(E->Args[40003]) == "k.o");
#if defined(__linux__)
  // The text and the argument pointers are each in a mapping of their own.
  REQUIRE(E->Storage->Texts.size() == 1);
  CHECK(reinterpret_cast<uintptr_t>(E->Storage->Texts[0]->data()) % TwoMiB == 0);
  CHECK(reinterpret_cast<uintptr_t>(E->Args.data()) % TwoMiB == 0);
#endif
  auto C = classify({"@" + Rsp}, ClassifyOptions{});
  REQUIRE(static_cast<bool>(C));
  CHECK(C->Ph == Phase::Compile);
  CHECK(C->Defines.size() == 40000);
  CHECK(C->isDefined("MACRO_39999"));
}
