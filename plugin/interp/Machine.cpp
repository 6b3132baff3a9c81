//===- plugin/interp/Machine.cpp - The sm_90 pieces the interpreter models ===//
//
// See Machine.h.
//
//===----------------------------------------------------------------------===//
#include "interp/Machine.h"

#include "tf/element.hpp"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

namespace tf::interp {

namespace {

llvm::Error fail(const llvm::Twine &Message) {
  return llvm::createStringError(Message);
}

std::uint16_t load16(const std::uint8_t *P) {
  std::uint16_t V;
  std::memcpy(&V, P, 2);
  return V;
}

void store16(std::uint8_t *P, std::uint16_t V) { std::memcpy(P, &V, 2); }

} // namespace

std::uint8_t *TensorArg::at(llvm::ArrayRef<std::int64_t> Coord) const {
  std::int64_t Offset = 0;
  for (std::size_t D = 0; D < Coord.size(); ++D)
    Offset += Coord[D] * Strides[D];
  return static_cast<std::uint8_t *>(Data) + Offset * bytes(Element);
}

//===- Elements -----------------------------------------------------------===//

bool isModeledFloat(DType T) {
  return T == DType::bf16 || T == DType::f16 || T == DType::fp8e4m3 ||
         T == DType::fp8e5m2 || T == DType::tf32 || T == DType::f32;
}

float loadAsFloat(const std::uint8_t *P, DType T) {
  switch (T) {
  case DType::bf16:
    return float(bf16::from_bits(load16(P)));
  case DType::f16:
    return float(f16::from_bits(load16(P)));
  case DType::fp8e4m3:
    return float(fp8e4m3::from_bits(*P));
  case DType::fp8e5m2:
    return float(fp8e5m2::from_bits(*P));
  case DType::tf32:
  case DType::f32: {
    float V;
    std::memcpy(&V, P, 4);
    return V;
  }
  default:
    break;
  }
  llvm_unreachable("loadAsFloat: not a modeled float type");
}

void storeFromFloat(std::uint8_t *P, DType T, float V) {
  switch (T) {
  case DType::bf16:
    store16(P, bf16(V).bits);
    return;
  case DType::f16:
    store16(P, f16(V).bits);
    return;
  case DType::fp8e4m3:
    *P = fp8e4m3(V).bits;
    return;
  case DType::fp8e5m2:
    *P = fp8e5m2(V).bits;
    return;
  case DType::tf32: {
    const float W = float(tf32(V));
    std::memcpy(P, &W, 4);
    return;
  }
  case DType::f32:
    std::memcpy(P, &V, 4);
    return;
  default:
    break;
  }
  llvm_unreachable("storeFromFloat: not a modeled float type");
}

//===- mbarrier -----------------------------------------------------------===//

llvm::Error Mbarrier::init(std::int64_t Count) {
  if (Count < 1 || Count > MaxCount)
    return fail("mbarrier.init with count " + llvm::Twine(Count) +
                " (PTX allows 1 to " + llvm::Twine(MaxCount) + ")");
  Initialized = true;
  Expected = Pending = Count;
  Tx = 0;
  Phase = 0;
  return llvm::Error::success();
}

void Mbarrier::completeIfDone() {
  if (Pending != 0 || Tx != 0)
    return;
  ++Phase;
  Pending = Expected;
}

llvm::Error Mbarrier::arrive(std::int64_t Count) {
  if (!Initialized)
    return fail("arrival on an mbarrier that was never initialized");
  if (Count > Pending)
    return fail(llvm::Twine(Count) + " arrival(s) in phase " +
                llvm::Twine(Phase) + ", which has only " +
                llvm::Twine(Pending) + " of its " + llvm::Twine(Expected) +
                " pending: too many arrivals");
  Pending -= Count;
  if (Pending == 0 && Tx < 0)
    return fail("phase " + llvm::Twine(Phase) + " got every arrival with " +
                llvm::Twine(-Tx) +
                " transaction bytes completed beyond those it expects");
  completeIfDone();
  return llvm::Error::success();
}

llvm::Error Mbarrier::expectTx(std::int64_t Bytes) {
  if (!Initialized)
    return fail("expect_tx on an mbarrier that was never initialized");
  if (Bytes < 0 || Tx + Bytes > MaxCount)
    return fail("expect_tx of " + llvm::Twine(Bytes) + " bytes takes phase " +
                llvm::Twine(Phase) + "'s transaction count past " +
                llvm::Twine(MaxCount));
  Tx += Bytes;
  return llvm::Error::success();
}

llvm::Error Mbarrier::completeTx(std::int64_t Bytes) {
  if (!Initialized)
    return fail("a copy completes on an mbarrier that was never initialized");
  Tx -= Bytes;
  if (Tx < 0 && Pending == 0)
    return fail("a copy completes " + llvm::Twine(Bytes) +
                " transaction bytes in phase " + llvm::Twine(Phase) +
                ", which expects only " + llvm::Twine(Tx + Bytes) +
                " more: transaction count underflow");
  if (Tx < -MaxCount)
    return fail("transaction count of phase " + llvm::Twine(Phase) +
                " below -" + llvm::Twine(MaxCount));
  completeIfDone();
  return llvm::Error::success();
}

std::string Mbarrier::describe() const {
  if (!Initialized)
    return "never initialized";
  std::string Out = "phase " + std::to_string(Phase) + " (parity " +
                    std::to_string(Phase & 1) + "), " +
                    std::to_string(Pending) + " of " +
                    std::to_string(Expected) + " arrivals";
  if (Tx != 0)
    Out += " and " + std::to_string(Tx) + " transaction bytes";
  return Out + " pending";
}

//===- Swizzle ------------------------------------------------------------===//

std::int64_t swizzleAddress(SwizzleMode Mode, std::int64_t Address) {
  return swizzle_for(Mode)(Address);
}

//===- TMA ----------------------------------------------------------------===//

namespace {

/// The rows of a box: every coordinate but the innermost, row-major.
struct BoxWalk {
  llvm::SmallVector<std::int64_t, 5> Box;
  std::int64_t Rows = 1, RowElements = 1;

  explicit BoxWalk(llvm::ArrayRef<std::int64_t> B) : Box(B) {
    RowElements = B.back();
    for (std::size_t D = 0; D + 1 < B.size(); ++D)
      Rows *= B[D];
  }
  /// The in-box coordinate of row \p R's first element.
  void rowStart(std::int64_t R, llvm::SmallVectorImpl<std::int64_t> &Out) {
    Out.assign(Box.size(), 0);
    for (std::size_t D = Box.size() - 1; D-- > 0;) {
      Out[D] = R % Box[D];
      R /= Box[D];
    }
  }
};

/// Calls \p Element(SmemAddress, GlobalPointer or null when outside the
/// tensor) for every element of the box of \p Map at \p Coords starting at
/// shared-memory byte address \p Base.
template <class Fn>
llvm::Error
forEachBoxElement(const lower::TensorMap &Map, const TensorArg &Global,
                  llvm::ArrayRef<std::int64_t> Coords, std::int64_t SmemBytes,
                  std::int64_t Base, Fn &&Element) {
  if (Coords.size() != Map.Box.size())
    return fail("the copy names " + llvm::Twine(Coords.size()) +
                " coordinates for a box of rank " +
                llvm::Twine(Map.Box.size()));
  const std::int64_t E = bytes(Map.Element);
  BoxWalk Walk(Map.Box);
  std::int64_t BoxBytes = Walk.Rows * Walk.RowElements * E;
  if (Base < 0 || Base + BoxBytes > SmemBytes)
    return fail("the box's " + llvm::Twine(BoxBytes) +
                " bytes at shared-memory offset " + llvm::Twine(Base) +
                " reach past the " + llvm::Twine(SmemBytes) +
                " bytes of shared memory");
  // Box dimension J (box order) is the tensor's dimension Map.Order[J]:
  // At holds the element's tensor coordinates.
  llvm::SmallVector<std::int64_t, 5> In, At(Coords.size());
  const std::size_t Inner = Coords.size() - 1;
  const std::size_t InnerDim = static_cast<std::size_t>(Map.Order[Inner]);
  for (std::int64_t R = 0; R < Walk.Rows; ++R) {
    Walk.rowStart(R, In);
    bool RowInside = true;
    for (std::size_t J = 0; J < Inner; ++J) {
      const std::size_t D = static_cast<std::size_t>(Map.Order[J]);
      At[D] = Coords[J] + In[J];
      RowInside &= At[D] >= 0 && At[D] < Global.Extents[D];
    }
    for (std::int64_t C = 0; C < Walk.RowElements; ++C) {
      At[InnerDim] = Coords[Inner] + C;
      const bool Inside = RowInside && At[InnerDim] >= 0 &&
                          At[InnerDim] < Global.Extents[InnerDim];
      const std::int64_t Linear = (R * Walk.RowElements + C) * E;
      Element(swizzleAddress(Map.Swizzle, Base + Linear),
              Inside ? Global.at(At) : nullptr);
    }
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error checkTensorMap(const lower::TensorMap &Map, const TensorArg &Global,
                           bool Strict) {
  const std::string Of = "tensor map of '" + Map.Tensor + "': ";
  if (Global.Element != Map.Element)
    return fail(Of + "the argument holds " + std::string(name(Global.Element)) +
                ", the map " + std::string(name(Map.Element)));
  const std::size_t Rank = Map.Box.size();
  if (Rank < 1 || Rank > 5)
    return fail(Of + "rank " + llvm::Twine(Rank) +
                "; TMA addresses ranks 1 to 5");
  if (Global.Extents.size() != Rank || Global.Strides.size() != Rank)
    return fail(Of + "a box of rank " + llvm::Twine(Rank) +
                " for a tensor of " + llvm::Twine(Global.Extents.size()) +
                " extents and " + llvm::Twine(Global.Strides.size()) +
                " strides");
  llvm::SmallVector<bool, 5> Seen(Rank, false);
  for (int D : Map.Order) {
    if (D < 0 || static_cast<std::size_t>(D) >= Rank || Seen[D])
      return fail(Of + "the box order is not a permutation of the tensor's " +
                  llvm::Twine(Rank) + " dimensions");
    Seen[D] = true;
  }
  if (Map.Order.size() != Rank)
    return fail(Of + "a box order of " + llvm::Twine(Map.Order.size()) +
                " dimensions for a box of rank " + llvm::Twine(Rank));
  const std::size_t InnerDim = static_cast<std::size_t>(Map.Order.back());
  if (Global.Strides[InnerDim] != 1)
    return fail(Of + "the innermost stride is " +
                llvm::Twine(Global.Strides[InnerDim]) +
                "; TMA reads the innermost dimension contiguously");
  for (std::size_t J = 0; J < Rank; ++J) {
    const std::size_t D = static_cast<std::size_t>(Map.Order[J]);
    if (Map.Box[J] < 1 || Map.Box[J] > 256)
      return fail(Of + "box extent " + llvm::Twine(Map.Box[J]) +
                  " of dimension " + llvm::Twine(D) + " is outside 1..256");
    if (Global.Extents[D] < 1)
      return fail(Of + "dimension " + llvm::Twine(D) + " has extent " +
                  llvm::Twine(Global.Extents[D]));
  }
  const std::int64_t E = bytes(Map.Element);
  const std::int64_t Row = Map.Box.back() * E;
  if (Row % 16 != 0)
    return fail(Of + "a box row of " + llvm::Twine(Row) +
                " bytes, not a multiple of 16");
  if (Map.Swizzle != SwizzleMode::none && Row != swizzle_row_bytes(Map.Swizzle))
    return fail(Of + "a box row of " + llvm::Twine(Row) + " bytes under the " +
                llvm::Twine(swizzle_row_bytes(Map.Swizzle)) +
                "-byte swizzle; the model copies rows of exactly the "
                "swizzle's span");
  if (!Strict)
    return llvm::Error::success();
  if (reinterpret_cast<std::uintptr_t>(Global.Data) % 16 != 0)
    return fail(Of + "the tensor's data is not 16-byte aligned");
  for (std::size_t D = 0; D < Rank; ++D)
    if (D != InnerDim &&
        (Global.Strides[D] < 1 || Global.Strides[D] * E % 16 != 0))
      return fail(Of + "dimension " + llvm::Twine(D) + " has a stride of " +
                  llvm::Twine(Global.Strides[D] * E) +
                  " bytes; cuTensorMapEncodeTiled needs a positive multiple "
                  "of 16");
  return llvm::Error::success();
}

llvm::Expected<std::int64_t> tmaLoad(const lower::TensorMap &Map,
                                     const TensorArg &Global,
                                     llvm::ArrayRef<std::int64_t> Coords,
                                     llvm::MutableArrayRef<std::uint8_t> Smem,
                                     std::int64_t Dst) {
  const std::int64_t E = bytes(Map.Element);
  std::int64_t Written = 0;
  if (llvm::Error Err = forEachBoxElement(
          Map, Global, Coords, static_cast<std::int64_t>(Smem.size()), Dst,
          [&](std::int64_t Address, const std::uint8_t *From) {
            if (From)
              std::memcpy(&Smem[Address], From, E);
            else
              std::memset(&Smem[Address], 0, E);
            Written += E;
          }))
    return Err;
  return Written;
}

llvm::Error tmaStore(const lower::TensorMap &Map, const TensorArg &Global,
                     llvm::ArrayRef<std::int64_t> Coords,
                     llvm::ArrayRef<std::uint8_t> Smem, std::int64_t Src) {
  const std::int64_t E = bytes(Map.Element);
  return forEachBoxElement(Map, Global, Coords,
                           static_cast<std::int64_t>(Smem.size()), Src,
                           [&](std::int64_t Address, std::uint8_t *To) {
                             if (To)
                               std::memcpy(To, &Smem[Address], E);
                           });
}

//===- WGMMA --------------------------------------------------------------===//

llvm::Error checkWgmmaAtom(const lower::MmaAtom &Atom) {
  auto Bad = [&](const llvm::Twine &Why) {
    return fail("WGMMA " + lower::sm90::wgmmaOpcode(Atom) + ": " + Why);
  };
  if (Atom.M != 64 || Atom.N < 8 || Atom.N > 256 || Atom.N % 8 != 0)
    return Bad("WGMMA computes m64nN with N a multiple of 8 up to 256");
  const std::int64_t WantK = 32 / bytes(Atom.A);
  if (Atom.K != WantK || bytes(Atom.A) != bytes(Atom.B))
    return Bad("k" + llvm::Twine(Atom.K) + " does not match its " +
               llvm::Twine(name(Atom.A).data()) + " inputs (k" +
               llvm::Twine(WantK) + ")");
  return llvm::Error::success();
}

llvm::Expected<std::uint64_t> encodeDescriptor(const lower::sm90::SmemDescriptor &D,
                                               std::int64_t StartAddress) {
  auto Field = [](const char *What, std::int64_t Bytes,
                  std::uint64_t &Out) -> llvm::Error {
    if (Bytes < 0 || Bytes % 16 != 0 || (Bytes >> 4) >= (1 << 14))
      return fail(llvm::Twine("descriptor ") + What + " of " +
                  llvm::Twine(Bytes) +
                  " bytes is not a multiple of 16 that fits 14 bits");
    Out = static_cast<std::uint64_t>(Bytes >> 4);
    return llvm::Error::success();
  };
  if (StartAddress < 0 || StartAddress % 16 != 0 ||
      StartAddress >= (std::int64_t(1) << 18))
    return fail("descriptor start address " + llvm::Twine(StartAddress) +
                " is not 16-byte aligned inside the 256 KiB window");
  std::uint64_t Start = static_cast<std::uint64_t>(StartAddress & 0x3FFFF) >> 4;
  std::uint64_t Lbo = 1, Sbo = 0;
  if (D.LeadingUsed)
    if (llvm::Error E = Field("leading byte offset", D.LeadingBytes, Lbo))
      return E;
  if (llvm::Error E = Field("stride byte offset", D.StrideBytes, Sbo))
    return E;
  if (D.BaseOffset < 0 || D.BaseOffset > 7)
    return fail("descriptor base offset " + llvm::Twine(D.BaseOffset) +
                " does not fit 3 bits");
  return Start | (Lbo << 16) | (Sbo << 32) |
         (static_cast<std::uint64_t>(D.BaseOffset) << 49) |
         (static_cast<std::uint64_t>(D.swizzleField()) << 62);
}

MatrixDescriptor decodeDescriptor(std::uint64_t Bits) {
  MatrixDescriptor D;
  D.StartAddress = static_cast<std::int64_t>(Bits & 0x3FFF) << 4;
  D.LeadingBytes = static_cast<std::int64_t>((Bits >> 16) & 0x3FFF) << 4;
  D.StrideBytes = static_cast<std::int64_t>((Bits >> 32) & 0x3FFF) << 4;
  D.BaseOffset = static_cast<int>((Bits >> 49) & 0x7);
  switch ((Bits >> 62) & 0x3) {
  case 0:
    D.Mode = SwizzleMode::none;
    break;
  case 1:
    D.Mode = SwizzleMode::bytes128;
    break;
  case 2:
    D.Mode = SwizzleMode::bytes64;
    break;
  default:
    D.Mode = SwizzleMode::bytes32;
    break;
  }
  return D;
}

std::int64_t operandAddress(const MatrixDescriptor &D, bool MNMajor,
                            int ElementBytes, std::int64_t MN, std::int64_t K) {
  const std::int64_t E = ElementBytes;
  const std::int64_t T = 16 / E; // elements per 16-byte chunk
  std::int64_t Offset;
  if (D.Mode == SwizzleMode::none) {
    // Core matrices of 8 rows x 16 bytes, dense.
    if (!MNMajor)
      Offset = (MN % 8) * 16 + (MN / 8) * D.StrideBytes +
               (K / T) * D.LeadingBytes + (K % T) * E;
    else
      Offset = (MN % T) * E + (MN / T) * D.StrideBytes + (K % 8) * 16 +
               (K / 8) * D.LeadingBytes;
  } else {
    // Swizzle atoms of 8 rows of W bytes.
    const std::int64_t W = swizzle_row_bytes(D.Mode);
    if (!MNMajor)
      Offset = (MN % 8) * W + (MN / 8) * D.StrideBytes + K * E;
    else
      Offset = (MN % (W / E)) * E + (MN / (W / E)) * D.LeadingBytes +
               (K % 8) * W + (K / 8) * D.StrideBytes;
  }
  return swizzleAddress(D.Mode, D.StartAddress + Offset);
}

} // namespace tf::interp
