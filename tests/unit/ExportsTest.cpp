//===- ExportsTest.cpp - objlib's strong exports (ReadOptions::Exports) ---===//
//
// What counts as a definer (issue 36 item 3, objlib/Exports.cpp): ELF
// .dynsym entries linked here by clang++-19 + ld.lld (strong, weak,
// protected, hidden, a hidden symbol version, TLS), Mach-O export tries
// from yaml2obj (weak, re-export, absolute), the nlist fallback (N_WEAK_DEF,
// N_PEXT), a trie whose nodes are shared (cut, never "defines nothing"),
// and the OpenMP runtime markers (libnames::familyMemberByExports).
//
//===----------------------------------------------------------------------===//
#include "libnames/LibraryNames.h"
#include "tests/unit/support/ObjlibFixtures.h"

#include "llvm/Object/MachO.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fstream>

using namespace linkguard;
using namespace linkguard::objlib;
using namespace linkguard::testsupport;
using namespace llvm;

namespace {

BinaryInfo readExports(const std::string &Path, std::vector<std::string> Among = {}) {
  ReadOptions O;
  O.Imports = false;
  O.Exports = true;
  O.ExportsAmong = std::move(Among);
  Expected<BinaryInfo> Info = readBinary(Path, O);
  if (!Info)
    FAIL("readBinary(" << Path << "): " << toString(Info.takeError()));
  REQUIRE(Info->Slices.size() == 1);
  return std::move(*Info);
}

std::string yamlFile(StringRef Name, StringRef Out) {
  std::string Yaml =
      std::string(LINKGUARD_SOURCE_DIR) + "/tests/yaml/" + Name.str() + ".yaml";
  REQUIRE(fixtures().run({BinDir + "/yaml2obj", Yaml, "-o", fixtures().path(Out)}));
  return fixtures().path(Out);
}

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("exports: ELF .dynsym's strong definitions of default or protected visibility",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  fixtures().write("elf_exports.cpp", R"(
extern "C" {
int strong_fn() { return 1; }
int strong_data = 2;
__thread int tls_counter;
__attribute__((weak)) int weak_fn() { return 3; }
__attribute__((visibility("protected"))) int protected_fn() { return 4; }
__attribute__((visibility("hidden"))) int hidden_fn() { return 5; }
int undefined_elsewhere();
int uses() { return undefined_elsewhere() + hidden_fn(); }
int old_impl() { return 6; }
int new_impl() { return 7; }
__asm__(".symver old_impl,compat@VER_1");
__asm__(".symver new_impl,compat@@VER_2");
}
)");
  fixtures().write("elf_exports.map", "VER_1 { global: compat; };\nVER_2 { global: *; };\n");
  const std::string Out = fixtures().path("libelf_exports.so");
  REQUIRE(fixtures().run({BinDir + "/clang++", "-target", "x86_64-linux-gnu", "-fPIC",
                          "-shared", "-nostdlib", "-fuse-ld=lld",
                          "-Wl,--version-script," + fixtures().path("elf_exports.map"),
                          "-Wl,--allow-shlib-undefined", fixtures().path("elf_exports.cpp"),
                          "-o", Out}));
  const Slice S = readExports(Out).Slices[0];
  CHECK(S.ExportsRead);
  CHECK(S.ExportsProblem.empty());
  // compat@VER_1 is a hidden version (only a reference naming VER_1 binds
  // it); compat@@VER_2 is the default one. The version names themselves
  // are absolute symbols: none.
  CHECK(S.Exports == Names{"compat", "new_impl", "old_impl", "protected_fn", "strong_data",
                           "strong_fn", "tls_counter", "uses"});
}

TEST_CASE("exports: a Mach-O export trie without weak definitions, re-exports and absolutes",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  const Slice S = readExports(yamlFile("export_flags", "export_flags.dylib")).Slices[0];
  CHECK(S.ExportsRead);
  CHECK(S.ExportsProblem.empty());
  CHECK(S.Exports == Names{"_a_strong"});
}

TEST_CASE("exports: without a trie, nlist's external definitions without N_WEAK_DEF or N_PEXT",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  const Slice S = readExports(yamlFile("exports_nlist", "exports_nlist.dylib")).Slices[0];
  CHECK(S.ExportsRead);
  CHECK(S.ExportsProblem.empty());
  CHECK(S.Exports == Names{"_strong_one"});
}

TEST_CASE("exports: a trie whose nodes are shared is cut, and says so", "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  // export_flags.dylib's 72-byte trie, replaced by 8 levels of one node
  // with two edges to the next ("a" and "b"), then a terminal: no loop,
  // 2^8 paths. A walk that followed them all would list 256 names from 69
  // bytes (and 2^n from 8n bytes); each node is entered once.
  const std::string Path = yamlFile("export_flags", "export_dag.dylib");
  std::vector<uint8_t> Trie;
  for (uint8_t Level = 0; Level < 8; ++Level) {
    const uint8_t Next = static_cast<uint8_t>(8 * (Level + 1));
    for (uint8_t B : {uint8_t(0), uint8_t(2), uint8_t('a'), uint8_t(0), Next, uint8_t('b'),
                      uint8_t(0), Next})
      Trie.push_back(B);
  }
  for (uint8_t B : {3, 0, 0xD8, 0x05, 0}) // terminal: flags 0, address 0x2d8, no child
    Trie.push_back(static_cast<uint8_t>(B));
  REQUIRE(Trie.size() <= 72);
  {
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(16384); // export_off in tests/yaml/export_flags.yaml
    F.write(reinterpret_cast<const char *>(Trie.data()), static_cast<std::streamsize>(Trie.size()));
  }
  const Slice S = readExports(Path).Slices[0];
  CHECK(S.ExportsRead);
  CHECK(StringRef(S.ExportsProblem).contains("a node reached twice"));
  CHECK(S.Exports.size() <= 1);

  // A loop: the root's one child is the root.
  const uint8_t Loop[] = {0, 1, 'a', 0, 0};
  {
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(16384);
    F.write(reinterpret_cast<const char *>(Loop), sizeof Loop);
  }
  const Slice L = readExports(Path).Slices[0];
  CHECK(StringRef(L.ExportsProblem).contains("a node reached twice"));
  CHECK(L.Exports.empty());
}

TEST_CASE("exports: OpenMP runtimes by what they define, not by their names",
          "[objlib][exports][libnames]") {
  std::string Marker;
  std::optional<libnames::FamilyMember> M =
      libnames::familyMemberByExports("openmp", {"GOMP_parallel", "omp_get_num_threads"}, &Marker);
  REQUIRE(M);
  CHECK(Marker == "GOMP_parallel");
  CHECK(StringRef(M->Prefix) == "libgomp");
  // libomp defines GOMP_parallel too (kmp_gsupport.cpp): the KMP runtime
  // is told by __kmpc_fork_call first.
  M = libnames::familyMemberByExports(
      "OpenMP", {"GOMP_parallel", "___kmpc_fork_call", "_omp_get_num_threads"}, &Marker);
  REQUIRE(M);
  CHECK(Marker == "___kmpc_fork_call");
  CHECK(StringRef(M->Runtime) == "kmp");
  // A library that only wraps omp_* is none.
  CHECK_FALSE(libnames::familyMemberByExports(
      "openmp", {"_omp_get_num_threads", "omp_get_max_threads", "omp_set_num_threads"}));
  CHECK_FALSE(libnames::familyMemberByExports("libsystem", {"GOMP_parallel"}));
  CHECK(libnames::isRuntimeMarker("__kmpc_fork_call"));
  CHECK(libnames::isRuntimeMarker("___kmpc_fork_call"));
  CHECK(libnames::isRuntimeMarker("_GOMP_parallel"));
  CHECK_FALSE(libnames::isRuntimeMarker("omp_get_num_threads"));
  CHECK_FALSE(libnames::isRuntimeMarker("__kmpc_barrier"));
}

TEST_CASE("exports: ExportsAmong looks the names asked for up", "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  // Looked up in the trie, with the walk's rules: strong ones only.
  const std::string P = yamlFile("export_flags", "export_keep.dylib");
  CHECK(readExports(P, {"_b_weak", "_a_strong", "_c_reexp", "_d_abs", "_a", "_a_strongx"})
            .Slices[0]
            .Exports == Names{"_a_strong"});
  // Without a trie, and on ELF: the same filter over the table.
  CHECK(readExports(yamlFile("exports_nlist", "exports_nlist_keep.dylib"),
                    {"_registry_get", "_strong_one", "_pext_one"})
            .Slices[0]
            .Exports == Names{"_strong_one"});
}

TEST_CASE("exports: ExportsAmong reads a big trie where its lookups go, and agrees with the walk",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  // 3,000 exports with long names: a trie of many pages, which a lookup
  // reads a page at a time along its path (objlib/Exports.cpp TrieBytes).
  std::string Src = "extern \"C\" {\n";
  std::vector<std::string> All;
  for (int I = 0; I < 3000; ++I) {
    std::string Name = "registry_entry_point_number_" + std::to_string(I * 7919 % 100003) +
                       "_of_a_long_family";
    Src += "int " + Name + "() { return " + std::to_string(I) + "; }\n";
    All.push_back("_" + Name);
  }
  Src += "void __kmpc_fork_call() {}\n__attribute__((weak)) void GOMP_parallel() {}\n}\n";
  fixtures().write("big_trie.cpp", Src);
  REQUIRE(fixtures().link("big_trie.dylib", "big_trie.cpp", {"-shared"}));
  const std::string P = fixtures().path("big_trie.dylib");
  const Slice Walked = readExports(P).Slices[0];
  REQUIRE(Walked.ExportsProblem.empty());
  REQUIRE(Walked.Exports.size() == 3001); // GOMP_parallel is weak
  std::vector<std::string> Asked = {"___kmpc_fork_call", "_GOMP_parallel", "_registry_entry",
                                    "_registry_entry_point_number_", "_nothing_like_it"};
  for (size_t I = 0; I < All.size(); I += 97)
    Asked.push_back(All[I]);
  Asked.push_back(All.back());
  Asked.push_back(All.back() + "x");
  Names Want;
  for (const std::string &N : Asked)
    if (std::binary_search(Walked.Exports.begin(), Walked.Exports.end(), N))
      Want.push_back(N);
  llvm::sort(Want);
  const Slice Looked = readExports(P, Asked).Slices[0];
  CHECK(Looked.ExportsProblem.empty());
  CHECK(Looked.Exports == Want);
  CHECK(Want.size() == 1 + (All.size() + 96) / 97 + 1); // not the weak GOMP_parallel
  // The trie is many pages: the lookups read some of them.
  auto Buf = MemoryBuffer::getFile(P);
  REQUIRE(Buf);
  auto Obj = object::ObjectFile::createMachOObjectFile((*Buf)->getMemBufferRef());
  REQUIRE(static_cast<bool>(Obj));
  auto *MachO = cast<object::MachOObjectFile>(Obj->get());
  const size_t TrieSize = std::max(MachO->getDyldInfoExportsTrie().size(),
                                   MachO->getDyldExportsTrie().size());
  CHECK(TrieSize > 8 * 4096);
}

TEST_CASE("exports: a lookup that runs past the trie says so, never 'defines nothing'",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  // The root's one edge "_" leads to offset 0xffff, past the 72-byte trie.
  const std::string Path = yamlFile("export_flags", "export_past_end.dylib");
  const uint8_t Trie[] = {0, 1, '_', 0, 0xff, 0xff, 0x03};
  {
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(16384); // export_off in tests/yaml/export_flags.yaml
    F.write(reinterpret_cast<const char *>(Trie), sizeof Trie);
  }
  const Slice S = readExports(Path, {"___kmpc_fork_call", "_a_strong"}).Slices[0];
  CHECK(StringRef(S.ExportsProblem).contains("past the end of the trie"));
  CHECK(S.Exports.empty());
}

namespace {

/// yaml2obj's ELF shared object: .dynsym with visible_fn (version 1) and
/// hidden_old (a hidden version, 0x8002), and a .gnu.version whose
/// Versym line is given (the entries, and what makes it unreadable).
std::string versymFile(StringRef Out, StringRef Versym) {
  const std::string Yaml = (R"(--- !ELF
FileHeader:
  Class:   ELFCLASS64
  Data:    ELFDATA2LSB
  Type:    ET_DYN
  Machine: EM_X86_64
Sections:
  - Name:  .text
    Type:  SHT_PROGBITS
    Flags: [ SHF_ALLOC, SHF_EXECINSTR ]
    Size:  16
  - Name:  .gnu.version
    Type:  SHT_GNU_versym
    Flags: [ SHF_ALLOC ]
    Link:  .dynsym
    AddressAlign: 2
)" + Versym + R"(
DynamicSymbols:
  - Name:    visible_fn
    Type:    STT_FUNC
    Section: .text
    Binding: STB_GLOBAL
  - Name:    hidden_old
    Type:    STT_FUNC
    Section: .text
    Binding: STB_GLOBAL
)")
                               .str();
  fixtures().write(Out.str() + ".yaml", Yaml);
  REQUIRE(fixtures().run({BinDir + "/yaml2obj", fixtures().path(Out.str() + ".yaml"), "-o",
                          fixtures().path(Out)}));
  return fixtures().path(Out);
}

} // namespace

TEST_CASE("exports: an ELF .gnu.version that cannot be read is a problem, not every version "
          "default",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  // The control: one entry per .dynsym symbol; hidden_old's version is
  // hidden, so it is no export.
  const Slice Good =
      readExports(versymFile("libversym_ok.so", "    Entries: [ 0, 1, 0x8002 ]")).Slices[0];
  CHECK(Good.ExportsProblem.empty());
  CHECK(Good.Exports == Names{"visible_fn"});
  // Fewer entries than symbols: hidden_old's version is not in the table
  // (glibc indexes it by symbol number, reading past it).
  const Slice Short =
      readExports(versymFile("libversym_short.so", "    Entries: [ 0, 1 ]")).Slices[0];
  CHECK(StringRef(Short.ExportsProblem).contains(".gnu.version: 2 entries for the 3 symbols"));
  // The wrong entry size, and a section past the end of the file.
  const Slice Wide = readExports(versymFile("libversym_wide.so",
                                            "    EntSize: 4\n    Entries: [ 0, 1, 0x8002 ]"))
                         .Slices[0];
  CHECK(StringRef(Wide.ExportsProblem).starts_with(".gnu.version: "));
  const Slice Past = readExports(versymFile("libversym_past.so",
                                            "    ShOffset: 0x100000\n"
                                            "    Entries: [ 0, 1, 0x8002 ]"))
                         .Slices[0];
  CHECK(StringRef(Past.ExportsProblem).starts_with(".gnu.version: "));
  // Never a guess: hidden_old is not listed as an export.
  for (const Slice *S : {&Short, &Wide, &Past})
    CHECK_FALSE(llvm::is_contained(S->Exports, "hidden_old"));
}

TEST_CASE("exports: a lookup on a damaged trie says so (a node past its end, a loop)",
          "[objlib][exports]") {
  REQUIRE_TOOLCHAIN();
  // export_flags.dylib's trie (at 16384, 72 bytes) replaced: the root's
  // one edge "___kmpc_fork_call" to a node at 100, past the trie's end;
  // then an edge "_" back to the root, which a lookup of
  // ___kmpc_fork_call would follow three times.
  const std::string Path = yamlFile("export_flags", "export_damaged.dylib");
  auto write = [&](std::vector<uint8_t> Trie) {
    Trie.resize(72, 0);
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(16384);
    F.write(reinterpret_cast<const char *>(Trie.data()), static_cast<std::streamsize>(Trie.size()));
  };
  std::vector<uint8_t> Past = {0, 1};
  for (char C : StringRef("___kmpc_fork_call"))
    Past.push_back(static_cast<uint8_t>(C));
  Past.insert(Past.end(), {0, 100});
  write(Past);
  const Slice P = readExports(Path, libnames::runtimeMarkerNames()).Slices[0];
  CHECK(StringRef(P.ExportsProblem).contains("a node past the end of the trie"));
  CHECK(P.Exports.empty());
  write({0, 1, '_', 0, 0});
  const Slice L = readExports(Path, libnames::runtimeMarkerNames()).Slices[0];
  CHECK(StringRef(L.ExportsProblem).contains("a node reached twice"));
  CHECK(L.Exports.empty());
  // The control: the edge to a terminal node (flags 0, address 0x2d8).
  Past.back() = static_cast<uint8_t>(Past.size());
  Past.insert(Past.end(), {3, 0, 0xD8, 0x05, 0});
  write(Past);
  const Slice G = readExports(Path, libnames::runtimeMarkerNames()).Slices[0];
  CHECK(G.ExportsProblem.empty());
  CHECK(G.Exports == Names{"___kmpc_fork_call"});
}
