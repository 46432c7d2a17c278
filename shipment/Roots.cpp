//===- Roots.cpp - extension modules, wheels as installed, .pt2 as extracted ===//
#include "shipment/Roots.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Object/MachOUniversal.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace linkguard::shipment {

const std::vector<ExtensionSuffixRow> &extensionSuffixes() {
  // importlib.machinery.EXTENSION_SUFFIXES is _imp.extension_suffixes(),
  // CPython's _PyImport_DynLoadFiletab (Python/dynload_shlib.c, 3.8-3.13):
  // "." SOABI ".so", ".abi3.so" (Py_LIMITED_API), ".so". SOABI is
  // "cpython-<major><minor>[t]-<multiarch>" (configure.ac: SOABI, PLATFORM_TRIPLET;
  // "t" the free-threaded build of 3.13), e.g. cpython-311-x86_64-linux-gnu
  // on Linux and cpython-311-darwin on macOS, where the suffix is ".so"
  // too (SHLIB_SUFFIX; macOS never uses .dylib for an extension module).
  static const std::vector<ExtensionSuffixRow> Rows = {
      {".cpython-*.so", "CPython Python/dynload_shlib.c _PyImport_DynLoadFiletab: \".\" SOABI \".so\" "
                        "(configure.ac SOABI: cpython-311-x86_64-linux-gnu, cpython-311-darwin)"},
      {".abi3.so", "CPython Python/dynload_shlib.c _PyImport_DynLoadFiletab: \".abi3.so\" (PEP 384)"},
      {".so", "CPython Python/dynload_shlib.c _PyImport_DynLoadFiletab: \".so\"; any library could be "
              "named so, so only one exporting PyInit_<name> (PEP 489: the init function "
              "Python/importdl.c looks up) is taken for a module"},
  };
  return Rows;
}

namespace {

bool soabiChar(char C) { return isAlnum(C) || C == '_' || C == '-' || C == '.'; }

} // namespace

bool hasTaggedExtensionSuffix(StringRef FileName) {
  if (FileName.ends_with(".abi3.so") && FileName.size() > strlen(".abi3.so"))
    return true;
  // <module>.cpython-<soabi rest>.so: the module name is before the first '.'.
  size_t At = FileName.find(".cpython-");
  if (At == StringRef::npos || At == 0 || !FileName.ends_with(".so"))
    return false;
  StringRef Tag = FileName.drop_front(At + strlen(".cpython-")).drop_back(3);
  if (Tag.empty() || !isDigit(Tag.front()))
    return false;
  return llvm::all_of(Tag, soabiChar);
}

std::string plainExtensionModuleName(StringRef FileName) {
  if (!FileName.ends_with(".so"))
    return "";
  // Python/importdl.c: the init function is PyInit_ + the last component
  // of the module's dotted name; a file foo.so is module foo.
  StringRef Stem = FileName.drop_back(3);
  if (Stem.empty() || Stem.contains('.'))
    return "";
  return Stem.str();
}

bool exportsSymbol(MemoryBufferRef Bytes, StringRef Name) {
  Expected<std::unique_ptr<object::Binary>> B = object::createBinary(Bytes);
  if (!B) {
    consumeError(B.takeError());
    return false;
  }
  auto inObject = [&](const object::ObjectFile &O) {
    const std::string Want = O.isMachO() ? "_" + Name.str() : Name.str();
    if (const auto *E = dyn_cast<object::ELFObjectFileBase>(&O)) {
      for (const object::ELFSymbolRef &S : E->getDynamicSymbolIterators()) {
        Expected<StringRef> N = S.getName();
        Expected<uint32_t> F = S.getFlags();
        if (!N || !F) {
          consumeError(N.takeError());
          consumeError(F.takeError());
          continue;
        }
        if (*N == Want && !(*F & object::SymbolRef::SF_Undefined) &&
            (*F & object::SymbolRef::SF_Global))
          return true;
      }
      return false;
    }
    if (const auto *M = dyn_cast<object::MachOObjectFile>(&O)) {
      Error Err = Error::success();
      for (const object::ExportEntry &X : M->exports(Err))
        if (X.name() == Want) {
          consumeError(std::move(Err));
          return true;
        }
      consumeError(std::move(Err));
    }
    return false;
  };
  if (auto *O = dyn_cast<object::ObjectFile>(B->get()))
    return inObject(*O);
  if (auto *U = dyn_cast<object::MachOUniversalBinary>(B->get()))
    for (const object::MachOUniversalBinary::ObjectForArch &A : U->objects()) {
      Expected<std::unique_ptr<object::MachOObjectFile>> O = A.getAsObjectFile();
      if (!O) {
        consumeError(O.takeError());
        continue;
      }
      if (inObject(**O))
        return true;
    }
  return false;
}

namespace {

constexpr sys::path::Style Posix = sys::path::Style::posix;

/// "cp311" -> "3.11" from a wheel file name's python tag
/// ({dist}-{version}(-{build})?-{python}-{abi}-{platform}.whl, PEP 427),
/// when it names exactly one CPython and the ABI is not abi3; else "".
std::string pythonVersionOf(StringRef WheelName) {
  SmallVector<StringRef, 6> Parts;
  sys::path::stem(WheelName, Posix).split(Parts, '-');
  if (Parts.size() < 5)
    return "";
  StringRef Py = Parts[Parts.size() - 3], Abi = Parts[Parts.size() - 2];
  if (Py.contains('.') || Abi == "abi3" || !Py.consume_front("cp") || Py.size() < 2 ||
      !llvm::all_of(Py, isDigit))
    return "";
  return Py.take_front(1).str() + "." + Py.drop_front(1).str();
}

} // namespace

ArchiveLayout ArchiveLayout::of(StringRef Path, const std::vector<package::ZipEntry> &Entries) {
  ArchiveLayout L;
  StringRef File = sys::path::filename(Path, Posix);
  if (File.ends_with_insensitive(".whl")) {
    L.K = Kind::Wheel;
    // pip (src/pip/_internal/operations/install/wheel.py, install_wheel):
    // "<name>-<version>.data" beside the .dist-info directory; its
    // subdirectories are scheme keys. In a virtual environment (the
    // posix_prefix / venv scheme of sysconfig): purelib and platlib ->
    // lib/pythonX.Y/site-packages, scripts -> bin, headers ->
    // include/site/pythonX.Y/<name>, data -> the prefix itself.
    for (const package::ZipEntry &E : Entries) {
      StringRef Top = StringRef(E.Name).split('/').first;
      if (Top.ends_with(".dist-info")) {
        L.DataDir = Top.drop_back(strlen(".dist-info")).str() + ".data/";
        break;
      }
    }
    if (L.DataDir.empty()) // no .dist-info: the wheel's own name
      if (size_t Dash = File.find('-'); Dash != StringRef::npos)
        if (size_t Dash2 = File.find('-', Dash + 1); Dash2 != StringRef::npos)
          L.DataDir = File.take_front(Dash2).str() + ".data/";
    std::string Ver = pythonVersionOf(File);
    // An unknown version (py3, abi3, several tags): no machine's
    // site-packages is known, so a path into it from bin/ names nothing.
    L.SitePackages = "lib/python" + Ver + "/site-packages/";
    return L;
  }
  if (!File.ends_with_insensitive(".pt2"))
    return L;
  L.K = Kind::Pt2;
  // AOTIModelPackageLoader's constructor (pytorch/pytorch
  // torch/csrc/inductor/aoti_package/model_package_loader.cpp, 2.8/main):
  // the prefix is the first component the first two records share; the
  // records that start with <prefix>data/aotinductor/<model> (a string
  // prefix) are extracted under a temporary directory at their own path,
  // those under <prefix>data/constants into the model's directory; the
  // model's library is the last extracted file ending in
  // extension_file_ext() (".so", also on macOS); with none, a .cpp is
  // compiled at load time. Nothing else of the archive is on disk.
  if (Entries.size() < 2) {
    // The loader reads the second record's name to find the prefix; with
    // one record what it extracts is not defined: every member is there,
    // none is its model, and no verdict.
    L.K = Kind::Plain;
    L.Undecided.push_back("a .pt2 with fewer than two records: the package loader reads the "
                          "first two records' names to find its prefix, so what it extracts "
                          "cannot be told");
    return L;
  }
  StringRef P0 = StringRef(Entries[0].Name).split('/').first;
  StringRef P1 = StringRef(Entries[1].Name).split('/').first;
  if (!P0.empty() && P0 == P1)
    L.Prefix = P0.str() + "/";
  const std::string AotiDir = L.Prefix + "data/aotinductor/";
  for (const package::ZipEntry &E : Entries) {
    StringRef N = E.Name;
    if (!N.consume_front(AotiDir) || !N.contains('/'))
      continue;
    std::string Dir = AotiDir + N.split('/').first.str();
    if (!llvm::is_contained(L.ModelDirs, Dir))
      L.ModelDirs.push_back(Dir);
  }
  for (const std::string &Dir : L.ModelDirs) {
    std::string So, Cpp;
    for (const package::ZipEntry &E : Entries) {
      // What the loop extracts for this model: its directory and the
      // constants; the extension test runs on each of them.
      if (E.isDirectory() || !(StringRef(E.Name).starts_with(Dir) ||
                               StringRef(E.Name).starts_with(L.Prefix + "data/constants")))
        continue;
      StringRef Ext = StringRef(E.Name).substr(StringRef(E.Name).find_last_of('.'));
      if (Ext == ".so")
        So = E.Name;
      else if (Ext == ".cpp")
        Cpp = E.Name;
    }
    if (!So.empty())
      L.ModelLibraries.push_back(So);
    else if (!Cpp.empty())
      L.Undecided.push_back("the model " + Dir + " has no " + ".so: the package loader compiles " +
                            Cpp + " when it loads, so what it loads cannot be judged here");
  }
  return L;
}

Placement ArchiveLayout::place(StringRef Member) const {
  Placement P;
  P.Rel = Member.str();
  switch (K) {
  case Kind::Plain:
    return P;
  case Kind::Wheel: {
    StringRef M = Member;
    if (!DataDir.empty() && M.consume_front(DataDir)) {
      auto [Key, Rest] = M.split('/');
      if (Key == "purelib" || Key == "platlib")
        P.Rel = SitePackages + Rest.str();
      else if (Key == "scripts")
        P.Rel = "bin/" + Rest.str();
      else if (Key == "data")
        P.Rel = Rest.str();
      else if (Key == "headers")
        P.Rel = "include/site/" + DataDir.substr(0, DataDir.size() - 6) + "/" + Rest.str();
      else
        P.Present = false; // pip refuses the wheel: "Unknown scheme key"
      return P;
    }
    P.Rel = SitePackages + Member.str();
    return P;
  }
  case Kind::Pt2: {
    P.Present = false;
    for (const std::string &Dir : ModelDirs)
      if (Member.starts_with(Dir))
        P.Present = true;
    if (!P.Present && Member.starts_with(Prefix + "data/constants") && !ModelDirs.empty()) {
      // Into the (first) model's directory, by its file name.
      P.Present = true;
      P.Rel = ModelDirs.front() + "/" + sys::path::filename(Member, Posix).str();
    }
    P.ModelLibrary = llvm::is_contained(ModelLibraries, Member);
    return P;
  }
  }
  return P;
}

} // namespace linkguard::shipment
