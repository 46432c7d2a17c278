//===- Rules.cpp - find, trust and read the rules file in force -----------===//
#include "config/Rules.h"

#include "config/ConfigError.h"
#include "config/RulesFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <unistd.h>

namespace linkguard::config {

llvm::Error Rules::errorForPhase(flags::Phase Ph) const {
  if (!Error || Ph != flags::Phase::Link)
    return llvm::Error::success();
  return makeConfigError(*Error);
}

Rules loadRules(const Config &Cfg, const std::string &WorkingDir) {
  Rules R;
  if (Cfg.RunMode == Mode::Off || !Cfg.RulesEnabled)
    return R;
  RulesFileSearch Where;
  if (auto V = Cfg.env("LINKGUARD_CONFIG"); V && !V->empty())
    Where.Explicit = *V;
  if (WorkingDir.empty()) {
    llvm::SmallString<256> Cwd;
    if (!llvm::sys::fs::current_path(Cwd))
      Where.WorkingDir = std::string(Cwd);
  } else {
    Where.WorkingDir = WorkingDir;
  }
  Where.XdgConfigHome = Cfg.env("XDG_CONFIG_HOME");
  Where.Home = Cfg.env("HOME");
  Where.User = ::geteuid();
  RulesFileLookup Found = findRulesFile(Where);
  R.Ignored = std::move(Found.Ignored);
  if (!Found.File)
    return R;
  R.File = Found.File->Path;
  R.Directory = Found.File->Directory;
  R.Origin = rulesFileOriginName(Found.File->Origin);
  if (Found.File->Error) {
    R.Error = *Found.File->Error;
    return R;
  }
  auto File = parseRulesText(Found.File->Text, Found.File->Path);
  if (!File) {
    R.Error = llvm::toString(File.takeError());
    return R;
  }
  R.FileRules = std::move(File->Rules);
  R.BuiltinMpsAot = File->BuiltinMpsAot;
  R.Roots = std::move(File->Roots);
  R.Allow = std::move(File->Allow);
  return R;
}

} // namespace linkguard::config
