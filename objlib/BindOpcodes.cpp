//===- BindOpcodes.cpp - dyld bind opcode tables, checked before decoding -===//
//
// LC_DYLD_INFO[_ONLY] points at three opcode streams dyld runs to bind
// imports: bind, lazy-bind and weak-bind. libObject's MachOBindEntry
// decodes them (as llvm-objdump --bind does), but trusts them in ways a
// crafted file can turn into a hang or a read past the stream (LLVM 19):
//
//  - BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB: before returning the
//    first entry, BindEntryCheckSegAndOffsets checks every one of `count`
//    addresses against every section. A count of 2^62 with a skip of
//    2^64 - 8 (the stride wraps to 0, so every address is valid) never
//    ends: issue 12's 840-byte file (tests/yaml/bind_times_skip.yaml).
//  - every other bind and segment opcode is checked against every section,
//    so a long stream in an image with many sections costs their product;
//  - each DONE in a lazy-bind stream scans the whole rest of the stream,
//    which is quadratic in the stream's length;
//  - after a SET_* opcode the decoder reads the next opcode without checking
//    for the end of the stream, and a symbol name's NUL is looked for one
//    byte past it.
//
// So each stream is first walked here, opcode by opcode, the way the decoder
// will walk it, with the segment index and offset it will have: ULEBs must
// decode (not overflow, not run past the end), a name must end inside the
// stream, `count` binds every `skip + pointer size` bytes must fit in the
// segment (dyld's own bound: the segment's vmsize, segments numbered in
// load-command order as dyld does), and the section checks the decoder will
// make are counted against a budget linear in the image's size. A stream
// that fails is not decoded: a warning, and "referenced" answers become
// unknown. One that passes is handed over as a copy ending in two DONE
// bytes, so no read can leave it; a lazy-bind stream is handed over one
// entry (one DONE-terminated run) at a time, which is also how dyld runs it:
// each lazy binding starts from its own offset with fresh state.
//
//===----------------------------------------------------------------------===//
#include "objlib/MachOImports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

using Kind = MachOBindEntry::Kind;

struct StreamLimits {
  std::vector<uint64_t> SegmentSizes; // vmsize per LC_SEGMENT[_64], in order
  uint64_t PointerSize = 8;
  uint64_t Sections = 1; // what each address check scans
  uint64_t ChecksLeft = 0;
};

/// What is handed to libObject: a copy of the stream followed by two DONE
/// bytes, and the [begin, end) runs of it to decode one after the other.
struct Checked {
  std::vector<uint8_t> Copy;
  std::vector<std::pair<size_t, size_t>> Pieces;
};

/// One walk over a stream. check() returns why the stream must not be
/// decoded, or "" and fills Out.
class StreamCheck {
public:
  StreamCheck(ArrayRef<uint8_t> Stream, Kind K, StreamLimits &L)
      : Stream(Stream), K(K), L(L), P(Stream.begin()) {}

  std::string check(Checked &Out);

private:
  // ULEB128 and SLEB128 exactly as LLVM 19's decodeULEB128 and
  // decodeSLEB128 accept them (libObject decodes the same bytes with those),
  // without their shift of a zero slice by 64 or more, which is undefined
  // (found by fuzz_objlib under UBSan in a run of 0x80 bytes).
  bool uleb(uint64_t &V) {
    V = 0;
    for (uint64_t Shift = 0;; Shift += 7) {
      if (P == Stream.end())
        return false;
      uint64_t Slice = *P & 0x7f;
      if ((Shift == 63 && Slice > 1) || (Shift > 63 && Slice != 0))
        return false; // "uleb128 too big for uint64"
      if (Shift < 64)
        V += Slice << Shift;
      if (*P++ < 0x80)
        return true;
    }
  }
  bool sleb() {
    uint64_t V = 0;
    for (uint64_t Shift = 0;; Shift += 7) {
      if (P == Stream.end())
        return false;
      uint64_t Slice = *P & 0x7f;
      bool Negative = V >> 63;
      if ((Shift == 63 && Slice != 0 && Slice != 0x7f) ||
          (Shift > 63 && Slice != (Negative ? 0x7f : 0)))
        return false; // "sleb128 too big for int64"
      if (Shift < 64)
        V |= Slice << Shift;
      if (*P++ < 0x80)
        return true;
    }
  }
  /// The decoder checks Count addresses against every section.
  bool spend(uint64_t Count) {
    uint64_t Checks = SaturatingMultiply(Count, L.Sections);
    if (Checks > L.ChecksLeft)
      return false;
    L.ChecksLeft -= Checks;
    return true;
  }
  std::string at(const uint8_t *Op) const {
    return "opcode at 0x" + utohexstr(Op - Stream.begin());
  }
  std::string checkTimesSkipping(const uint8_t *Op, uint8_t SegIndex,
                                 uint64_t &Offset);

  ArrayRef<uint8_t> Stream;
  Kind K;
  StreamLimits &L;
  const uint8_t *P;
};

std::string StreamCheck::checkTimesSkipping(const uint8_t *Op, uint8_t SegIndex,
                                            uint64_t &Offset) {
  uint64_t Count = 0, Skip = 0;
  if (!uleb(Count) || !uleb(Skip))
    return "-"; // the decoder stops here with an error
  const char *Name = "BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB";
  if (SegIndex >= L.SegmentSizes.size())
    return std::string(Name) + " (" + at(Op) + ") names segment " +
           std::to_string(SegIndex) + " but the image has " +
           std::to_string(L.SegmentSizes.size());
  if (Skip > UINT64_MAX - L.PointerSize)
    return std::string(Name) + " (" + at(Op) + "): skip " +
           std::to_string(Skip) + " wraps around";
  uint64_t Stride = Skip + L.PointerSize, Span = 0, End = 0;
  bool Overflow =
      Count > 1 && (__builtin_mul_overflow(Count - 1, Stride, &Span) ||
                    __builtin_add_overflow(Offset, Span, &End) ||
                    __builtin_add_overflow(End, L.PointerSize, &End));
  if (Count > 1 && (Overflow || End > L.SegmentSizes[SegIndex]))
    return std::string(Name) + " (" + at(Op) + "): " + std::to_string(Count) +
           " binds every " + std::to_string(Stride) + " bytes from offset " +
           std::to_string(Offset) + " overrun segment " +
           std::to_string(SegIndex) + " (" +
           std::to_string(L.SegmentSizes[SegIndex]) + " bytes)";
  if (!spend(Count))
    return std::string(Name) + " (" + at(Op) + "): " + std::to_string(Count) +
           " binds are more than the file can hold";
  Offset += Count * Stride;
  return "";
}

std::string StreamCheck::check(Checked &Out) {
  // A lazy piece ends after its DONE, so the decoder stops inside it; only
  // the last piece can end on a SET_* opcode, and the copy's two DONE bytes
  // follow it. Runs of DONE alone (padding) bind nothing and are skipped.
  const uint8_t *PieceStart = P;
  auto cut = [&](const uint8_t *To, bool Last) {
    if (To - PieceStart > 1 || (To > PieceStart && *PieceStart))
      Out.Pieces.emplace_back(PieceStart - Stream.begin(),
                              To - Stream.begin() + (Last ? 2 : 0));
    PieceStart = To;
  };
  uint8_t SegIndex = 0;
  uint64_t Offset = 0, V = 0;
  const bool Lazy = K == Kind::Lazy, Weak = K == Kind::Weak;
  bool Stop = false; // the decoder stops here (with an error, or DONE)
  while (P < Stream.end() && !Stop) {
    const uint8_t *Op = P;
    uint8_t Imm = *P & MachO::BIND_IMMEDIATE_MASK;
    uint8_t Opcode = *P & MachO::BIND_OPCODE_MASK;
    ++P;
    std::string Why;
    switch (Opcode) {
    case MachO::BIND_OPCODE_DONE:
      if (!Lazy)
        Stop = true;
      else
        cut(P, false); // one lazy binding ends here
      break;
    case MachO::BIND_OPCODE_SET_DYLIB_ORDINAL_IMM:
    case MachO::BIND_OPCODE_SET_DYLIB_SPECIAL_IMM:
      Stop = Weak;
      break;
    case MachO::BIND_OPCODE_SET_DYLIB_ORDINAL_ULEB:
      Stop = Weak || !uleb(V);
      break;
    case MachO::BIND_OPCODE_SET_TYPE_IMM:
      break;
    case MachO::BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM:
      P = std::find(P, Stream.end(), 0);
      if (P == Stream.end())
        return "symbol name (" + at(Op) + ") runs past the end of the table";
      ++P;
      break;
    case MachO::BIND_OPCODE_SET_ADDEND_SLEB:
      Stop = !sleb();
      break;
    case MachO::BIND_OPCODE_SET_SEGMENT_AND_OFFSET_ULEB:
      SegIndex = Imm;
      Stop = !uleb(Offset);
      if (!Stop && !spend(1))
        return "more opcodes than the file can hold (" + at(Op) + ")";
      break;
    case MachO::BIND_OPCODE_ADD_ADDR_ULEB:
      Stop = !uleb(V);
      Offset += V;
      if (!Stop && !spend(1))
        return "more opcodes than the file can hold (" + at(Op) + ")";
      break;
    case MachO::BIND_OPCODE_DO_BIND:
      if (!spend(1))
        return "more binds than the file can hold (" + at(Op) + ")";
      Offset += L.PointerSize;
      break;
    case MachO::BIND_OPCODE_DO_BIND_ADD_ADDR_ULEB:
      Stop = Lazy || !uleb(V);
      Offset += V + L.PointerSize;
      if (!Stop && !spend(2))
        return "more binds than the file can hold (" + at(Op) + ")";
      break;
    case MachO::BIND_OPCODE_DO_BIND_ADD_ADDR_IMM_SCALED:
      Stop = Lazy;
      Offset += (uint64_t(Imm) + 1) * L.PointerSize;
      if (!Stop && !spend(2))
        return "more binds than the file can hold (" + at(Op) + ")";
      break;
    case MachO::BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB:
      if (Lazy) {
        Stop = true;
        break;
      }
      Why = checkTimesSkipping(Op, SegIndex, Offset);
      if (Why == "-")
        Stop = true;
      else if (!Why.empty())
        return Why;
      break;
    default: // BIND_OPCODE_THREADED and unknown opcodes: the decoder stops
      Stop = true;
      break;
    }
  }
  cut(Stream.end(), true);
  // One allocation of the final size: growing it by the two bytes after
  // the copy would allocate, touch and copy it all a second time.
  Out.Copy.reserve(Stream.size() + 2);
  Out.Copy.assign(Stream.begin(), Stream.end());
  Out.Copy.insert(Out.Copy.end(), 2, MachO::BIND_OPCODE_DONE);
  return "";
}

struct Table {
  Kind K;
  const char *Name;
  BindSource Source;
  uint32_t Offset, Size;
};

void decodeTable(MachOObjectFile &Obj, const Table &T, const Checked &In,
                 ImportSink &Sink, Slice &S) {
  // A TIMES_SKIPPING loop yields the same binding many times: file it once.
  int LastOrdinal = 0;
  uint32_t LastFlags = 0;
  std::string LastSymbol;
  bool HaveLast = false;
  for (auto [Begin, End] : In.Pieces) {
    ArrayRef<uint8_t> Piece(In.Copy.data() + Begin, End - Begin);
    Error Err = Error::success();
    for (const MachOBindEntry &E :
         MachOObjectFile::bindTable(Err, &Obj, Piece, Obj.is64Bit(), T.K)) {
      if (HaveLast && E.ordinal() == LastOrdinal && E.flags() == LastFlags &&
          E.symbolName() == LastSymbol)
        continue;
      HaveLast = true;
      LastOrdinal = E.ordinal(), LastFlags = E.flags();
      LastSymbol = E.symbolName().str();
      if (T.K == Kind::Weak) {
        // A weak-bind entry flagged NON_WEAK_DEFINITION announces a strong
        // definition in this image, not an import.
        if (E.flags() & MachO::BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION)
          continue;
        Sink.addWeakLookup(E.symbolName(), T.Source);
        continue;
      }
      bool WeakImport = E.flags() & MachO::BIND_SYMBOL_FLAGS_WEAK_IMPORT;
      Sink.addBound(E.ordinal(), E.symbolName(), T.Source, WeakImport);
    }
    if (Err) {
      S.Warnings.push_back(std::string(T.Name) +
                           " table: " + toString(std::move(Err)));
      Sink.Incomplete = true;
      return;
    }
  }
}

} // namespace

Error readOpcodeTables(MachOObjectFile &Obj, const SliceBytes &Bytes,
                       ImportSink &Sink, Slice &S) {
  std::optional<MachO::dyld_info_command> Info;
  StreamLimits L;
  for (const MachOObjectFile::LoadCommandInfo &Load : Obj.load_commands()) {
    if (Load.C.cmd == MachO::LC_DYLD_INFO ||
        Load.C.cmd == MachO::LC_DYLD_INFO_ONLY)
      Info = Obj.getDyldInfoLoadCommand(Load);
    else if (Load.C.cmd == MachO::LC_SEGMENT)
      L.SegmentSizes.push_back(Obj.getSegmentLoadCommand(Load).vmsize);
    else if (Load.C.cmd == MachO::LC_SEGMENT_64)
      L.SegmentSizes.push_back(Obj.getSegment64LoadCommand(Load).vmsize);
  }
  if (!Info)
    return Error::success();
  L.PointerSize = Obj.is64Bit() ? 8 : 4;
  L.Sections = std::max<uint64_t>(
      1, std::distance(Obj.section_begin(), Obj.section_end()));
  L.ChecksLeft = 16 * Bytes.Size + (uint64_t(4) << 20);
  const Table Tables[] = {{Kind::Regular, "bind", BindSource::Bind,
                           Info->bind_off, Info->bind_size},
                          {Kind::Lazy, "lazy-bind", BindSource::LazyBind,
                           Info->lazy_bind_off, Info->lazy_bind_size},
                          {Kind::Weak, "weak-bind", BindSource::WeakBind,
                           Info->weak_bind_off, Info->weak_bind_size}};
  for (const Table &T : Tables) {
    // MachOObjectFile::create checked that each table lies inside the file.
    if (T.Size == 0 || T.Offset >= Bytes.Size || T.Size > Bytes.Size - T.Offset)
      continue;
    if (Error E = Bytes.load(T.Offset, T.Size))
      return E;
    Checked In;
    std::string Why =
        StreamCheck(ArrayRef(Bytes.data() + T.Offset, T.Size), T.K, L)
            .check(In);
    Bytes.release(T.Offset, T.Size); // decoded from the copy
    if (!Why.empty()) {
      S.Warnings.push_back(std::string(T.Name) + " table: " + Why +
                           "; not decoded");
      Sink.Incomplete = true;
      continue;
    }
    decodeTable(Obj, T, In, Sink, S);
  }
  return Error::success();
}

} // namespace linkguard::objlib
