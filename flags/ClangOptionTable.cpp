//===- ClangOptionTable.cpp - clang 19's option rows as an OptTable -------===//
//
// The same macro recipe clang's own DriverOptions.cpp and lld's drivers use
// over a generated Options.inc. Linking libclangDriver for this one table
// would drag in most of clang; these rows need only LLVMOption + LLVMSupport
// and start as fast as /bin/true when linked statically.
//
//===----------------------------------------------------------------------===//
#include "flags/ClangOptionTable.h"

#include "clang/Driver/Options.h"

#include "llvm/Option/OptTable.h"

using namespace llvm::opt;

namespace {

#define OPTTABLE_VALUES_CODE
#include "clang/Driver/Options.inc"
#undef OPTTABLE_VALUES_CODE

#define PREFIX(NAME, VALUE)                                                    \
  static constexpr llvm::StringLiteral NAME##_init[] = VALUE;                  \
  static constexpr llvm::ArrayRef<llvm::StringLiteral> NAME(                   \
      NAME##_init, std::size(NAME##_init) - 1);
#include "clang/Driver/Options.inc"
#undef PREFIX

static constexpr const llvm::StringLiteral PrefixTableInit[] =
#define PREFIX_UNION(VALUES) VALUES
#include "clang/Driver/Options.inc"
#undef PREFIX_UNION
    ;
static constexpr const llvm::ArrayRef<llvm::StringLiteral>
    PrefixTable(PrefixTableInit, std::size(PrefixTableInit) - 1);

using namespace clang::driver::options;

// The option names, in the table's (sorted) order, in one object of their
// own. As string literals they would be merged with every other literal of
// the binary, and lld spreads merged strings over 32 shards by their hash
// (MergeNoTailSection): a lookup's binary search would read a page per
// probe. Here its last probes fall on the same page or two.
struct OptionNames {
#define OPTION(PREFIX, PREFIXED_NAME, ID, ...) char Name_##ID[sizeof(PREFIXED_NAME)];
#include "clang/Driver/Options.inc"
#undef OPTION
};
static constexpr OptionNames Names = {
#define OPTION(PREFIX, PREFIXED_NAME, ...) PREFIXED_NAME,
#include "clang/Driver/Options.inc"
#undef OPTION
};

// Without clang's help texts and metavariables: linkguard parses with this
// table and never prints its help. Left out, they are not linked
// (--gc-sections drops unreferenced strings).
static constexpr OptTable::Info InfoTable[] = {
#define OPTION(PREFIX, PREFIXED_NAME, ID, KIND, GROUP, ALIAS, ALIASARGS,       \
               FLAGS, VISIBILITY, PARAM, HELPTEXT, HELPTEXTSFORVARIANTS,       \
               METAVAR, VALUES)                                                \
  LLVM_CONSTRUCT_OPT_INFO(PREFIX, Names.Name_##ID, ID, KIND, GROUP, ALIAS,     \
                          ALIASARGS, FLAGS, VISIBILITY, PARAM, nullptr, {},    \
                          nullptr, VALUES),
#include "clang/Driver/Options.inc"
#undef OPTION
};

class ClangDriverOptTable final : public PrecomputedOptTable {
public:
  ClangDriverOptTable() : PrecomputedOptTable(InfoTable, PrefixTable) {}
};

} // namespace

namespace linkguard::flags {

const OptTable &clangOptTable() {
  static const ClangDriverOptTable Table;
  return Table;
}

Visibility clangDriverVisibility() {
  return Visibility(clang::driver::options::ClangOption);
}

std::vector<std::string> clangSpellingsExtending(llvm::StringRef Spelling) {
  std::vector<std::string> Out;
  for (const OptTable::Info &I : InfoTable) {
    llvm::StringRef Name = I.getName();
    for (llvm::StringRef Prefix : I.Prefixes)
      if (Prefix.size() + Name.size() > Spelling.size() &&
          (Prefix.size() >= Spelling.size()
               ? Prefix.starts_with(Spelling)
               : Spelling.starts_with(Prefix) &&
                     Name.starts_with(Spelling.drop_front(Prefix.size()))))
        Out.push_back((Prefix + Name).str());
  }
  return Out;
}

} // namespace linkguard::flags
