// shipment/Shipment: a build directory's object files (MH_OBJECT, ET_REL,
// by type, not by a .o name) are no shipped images: skipped by the walk,
// never roots, yet still files to lookup() (issue 35 item 6). Real files,
// compiled here with clang 19.
#include "shipment/Shipment.h"

#include "tests/unit/support/Catch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <string>

using namespace linkguard;

namespace {

/// clang (LINKGUARD_LLVM_BINDIR) compiling Src into Out with Flags.
bool compile(const std::string &Dir, const std::vector<std::string> &Flags) {
  std::string Clang = std::string(LINKGUARD_LLVM_BINDIR) + "/clang";
  std::vector<llvm::StringRef> Argv{Clang};
  for (const std::string &F : Flags)
    Argv.push_back(F);
  std::string Err;
  return llvm::sys::ExecuteAndWait(Clang, Argv, std::nullopt, {}, 60, 0, &Err) == 0 &&
         llvm::sys::fs::exists(Dir);
}

} // namespace

TEST_CASE("a tree's object files are skipped and lookup sees them as files", "[shipment]") {
  // clang 19 builds linkguard: it is there wherever the tests are built.
  REQUIRE(llvm::sys::fs::can_execute(std::string(LINKGUARD_LLVM_BINDIR) + "/clang"));
  llvm::SmallString<128> Dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("lg-objects", Dir));
  const std::string D = Dir.str().str();
  {
    FILE *F = std::fopen((D + "/a.c").c_str(), "w");
    REQUIRE(F);
    std::fputs("int f(void) { return 1; }\n", F);
    std::fclose(F);
  }
  llvm::sys::fs::create_directories(D + "/t/obj");
  REQUIRE(compile(D, {"-c", "-fPIC", D + "/a.c", "-o", D + "/t/obj/a.o"}));
  // An ET_REL without the name, and a Mach-O MH_OBJECT.
  REQUIRE(compile(D, {"-c", "-fPIC", D + "/a.c", "-o", D + "/t/obj/a.notdoto"}));
  REQUIRE(compile(D, {"-target", "arm64-apple-macos11", "-c", D + "/a.c", "-o", D + "/t/obj/m.o"}));
  REQUIRE(compile(D, {"-shared", "-fPIC", D + "/a.c", "-o", D + "/t/liba.so", "-nostdlib"}));
  objlib::ReadOptions Read;
  auto S = shipment::Shipment::directory(D + "/t", Read);
  REQUIRE(static_cast<bool>(S));
  REQUIRE((*S)->walked() == 1);
  CHECK((*S)->printName(0) == D + "/t/liba.so");
  REQUIRE((*S)->skipped().size() == 3);
  CHECK((*S)->skipped()[0].Why.find("ET_REL") != std::string::npos);
  bool NotBinary = false, Object = false;
  CHECK_FALSE((*S)->lookup("obj/a.notdoto", &NotBinary, &Object));
  CHECK(NotBinary);
  CHECK(Object);
  NotBinary = Object = false;
  CHECK_FALSE((*S)->lookup("obj/../obj/m.o", &NotBinary, &Object));
  CHECK(Object);
  NotBinary = Object = false;
  CHECK_FALSE((*S)->lookup("a.c", &NotBinary, &Object));
  CHECK_FALSE(Object);
  CHECK((*S)->lookup("liba.so").has_value());
  // A single file's lazy lookup says the same of an object file.
  auto F = shipment::Shipment::file(D + "/t/liba.so", D + "/t", Read);
  REQUIRE(static_cast<bool>(F));
  NotBinary = Object = false;
  CHECK_FALSE((*F)->lookup("obj/a.o", &NotBinary, &Object));
  CHECK(NotBinary);
  CHECK(Object);
  llvm::sys::fs::remove_directories(D);
}
