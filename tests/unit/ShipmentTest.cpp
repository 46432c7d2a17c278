// contract/LoaderRules, used by shipment/: the loaders' rules as data (token expansion, which names are
// the system's) and the OpenMP family's members; the closure itself is
// tested on real trees in tests/e2e/shipment.bash.
#include "libnames/LibraryNames.h"
#include "contract/LoaderRules.h"
#include "shipment/Closure.h"

#include "tests/unit/support/Catch.h"

#include <cstring>

using namespace linkguard;
using namespace linkguard::contract;

TEST_CASE("dyld expands @loader_path against the image holding the path", "[shipment]") {
  const LoaderRules &R = rulesFor(objlib::Format::MachO);
  Expansion E = expand(R, "@loader_path/../lib", "/t/bin", "");
  CHECK(E.FromToken);
  CHECK(E.Path == "/t/lib");
  // dyld: the token must be followed by '/' or end the path.
  E = expand(R, "@loader_pathx/lib", "/t/bin", "");
  CHECK(E.UnknownPrefix);
  E = expand(R, "@executable_path/../Frameworks", "/t/plugins", "");
  CHECK_FALSE(E.Undecidable.empty()); // no executable known
  E = expand(R, "@executable_path/../Frameworks", "/t/plugins", "/t/MacOS");
  CHECK(E.Path == "/t/Frameworks");
  E = expand(R, "/opt/homebrew/lib", "/t/bin", "");
  CHECK_FALSE(E.FromToken);
  CHECK(E.Path == "/opt/homebrew/lib");
}

TEST_CASE("ld.so expands $ORIGIN anywhere, $LIB and $PLATFORM are undecidable", "[shipment]") {
  const LoaderRules &R = rulesFor(objlib::Format::ELF);
  CHECK(expand(R, "$ORIGIN/../lib", "/w/pkg", "").Path == "/w/lib");
  CHECK(expand(R, "${ORIGIN}/lib", "/w/pkg", "").Path == "/w/pkg/lib");
  // "$ORIGINAL" is not the token $ORIGIN followed by text.
  CHECK_FALSE(expand(R, "$ORIGINAL/lib", "/w/pkg", "").FromToken);
  CHECK_FALSE(expand(R, "/opt/$LIB", "/w/pkg", "").Undecidable.empty());
  CHECK_FALSE(expand(R, "$ORIGIN/${PLATFORM}", "/w/pkg", "").Undecidable.empty());
}

TEST_CASE("each loader's search order and inheritance come from its table", "[shipment]") {
  const LoaderRules &Dyld = rulesFor(objlib::Format::MachO);
  const LoaderRules &LdSo = rulesFor(objlib::Format::ELF);
  CHECK(std::strcmp(Dyld.SearchPrefix, "@rpath/") == 0);
  CHECK_FALSE(Dyld.RunPathStopsInheritance);
  CHECK(LdSo.RunPathStopsInheritance);
  // ld.so: the chain's DT_RPATH before the image's own DT_RUNPATH.
  size_t Chain = 0, Own = 0;
  for (size_t I = 0; I < LdSo.Search.size(); ++I) {
    if (LdSo.Search[I].Step == SearchStep::ChainSearchPaths)
      Chain = I;
    if (LdSo.Search[I].Step == SearchStep::OwnRunPath)
      Own = I;
  }
  CHECK(Chain < Own);
  for (const SearchRow &Row : LdSo.Search)
    CHECK(std::strlen(Row.Source) > 0);
}

TEST_CASE("system names are each loader's own", "[shipment]") {
  const LoaderRules &Dyld = rulesFor(objlib::Format::MachO);
  const LoaderRules &LdSo = rulesFor(objlib::Format::ELF);
  CHECK(isSystemName(Dyld, "/usr/lib/libSystem.B.dylib"));
  CHECK(isSystemName(Dyld, "/System/Library/Frameworks/Metal.framework/Metal"));
  CHECK_FALSE(isSystemName(Dyld, "/usr/local/lib/libomp.dylib"));
  CHECK_FALSE(isSystemName(Dyld, "/usr/lib/../local/lib/libomp.dylib"));
  CHECK(isSystemName(LdSo, "libc.so.6"));
  CHECK(isSystemName(LdSo, "libstdc++.so.6"));
  CHECK_FALSE(isSystemName(LdSo, "libgomp.so.1"));
  CHECK_FALSE(isSystemName(LdSo, "/opt/x/libc.so.6"));
  // A runtime library's directory is the distribution's; the interpreter's
  // path is the ABI's.
  CHECK_FALSE(isSystemName(LdSo, "/usr/lib64/libc.so.6"));
  CHECK_FALSE(isSystemName(LdSo, "/lib/x86_64-linux-gnu/libc.so.6"));
  CHECK(isSystemName(LdSo, "/lib64/ld-linux-x86-64.so.2"));
  CHECK_FALSE(isSystemName(LdSo, "/lib64/../lib64/ld-linux-x86-64.so.2"));
}

TEST_CASE("the openmp family's members and which pairs abort with OMP #15", "[shipment]") {
  auto omp = libnames::familyMember("openmp", "/opt/llvm-openmp/lib/libomp.dylib");
  auto iomp = libnames::familyMember("openmp", "@rpath/libiomp5.dylib");
  auto gomp = libnames::familyMember("openmp", "libgomp.so.1");
  REQUIRE(omp);
  REQUIRE(iomp);
  REQUIRE(gomp);
  CHECK(std::strcmp(omp->Prefix, "libomp") == 0);
  CHECK(std::strcmp(iomp->Prefix, "libiomp5") == 0);
  CHECK(std::strcmp(omp->Runtime, iomp->Runtime) == 0); // both KMP: OMP #15
  CHECK(std::strcmp(gomp->Runtime, "") == 0);           // libgomp does not check
  CHECK_FALSE(libnames::familyMember("openmp", "libtorch_cpu.dylib"));
  CHECK_FALSE(libnames::familyMember("libsystem", "/usr/lib/libSystem.B.dylib"));
}

TEST_CASE("each glibc 2.36 machine's subdirectories in its ld.so's order", "[shipment]") {
  using linkguard::shipment::LdSoMachine;
  auto list = [](const LdSoMachine &M) {
    std::string Out;
    for (const std::string &S : M.x86Subdirs())
      Out += S + " ";
    return Out;
  };
  // An Intel AVX2 CPU: LD_DEBUG=libs of ld.so under qemu-x86_64 -cpu
  // Haswell (glibc 2.36) tries these, in this order, before the directory.
  CHECK(list({3, true, "haswell", false}) ==
        "glibc-hwcaps/x86-64-v3/ glibc-hwcaps/x86-64-v2/ tls/haswell/x86_64/ tls/haswell/ "
        "tls/x86_64/ tls/ haswell/x86_64/ haswell/ x86_64/ ");
  // This machine's (AMD, no avx512_1): the platform x86_64 and the hwcap
  // name x86_64 both, as its LD_DEBUG=libs trace shows.
  CHECK(list({4, true, "x86_64", false}) ==
        "glibc-hwcaps/x86-64-v4/ glibc-hwcaps/x86-64-v3/ glibc-hwcaps/x86-64-v2/ "
        "tls/x86_64/x86_64/ tls/x86_64/ tls/x86_64/ tls/ x86_64/x86_64/ x86_64/ x86_64/ ");
  // Skylake-X: avx512_1/ before x86_64/.
  const std::string SkylakeX = list({4, true, "haswell", true});
  CHECK(SkylakeX.find(" avx512_1/ ") < SkylakeX.find(" x86_64/ "));
  // glibc 2.37 on: the levels only; a baseline CPU: nothing.
  CHECK(list({2, false, "", false}) == "glibc-hwcaps/x86-64-v2/ ");
  CHECK(list({0, false, "", false}).empty());
  // i386 and aarch64: the optional hwcap name (sse2, atomics) or not.
  const LdSoMachine NoHwcap{0, true, "x86_64", false, false};
  CHECK(NoHwcap.searches("i686/"));
  CHECK(NoHwcap.searches("tls/aarch64/"));
  CHECK_FALSE(NoHwcap.searches("sse2/"));
  CHECK_FALSE(NoHwcap.searches("tls/i686/sse2/"));
  CHECK_FALSE(NoHwcap.searches("atomics/"));
  CHECK(LdSoMachine().searches("tls/i686/sse2/"));
  CHECK(LdSoMachine().searches("aarch64/atomics/"));
  CHECK_FALSE(LdSoMachine{0, false, "", false}.searches("i686/"));
  // The default machine searches every other one's.
  const std::vector<std::string> All = LdSoMachine().x86Subdirs();
  for (const LdSoMachine &M : {LdSoMachine{4, true, "haswell", true},
                               LdSoMachine{3, true, "xeon_phi", false},
                               LdSoMachine{4, true, "x86_64", true}})
    for (const std::string &S : M.x86Subdirs()) {
      INFO(S);
      CHECK(llvm::is_contained(All, S));
    }
}
