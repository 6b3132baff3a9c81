//===- plugin/interp/Machine.h - The modeled sm_90 hardware -----*- C++ -*-===//
//
// The hardware objects and address functions behind the LIR interpreter
// (Interpreter.h), each modeled once, as the PTX ISA defines it, and tested
// on its own (test/interp/MachineTest.cpp):
//
//   - the mbarrier: pending arrivals and transaction bytes per phase, the
//     phase parity that try_wait.parity tests (PTX ISA, "mbarrier");
//   - the shared-memory swizzle of TMA and WGMMA on byte addresses (bits
//     [7, 7+B) XORed into [4, 4+B): 128B is Swizzle(3,4,3), 64B
//     Swizzle(2,4,3), 32B Swizzle(1,4,3); tf/layout/swizzle.hpp);
//   - the TMA tiled copy of one box between a global tensor and shared
//     memory (cp.async.bulk.tensor), out-of-bounds elements zero on load and
//     dropped on store;
//   - the WGMMA shared-memory matrix descriptor: its 64-bit encoding and the
//     byte address the hardware reads for element (mn, k) of an operand,
//     K-major or MN-major, in each swizzle mode (PTX ISA, "Matrix Descriptor
//     Format" and "Canonical Layouts");
//   - the shape and types of a WGMMA opcode.
//
// Nothing here knows the LIR's control structure; the interpreter calls
// these with evaluated operands. Addresses are byte offsets from the base of
// the CTA's dynamic shared memory, which the model takes as aligned to every
// swizzle period (the LIR's base alignment, Kernel::SharedAlign), so the
// hardware's absolute-address swizzle and the offset swizzle agree.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_INTERP_MACHINE_H
#define TF_PLUGIN_INTERP_MACHINE_H

#include "lower/sm90/Sm90.h"

#include "tf/dtype.hpp"
#include "tf/layout/swizzle.hpp"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace tf::interp {

//===- Kernel arguments ---------------------------------------------------===//

/// A kernel argument as the interpreter sees it: a tensor in host memory,
/// type-erased. Extents and strides are outermost first, strides in
/// elements (a row-major M x K matrix: extents {M, K}, strides {K, 1}).
struct TensorArg {
  /// The parameter's name; empty: matched by position only.
  std::string Name;
  void *Data = nullptr;
  DType Element = DType::f32;
  llvm::SmallVector<std::int64_t, 4> Extents;
  llvm::SmallVector<std::int64_t, 4> Strides;
  /// For an integer parameter: its value (Data, Extents and Strides unused).
  std::int64_t Integer = 0;
  /// For a float parameter: its value, as the kernel declares it (float or
  /// double; the epilogue computes with it as f32).
  double Float = 0;

  /// The host address of the element at \p Coord (one per dimension).
  /// @pre Coord is inside the extents
  std::uint8_t *at(llvm::ArrayRef<std::int64_t> Coord) const;
};

//===- Elements -----------------------------------------------------------===//

/// The float value of the element of type \p T stored at \p P (exact for
/// bf16, f16, tf32 and f32).
/// @pre T is bf16, f16, fp8e4m3, fp8e5m2, tf32 or f32
float loadAsFloat(const std::uint8_t *P, DType T);

/// Stores \p V converted to \p T (round to nearest even; the fp8 types as
/// tf::fp8e4m3 and tf::fp8e5m2 convert) at \p P.
/// @pre T is bf16, f16, fp8e4m3, fp8e5m2, tf32 or f32
void storeFromFloat(std::uint8_t *P, DType T, float V);

/// Whether loadAsFloat / storeFromFloat handle \p T.
bool isModeledFloat(DType T);

//===- mbarrier -----------------------------------------------------------===//

/// One mbarrier object (PTX ISA, "Parallel Synchronization and
/// Communication Instructions: mbarrier"). init(count) sets the arrivals
/// phase 0 waits for; an arrive decrements the pending count; expect_tx
/// adds transaction bytes, a completed copy subtracts them; the phase
/// completes when both reach zero: the phase number advances (its parity
/// flips) and the pending count resets to the init count.
///
/// Transaction bytes may go below zero while arrivals are pending (a copy
/// may complete before the arrive.expect_tx that announces it, as PTX
/// allows); more arrivals than pending, or bytes completed beyond what the
/// phase expects once every arrival is in, are errors.
class Mbarrier {
public:
  /// The PTX limit of the arrival count and of the transaction count.
  static constexpr std::int64_t MaxCount = (std::int64_t(1) << 20) - 1;

  /// mbarrier.init: phase 0 with \p Count pending arrivals.
  llvm::Error init(std::int64_t Count);
  /// \p Count arrivals (mbarrier.arrive by Count threads).
  llvm::Error arrive(std::int64_t Count);
  /// mbarrier.expect_tx of \p Bytes (the first half of arrive.expect_tx).
  llvm::Error expectTx(std::int64_t Bytes);
  /// The complete_tx of an asynchronous copy of \p Bytes.
  llvm::Error completeTx(std::int64_t Bytes);

  bool initialized() const { return Initialized; }
  /// Whether mbarrier.try_wait.parity \p Parity succeeds: the phase with
  /// that parity has completed, i.e. the current phase's parity differs.
  bool parityCompleted(std::int64_t Parity) const {
    return (Phase & 1) != (Parity & 1);
  }
  /// The current (incomplete) phase, counted from 0.
  std::int64_t phase() const { return Phase; }
  std::int64_t pendingArrivals() const { return Pending; }
  std::int64_t pendingTx() const { return Tx; }
  std::int64_t expectedArrivals() const { return Expected; }

  /// "phase 3, 2 of 256 arrivals and 16384 transaction bytes pending".
  std::string describe() const;

private:
  void completeIfDone();

  bool Initialized = false;
  std::int64_t Expected = 0, Pending = 0, Tx = 0, Phase = 0;
};

//===- Swizzle ------------------------------------------------------------===//

/// The shared-memory byte address that TMA and WGMMA access for the
/// unswizzled address \p Address under \p Mode: bits [7, 7+B) XORed into
/// [4, 4+B), B = 3, 2, 1 for 128B, 64B, 32B (identity for none).
/// @pre Address >= 0
std::int64_t swizzleAddress(SwizzleMode Mode, std::int64_t Address);

//===- TMA ----------------------------------------------------------------===//

/// Checks what the tensor map \p Map (as the LIR holds it) requires of
/// itself and of the global tensor \p Global: element type and rank equal,
/// innermost stride 1, box extents in 1..256, a box row a multiple of 16
/// bytes and, swizzled, exactly the swizzle's span (shorter rows are not
/// modeled). With \p Strict also the rules cuTensorMapEncodeTiled enforces
/// on the host (strides multiples of 16 bytes, 16-byte aligned data), which
/// the generated launcher checks before a launch.
llvm::Error checkTensorMap(const lower::TensorMap &Map, const TensorArg &Global,
                           bool Strict);

/// cp.async.bulk.tensor global -> shared of one box of \p Map at \p Coords
/// (elements, outermost first) into \p Smem at byte address \p Dst: the box
/// in dense row-major order (innermost dimension fastest), each byte
/// address swizzled by the map's mode; elements outside the tensor read as
/// zero. Returns the bytes written (the transaction bytes it completes).
/// @pre checkTensorMap(Map, Global, ...) succeeded; the written range lies
/// inside Smem (checked: an error otherwise)
llvm::Expected<std::int64_t> tmaLoad(const lower::TensorMap &Map,
                                     const TensorArg &Global,
                                     llvm::ArrayRef<std::int64_t> Coords,
                                     llvm::MutableArrayRef<std::uint8_t> Smem,
                                     std::int64_t Dst);

/// cp.async.bulk.tensor shared -> global: the reverse of tmaLoad; elements
/// outside the tensor are not written.
llvm::Error tmaStore(const lower::TensorMap &Map, const TensorArg &Global,
                     llvm::ArrayRef<std::int64_t> Coords,
                     llvm::ArrayRef<std::uint8_t> Smem, std::int64_t Src);

//===- WGMMA --------------------------------------------------------------===//

/// Checks that \p Atom is a WGMMA shape the hardware has: m64nNk(32 bytes
/// of input), N a multiple of 8 up to 256, A and B of one width.
llvm::Error checkWgmmaAtom(const lower::MmaAtom &Atom);

/// A shared-memory matrix descriptor as the hardware reads it: the fields
/// of its 64-bit value, in bytes.
struct MatrixDescriptor {
  std::int64_t StartAddress = 0;
  std::int64_t LeadingBytes = 0, StrideBytes = 0;
  int BaseOffset = 0;
  SwizzleMode Mode = SwizzleMode::none;
};

/// The 64-bit descriptor of \p D for an operand whose start is the byte
/// address \p StartAddress (the slot's offset plus D.Start): each of start,
/// LBO and SBO as (x & 0x3FFFF) >> 4 in bits [0,14), [16,30), [32,46), the
/// base offset in [49,52), the mode in [62,64); an unused LBO is encoded 1.
/// Fails when a field is not a multiple of 16 or does not fit.
llvm::Expected<std::uint64_t> encodeDescriptor(const lower::sm90::SmemDescriptor &D,
                                               std::int64_t StartAddress);

/// The fields of descriptor \p Bits.
MatrixDescriptor decodeDescriptor(std::uint64_t Bits);

/// The shared-memory byte address WGMMA reads for element (\p MN, \p K) of
/// an operand described by \p D: row MN of A (M) or column MN of B (N),
/// K within the instruction's k extent; MN-major when \p MNMajor
/// (imm-trans = 1). The canonical layouts of the PTX ISA, with T = 16 /
/// element bytes elements per 16-byte chunk and W the swizzle's row bytes:
///
///   K-major,  none:    (mn % 8) * 16 + (mn / 8) * SBO
///                      + (k / T) * LBO + (k % T) * E
///   K-major,  swizzled: (mn % 8) * W + (mn / 8) * SBO + k * E
///   MN-major, none:    (mn % T) * E + (mn / T) * SBO
///                      + (k % 8) * 16 + (k / 8) * LBO
///   MN-major, swizzled: (mn % (W / E)) * E + (mn / (W / E)) * LBO
///                      + (k % 8) * W + (k / 8) * SBO
///
/// added to the start address, then swizzled (swizzleAddress). A swizzled
/// K-major operand ignores LBO (its k extent lies within one row).
/// @pre D.BaseOffset == 0 (the model's views start on their pattern; the
/// interpreter refuses other base offsets before calling this)
std::int64_t operandAddress(const MatrixDescriptor &D, bool MNMajor,
                            int ElementBytes, std::int64_t MN, std::int64_t K);

} // namespace tf::interp

#endif // TF_PLUGIN_INTERP_MACHINE_H
