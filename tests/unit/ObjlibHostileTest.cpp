//===- ObjlibHostileTest.cpp - objlib on crafted and changing inputs ------===//
//
// The defects of issue 12's "Crafted binaries" section that show in-process:
// a bind table that loops 2^62 times, a file truncated while it is read,
// weak-lookup symbols listed twice; and the promise that reading a file
// (only the parts objlib needs, objlib/Image.h) and reading the same bytes
// from memory give the same answer. The sparse multi-GB chained-fixups
// case needs a memory limit and a clock: tests/e2e/inspect_malformed.bash.
//
//===----------------------------------------------------------------------===//
#include "objlib/Image.h"
#include "tests/unit/support/ObjlibFixtures.h"

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <thread>
#include <utility>
#include <unistd.h>

using namespace linkguard::objlib;
using namespace linkguard::testsupport;
using namespace llvm;

namespace {

std::string yamlFixture(StringRef Name, StringRef Out) {
  std::string Yaml =
      std::string(LINKGUARD_SOURCE_DIR) + "/tests/yaml/" + Name.str() + ".yaml";
  REQUIRE(
      fixtures().run({BinDir + "/yaml2obj", Yaml, "-o", fixtures().path(Out)}));
  return fixtures().path(Out);
}

bool hasWarning(const Slice &S, StringRef Needle) {
  for (const std::string &W : S.Warnings)
    if (StringRef(W).contains(Needle))
      return true;
  return false;
}

} // namespace

TEST_CASE("objlib: a bind loop of 2^62 entries is refused before libObject "
          "runs it",
          "[objlib][hostile]") {
  REQUIRE_TOOLCHAIN();
  // LLVM 19 checks all 2^62 addresses before the first entry (issue 12).
  BinaryInfo Info = readOk(yamlFixture("bind_times_skip", "bts.dylib"));
  const Slice &S = Info.Slices[0];
  CHECK(hasWarning(S, "BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB"));
  CHECK(hasWarning(S, "not decoded"));
  REQUIRE(S.Dependencies.size() == 2);
  // Nothing proves either library unused any more.
  for (const Dependency &D : S.Dependencies)
    CHECK(D.IsReferenced == Referenced::Unknown);
}

TEST_CASE("objlib: weak-lookup imports are recorded once", "[objlib]") {
  REQUIRE_TOOLCHAIN();
  // libc++ exports a weak definition the image uses: lld binds it by weak
  // lookup (chained ordinal -3; weak-bind plus a regular bind with
  // opcodes), and the undefined nlist names libc++.
  fixtures().write(
      "cxx/libc++.tbd",
      "--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-macos ]\n"
      "install-name: '/usr/lib/libc++.1.dylib'\ncurrent-version: 1\n"
      "exports:\n  - targets: [ arm64-macos ]\n    symbols: [ __Znwm ]\n"
      "    weak-symbols: [ __ZNSt3__14wdefEv ]\n...\n");
  fixtures().write("weak.cpp",
                   "namespace std { inline namespace __1 { int wdef(); } }\n"
                   "extern \"C\" int k() { return std::wdef(); }\n");
  for (const auto &[Style, Flags] : Styles) {
    std::string Out = std::string("weak.") + Style + ".dylib";
    REQUIRE(fixtures().link(
        Out, "weak.cpp",
        plus({"-shared", "-L" + fixtures().path("cxx"), "-lc++"}, Flags)));
    const Slice S = readOk(fixtures().path(Out)).Slices[0];
    const Dependency *Cxx = findDep(S, "libc++");
    REQUIRE(Cxx);
    INFO(Style);
    CHECK(hasImport(S.WeakLookupImports, "__ZNSt3__14wdefEv"));
    // Never again under libc++ from the symbol table: the tables bound it.
    for (const Import &I : Cxx->Imports)
      CHECK_FALSE(I.Source == BindSource::Nlist);
    // The definition was found in libc++: it is still needed.
    CHECK(Cxx->IsReferenced == Referenced::Yes);
    CHECK(S.Warnings.empty());
  }
}

TEST_CASE("objlib: reading a file equals reading its bytes from memory",
          "[objlib]") {
  REQUIRE_TOOLCHAIN();
  REQUIRE(fixtures().link("mem.dylib", "use_omp.cpp", {"-shared", "-lomp"}));
  REQUIRE(fixtures().link("mem.x86.dylib", "dyn.cpp",
                          {"-shared", "-undefined", "dynamic_lookup",
                           "-Wl,-weak-lfoo", "-lomp", "-Wl,-fixup_chains"},
                          "x86_64"));
  REQUIRE(fixtures().run({BinDir + "/llvm-lipo", "-create",
                          fixtures().path("mem.dylib"),
                          fixtures().path("mem.x86.dylib"), "-output",
                          fixtures().path("mem.fat.dylib")}));
  for (const char *Name : {"mem.dylib", "mem.x86.dylib", "mem.fat.dylib"}) {
    INFO(Name);
    std::string Path = fixtures().path(Name);
    auto Buf = MemoryBuffer::getFile(Path);
    REQUIRE(Buf);
    BinaryInfo FromFile = readOk(Path);
    Expected<BinaryInfo> FromMemory =
        readBinary((*Buf)->getMemBufferRef(), "member.dylib");
    REQUIRE(static_cast<bool>(FromMemory));
    CHECK(FromMemory->Path == "member.dylib");
    REQUIRE(FromMemory->Slices.size() == FromFile.Slices.size());
    for (size_t I = 0; I < FromFile.Slices.size(); ++I) {
      const Slice &A = FromFile.Slices[I], &B = FromMemory->Slices[I];
      CHECK(A.Arch == B.Arch);
      REQUIRE(A.Dependencies.size() == B.Dependencies.size());
      for (size_t J = 0; J < A.Dependencies.size(); ++J) {
        CHECK(A.Dependencies[J].Name == B.Dependencies[J].Name);
        CHECK(A.Dependencies[J].IsReferenced == B.Dependencies[J].IsReferenced);
        CHECK(A.Dependencies[J].Imports.size() ==
              B.Dependencies[J].Imports.size());
      }
      CHECK(A.DynamicLookupImports.size() == B.DynamicLookupImports.size());
      CHECK(A.Warnings == B.Warnings);
    }
  }
}

TEST_CASE("objlib: a file that shrinks after it was opened is unreadable",
          "[objlib][hostile]") {
  REQUIRE_TOOLCHAIN();
  REQUIRE(fixtures().link("shrink.dylib", "use_omp.cpp", {"-shared", "-lomp"}));
  std::string Path = fixtures().path("shrink.dylib");
  uint64_t Size = 0;
  REQUIRE_FALSE(sys::fs::file_size(Path, Size));
  Expected<std::unique_ptr<Image>> Img = Image::open(Path);
  REQUIRE(static_cast<bool>(Img));
  REQUIRE(::truncate(Path.c_str(), 4096) == 0);
  CHECK_FALSE(static_cast<bool>((*Img)->load(0, 4096)));
  Error E = (*Img)->load(Size - 64, 64); // __LINKEDIT is at the end
  REQUIRE(static_cast<bool>(E));
  std::string Msg;
  ReadErrorKind Kind = ReadErrorKind::Malformed;
  handleAllErrors(std::move(E), [&](const ReadError &R) {
    Kind = R.kind();
    Msg = R.message();
  });
  CHECK(Kind == ReadErrorKind::Unreadable);
  CHECK(StringRef(Msg).contains("shrank"));
}

TEST_CASE("objlib: reading races a writer that truncates the file",
          "[objlib][hostile]") {
  REQUIRE_TOOLCHAIN();
  // Before: the file was mapped, and a page past the new end raised SIGBUS,
  // killing this process. Now every read ends in a BinaryInfo or an
  // Unreadable/Malformed error.
  REQUIRE(fixtures().link("race.src.dylib", "use_omp.cpp",
                          {"-shared", "-lomp", "-Wl,-fixup_chains"}));
  auto Src = MemoryBuffer::getFile(fixtures().path("race.src.dylib"));
  REQUIRE(Src);
  StringRef Bytes = (*Src)->getBuffer();
  REQUIRE(Bytes.size() > 16384); // big enough for MemoryBuffer to mmap it
  std::string Path = fixtures().path("race.dylib");
  int FD = ::open(Path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(FD >= 0);
  std::atomic<bool> Stop{false};
  std::thread Writer([&] {
    while (!Stop) {
      if (::pwrite(FD, Bytes.data(), Bytes.size(), 0) < 0 ||
          ::ftruncate(FD, 4096) != 0)
        break;
    }
  });
  unsigned Read = 0, Unreadable = 0, Malformed = 0;
  for (int I = 0; I < 4000; ++I) {
    Expected<BinaryInfo> Info = readBinary(Path);
    if (Info) {
      ++Read;
      continue;
    }
    handleAllErrors(Info.takeError(), [&](const ReadError &E) {
      (E.kind() == ReadErrorKind::Unreadable ? Unreadable : Malformed) += 1;
      CHECK(E.kind() != ReadErrorKind::Unsupported);
    });
  }
  Stop = true;
  Writer.join();
  ::close(FD);
  INFO("read " << Read << ", unreadable " << Unreadable << ", malformed "
               << Malformed);
  CHECK(Read + Unreadable + Malformed == 4000);
}

TEST_CASE("objlib: an Image's mapping is handed on all zero", "[objlib]") {
  // Image keeps the mapping of a file it read for the next file (issue 36):
  // a byte no reader loaded must still read as zero, whatever the last file
  // held there. Both ways of clearing: a few pages (memset) and more than
  // the pages kept resident, or some given back already (MADV_DONTNEED).
  for (auto [Size, Release] : {std::pair<uint64_t, bool>{uint64_t(64) << 10, false},
                               {uint64_t(6) << 20, false},
                               {uint64_t(64) << 10, true}}) {
    INFO(Size << (Release ? ", part released" : ""));
    std::string Full = fixtures().path("ones.bin"), Empty = fixtures().path("zeros.bin");
    fixtures().write("ones.bin", std::string(Size, '\xff'));
    fixtures().write("zeros.bin", std::string(Size, '\0'));
    {
      Expected<std::unique_ptr<Image>> A = Image::open(Full);
      REQUIRE(static_cast<bool>(A));
      REQUIRE_FALSE(static_cast<bool>((*A)->load(0, Size)));
      REQUIRE(static_cast<unsigned char>((*A)->data()[Size - 1]) == 0xff);
      if (Release)
        (*A)->release(8192, 16384); // a streamed table's window given back
    }
    fixtures().write("ones.bin", std::string(Size, '\x01')); // another file's bytes
    Expected<std::unique_ptr<Image>> B = Image::open(Full);
    REQUIRE(static_cast<bool>(B));
    // Nothing loaded yet: every byte reads as zero, not as the last file's.
    const uint8_t *D = (*B)->data();
    size_t NonZero = 0;
    for (uint64_t I = 0; I < Size; ++I)
      NonZero += D[I] != 0;
    CHECK(NonZero == 0);
    REQUIRE_FALSE(static_cast<bool>((*B)->load(4096, 4096)));
    CHECK(D[4096] == 1);
    CHECK(D[0] == 0);
    CHECK(D[8192] == 0);
  }
}

TEST_CASE("objlib: an ELF file read without imports equals its bytes read from memory",
          "[objlib]") {
  // Without imports, objlib loads neither .dynsym nor .gnu.version, and
  // .gnu.version_r only for VersionNeeds (objlib/ELFLoad.cpp): what the
  // reader then reads must all be loaded.
  REQUIRE_TOOLCHAIN();
  fixtures().write("noimp.c", "#include <math.h>\n#include <stdio.h>\n"
                              "double k(double x) { printf(\"%f\", x); return cos(x); }\n");
  if (!fixtures().run({BinDir + "/clang", "-shared", "-fPIC", fixtures().path("noimp.c"), "-lm",
                       "-Wl,-rpath,$ORIGIN/../lib", "-Wl,-soname,libnoimp.so.1", "-o",
                       fixtures().path("libnoimp.so")})) {
    WARN("no host ELF link: not run");
    return;
  }
  std::string Path = fixtures().path("libnoimp.so");
  auto Buf = MemoryBuffer::getFile(Path);
  REQUIRE(Buf);
  for (bool Needs : {false, true}) {
    INFO(Needs);
    ReadOptions O;
    O.Imports = false;
    O.VersionNeeds = Needs;
    Expected<BinaryInfo> FromFile = readBinary(Path, O);
    REQUIRE(static_cast<bool>(FromFile));
    const BinaryInfo &File = *FromFile;
    Expected<BinaryInfo> Memory = readBinary((*Buf)->getMemBufferRef(), Path, O);
    REQUIRE(static_cast<bool>(Memory));
    REQUIRE(File.Slices.size() == 1);
    REQUIRE(Memory->Slices.size() == 1);
    const Slice &A = File.Slices[0], &B = Memory->Slices[0];
    CHECK(A.InstallName == "libnoimp.so.1");
    CHECK(A.InstallName == B.InstallName);
    REQUIRE(A.Dependencies.size() == B.Dependencies.size());
    CHECK(A.Dependencies.size() >= 2);
    for (size_t J = 0; J < A.Dependencies.size(); ++J)
      CHECK(A.Dependencies[J].Name == B.Dependencies[J].Name);
    REQUIRE(A.SearchPaths.size() == 1);
    CHECK(A.SearchPaths[0].Path == "$ORIGIN/../lib");
    CHECK(A.VersionNeeds == B.VersionNeeds);
    CHECK(A.VersionNeeds.empty() == !Needs);
    CHECK(A.Warnings == B.Warnings);
  }
}
