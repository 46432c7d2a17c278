// Where a link writes (flags/Classify, flags/LinkerArgs): derived from the
// words the linker receives, or unknown with the reason; the linker-spelling
// table checks itself; input types come from clang's Types.def.
#include "flags/Classify.h"
#include "flags/InputTypes.h"
#include "flags/LinkerArgs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include "tests/unit/support/Catch.h"

#include <fstream>

using namespace linkguard::flags;
using Strings = std::vector<std::string>;

namespace {

Classification read(const Strings &Args, ObjectFormat Host = ObjectFormat::MachO,
                    const std::string &Override = "") {
  ClassifyOptions O;
  O.HostFormat = Host;
  O.OverrideOptions = Override;
  auto C = classify(Args, O);
  REQUIRE(static_cast<bool>(C));
  return std::move(*C);
}

} // namespace

TEST_CASE("the link output is the last linker -o, else clang's -o, else a.out",
          "[flags][output]") {
  struct Case {
    Strings Args;
    std::string Path, Source;
  };
  for (const Case &K : std::vector<Case>{
           {{"-shared", "a.o", "-o", "x.dylib"}, "x.dylib", "-o"},
           {{"-shared", "a.o"}, "a.out", "default"},
           {{"-shared", "a.o", "-o", "x.dylib", "-Wl,-o,new.dylib"}, "new.dylib", "linker -o"},
           {{"-shared", "a.o", "-o", "x.dylib", "-Xlinker", "-o", "-Xlinker", "n.dylib"},
            "n.dylib", "linker -o"},
           {{"-shared", "a.o", "--output=x.dylib"}, "x.dylib", "-o"},
           {{"-shared", "a.o", "-o", "x", "-working-directory", "/w"}, "/w/x", "-o"},
           {{"-shared", "a.o", "-o", "/abs/x", "-working-directory", "/w"}, "/abs/x", "-o"},
           // ld64's -order_file / -object_path_lto are not -o.
           {{"-shared", "a.o", "-o", "x", "-Wl,-order_file,o.txt"}, "x", "-o"},
       }) {
    INFO(llvm::join(K.Args, " "));
    Classification C = read(K.Args);
    CHECK(C.Ph == Phase::Link);
    CHECK(C.Link.known());
    CHECK(C.Link.Path == K.Path);
    CHECK(C.Link.Source == K.Source);
  }
}

TEST_CASE("an output linkguard cannot know is unknown, with the reason", "[flags][output]") {
  CHECK(read({"-shared", "a.o", "-o", "-"}).Link.Unknown ==
        "-o - writes the output to standard output");
  CHECK_THAT(read({"-shared", "a.o", "--config=x.cfg"}).Link.Unknown,
             Catch::Contains("--config=x.cfg reads more arguments"));
  CHECK_THAT(read({"-shared", "a.o"}, ObjectFormat::MachO, "+-Wl,-o,y").Link.Unknown,
             Catch::Contains("CCC_OVERRIDE_OPTIONS"));
  // GNU ld reads -ofile as -o file and -out as --output: never guessed.
  CHECK_THAT(read({"-shared", "a.o", "-Wl,-ofile"}, ObjectFormat::ELF).Link.Unknown,
             Catch::Contains("-ofile"));
  CHECK_THAT(read({"-shared", "a.o", "-Wl,--outp=new.so"}, ObjectFormat::ELF).Link.Unknown,
             Catch::Contains("--outp=new.so"));
  CHECK(read({"-shared", "a.o", "-Wl,--oformat=elf64-x86-64"}, ObjectFormat::ELF).Link.known());
  // -Xarch_arm64 -Wl,-o,x reaches one architecture's link only.
  CHECK_THAT(read({"-shared", "a.o", "-o", "d", "-Xarch_arm64", "-Wl,-o,xa.dylib"}).Link.Unknown,
             Catch::Contains("-Xarch_arm64"));
  CHECK(read({"-shared", "a.o", "-o", "d", "-Xarch_arm64", "-mcpu=apple-m1"}).Link.known());
  // A linker @file that is a pipe or a device is never opened.
  CHECK_THAT(read({"-shared", "a.o", "-Wl,@/dev/zero"}).Link.Unknown,
             Catch::Contains("not a regular file"));
}

TEST_CASE("an @name with no such file stays a linker argument, as in ld64 and lld",
          "[flags][output]") {
  for (const Strings &Args : std::vector<Strings>{
           {"-shared", "a.o", "-o", "x.dylib", "-Wl,-rpath,@loader_path"},
           {"-shared", "a.o", "-o", "x.dylib", "-Wl,-install_name,@rpath/libx.dylib"},
           {"-shared", "a.o", "-o", "x.dylib", "-Xlinker", "-rpath", "-Xlinker",
            "@executable_path/../lib"}}) {
    INFO(llvm::join(Args, " "));
    Classification C = read(Args);
    CHECK(C.Uncertain.empty());
    CHECK(C.Link.Path == "x.dylib");
  }
}

TEST_CASE("linker @files are read in place, where the linker runs", "[flags][output]") {
  llvm::SmallString<128> Dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("lg-ld", Dir));
  std::ofstream(std::string(Dir) + "/o.rsp") << "-o\nfromrsp.dylib\n";
  ClassifyOptions O;
  O.HostFormat = ObjectFormat::MachO;
  O.WorkingDir = std::string(Dir);
  // The linker receives @o.rsp before -o last.dylib: last wins.
  auto C = classify(Strings{"-shared", "a.o", "-Wl,@o.rsp", "-Wl,-o,last.dylib"}, O);
  REQUIRE(static_cast<bool>(C));
  CHECK(C->Link.Path == "last.dylib");
  // -working-directory D: the linker reads D/o.rsp.
  llvm::sys::fs::create_directory(std::string(Dir) + "/D");
  std::ofstream(std::string(Dir) + "/D/o.rsp") << "-o\ninD.dylib\n";
  auto W = classify(Strings{"-shared", "a.o", "-working-directory", "D", "-Wl,@o.rsp"}, O);
  REQUIRE(static_cast<bool>(W));
  CHECK(W->Uncertain.empty());
  CHECK(W->Link.Path == "D/inD.dylib");
  llvm::sys::fs::remove_directories(Dir);
}

TEST_CASE("what clang runs instead of a linker", "[flags][phase]") {
  Classification S = read({"a.o", "-o", "x.a", "--emit-static-lib"});
  CHECK(S.Ph == Phase::Archive);
  CHECK(S.DecidingArg == "--emit-static-lib");
  Classification P = read({"a.o", "-shared", "-o", "x.dylib", "--driver-mode=cpp"});
  CHECK(P.Ph == Phase::Preprocess);
  CHECK(read({"a.o", "-o", "x", "--offload-device-only"}).Ph == Phase::Compile);
  CHECK(read({"a.o", "-o", "x", "--cuda-device-only"}).Ph == Phase::Compile);
  CHECK_FALSE(read({"a.o", "-o", "x", "--driver-mode=cl"}).Uncertain.empty());
  CHECK(read({"a.c", "-o", "x", "--driver-mode=g++"}).Inputs[0].Type == "c++");
}

TEST_CASE("a linker @file is read for its -o and its libraries", "[flags][output]") {
  llvm::SmallString<128> Rsp;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("ld", "rsp", Rsp));
  std::ofstream(std::string(Rsp)) << "-o from-rsp.dylib -lfoo -needed-lbar\n";
  Classification C = read({"-shared", "a.o", "-o", "x", "-Wl,@" + std::string(Rsp)});
  CHECK(C.Link.Path == "from-rsp.dylib");
  CHECK(C.Libraries == Strings{"foo", "bar"});
  llvm::sys::fs::remove(Rsp);
}

TEST_CASE("commands that run no linker are not links", "[flags][phase]") {
  for (const char *F : {"-ccc-print-phases", "-ccc-print-bindings", "-fdriver-only", "-###"}) {
    INFO(F);
    Classification C = read({"-shared", "a.o", "-o", "x", F});
    CHECK(C.Ph == Phase::Probe);
    CHECK(C.DecidingArg == F);
  }
}

TEST_CASE("every word after -- is an input, and positions are kept", "[flags][positions]") {
  Classification C = read({"-shared", "-o", "x", "--", "a.o", "libz.so"});
  CHECK(C.Ph == Phase::Link);
  REQUIRE(C.Inputs.size() == 2);
  CHECK(C.Inputs[1].Type == "shared");
  CHECK(C.EndOfOptions == 3);
  CHECK(C.FirstLibraryArg == 3); // the library is after "--": place before it
  Classification D = read({"a.o", "-o", "x", "-Wl,-lomp", "-lz"});
  CHECK(D.FirstLibraryArg == 3);
  CHECK(D.EndOfOptions == 5);
}

TEST_CASE("the linker-spelling table never lets a short row shadow a longer one",
          "[flags][table]") {
  auto Rows = linkerSpellings();
  for (size_t I = 0; I < Rows.size(); ++I)
    for (size_t J = I + 1; J < Rows.size(); ++J) {
      llvm::StringRef Early(Rows[I].Name), Late(Rows[J].Name);
      bool Prefix = Rows[I].Form != LinkerForm::Separate && Late.starts_with(Early) &&
                    Late != Early;
      INFO(Early.str() << " before " << Late.str());
      CHECK_FALSE(Prefix);
    }
}

TEST_CASE("input types come from clang's Types.def", "[flags][types]") {
  CHECK(isHeaderType("c++-header"));
  CHECK(isHeaderType("objective-c-header"));
  CHECK_FALSE(isHeaderType("c++-module")); // precompiles, then compiles and links
  CHECK(isLinkerInputType("object"));
  for (const char *T : {"archive", "shared", "tbd"})
    CHECK(isLinkerInputType(T));
  CHECK(isSourceType("c++"));
  CHECK(isSourceType("assembler"));
  CHECK_FALSE(isSourceType("tbd"));
  CHECK_FALSE(isKnownType("cuda-header")); // not a clang 19 type
  CHECK(typeForExtension("x.cuh", false) == "object"); // clang 19 maps no .cuh
  CHECK(typeForExtension("libSystem.tbd", true) == "tbd");
  CHECK(typeForExtension("libomp.so.5", false) == "shared");
  CHECK(typeForExtension("a.s", true) == "assembler-with-cpp");
  CHECK(typeForExtension("a.s", false) == "assembler");
}
