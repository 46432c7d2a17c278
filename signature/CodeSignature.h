//===- CodeSignature.h - does a Mach-O image's signature still match it? -*- C++ -*-===//
//
// Apple silicon runs no unsigned code: the kernel refuses an arm64 image
// without a code signature, and kills a process (SIGKILL, "Killed: 9") when
// a page it maps does not hash to what the image's CodeDirectory says - a
// file changed after it was signed (install_name_tool, a patch, a strip).
// `check --portable` judges that statically, rule `code-signature`.
//
// The signature is LC_CODE_SIGNATURE's blob: a SuperBlob (big-endian) of
// indexed blobs, among them one or more CodeDirectories (the primary at
// slot 0, alternates at 0x1000+: codesign writes SHA-1 and SHA-256 ones).
// The kernel validates with the strongest hash type it knows; so does
// this. A CodeDirectory holds one hash per code page of the bytes before
// codeLimit (the last page short) and, below them, the special slots: the
// hashes of blobs in the same SuperBlob (requirements 2, entitlements 5,
// DER entitlements 7) are checked here; those of files outside the image
// (Info.plist 1, resources 3) and the CMS signature (who signed it) are not.
// Sources: xnu bsd/kern/ubc_subr.c (cs_validate_codedirectory,
// cs_find_blob), bsd/sys/codesign.h / osfmk/kern/cs_blobs.h (the layouts),
// and lld's own writer (lld/MachO/SyntheticSections.cpp CodeSignatureSection).
//
// Everything is read within the bytes given: each count and offset is
// checked against the blob that holds it, every loop ends within what the
// file holds, and the work is bounded by the slice's size. What cannot be
// read is Malformed, never Valid.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/Contract.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace linkguard::signature {

/// Which slices are judged: arm64 (and arm64e) ones, what Apple silicon
/// refuses (the default), or every slice (--signatures=all).
enum class Scope { Arm64, All };

enum class State {
  Valid,     // every code page (and in-blob special slot) matches
  Unsigned,  // no LC_CODE_SIGNATURE
  Modified,  // some hash does not match: changed after signing
  Malformed, // the signature cannot be read or is not supported: undecided
};

/// Page indices listed in a finding at most; the count is always whole.
constexpr size_t MaxListedPages = 8;

struct SliceSignature {
  std::string Arch;  // "arm64", "x86_64", ... (lipo's names)
  State St = State::Malformed;
  std::string Why;   // Malformed: what could not be read
  unsigned HashType = 0;   // CS_HASHTYPE_*: 1 SHA-1, 2 SHA-256, 3 SHA-256/20, 4 SHA-384
  uint64_t PageSize = 0;   // bytes; a CodeDirectory's pageSize 0 is one page
  uint64_t CodeLimit = 0;  // the bytes the pages cover
  uint64_t CodePages = 0;
  uint64_t BadPageCount = 0;
  std::vector<uint64_t> BadPages;          // first MaxListedPages, ascending
  std::vector<unsigned> BadSpecialSlots;   // 2, 5, 7 whose blob does not match
  bool AdHoc = false, LinkerSigned = false; // CS_ADHOC, CS_LINKER_SIGNED
};

/// The signatures of the linked images (executables, dylibs, bundles,
/// dyld, kexts; not object files or dSYMs) among the slices of a thin or
/// universal Mach-O file, in slice order, those of Scope only. A universal
/// header that cannot be read is one Malformed result with no Arch.
/// Not a Mach-O file (ELF, anything else): nothing.
std::vector<SliceSignature> verifyFile(llvm::StringRef Bytes, Scope S);

/// One slice (Bytes: the slice alone), whatever its architecture.
SliceSignature verifySlice(llvm::StringRef Bytes, llvm::StringRef Arch);

/// The findings of verifyFile, rule "code-signature": Unsigned and
/// Modified are violations that say which pages and the fix (re-sign after
/// the last change, `codesign -f -s -`), Malformed is unknown (undecided).
/// Name is the file as printed; Universal: findings name their slice.
void judgeSignatures(llvm::StringRef Bytes, Scope S, llvm::StringRef Name, bool Universal,
                     contract::Verdict &V);

} // namespace linkguard::signature
