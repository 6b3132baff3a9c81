//===- plugin/lower/sm90/Descriptor.h - WGMMA descriptors ------*- C++ -*-===//
//
// The fields of a WGMMA shared-memory matrix descriptor derived from the
// layout algebra, not from a table per layout: the contract engine divides
// the operand's tile into atom fragments and unifies fragment 0 with the
// contract's canonical layouts (tf/atoms/nv/sm90/wgmma.hpp, PTX ISA
// "Shared Memory Matrix Layout"), binding `sbo` and `lbo` (element strides)
// and the start; the fragment's rest layout gives every other atom's start.
// The cuda_sm90 WGMMA rule calls this for each unrolled wgmma; test/lower/ tests it on the
// four swizzle modes, K-major and MN-major.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_SM90_DESCRIPTOR_H
#define TF_PLUGIN_LOWER_SM90_DESCRIPTOR_H

#include "lower/sm90/Sm90.h"

#include "tf/contract/match.hpp"

#include "llvm/Support/Error.h"

#include <optional>

namespace tf::lower::sm90 {

/// The TMA / WGMMA mode of swizzle \p S (acting on byte offsets), if it is
/// one: Swizzle(3,4,3) is bytes128, the empty swizzle none.
std::optional<SwizzleMode> swizzleModeOf(const Swizzle &S);

/// The descriptor of atom \p Coord (one index per operand mode: (m, k) of A,
/// (k, n) of B) of a WGMMA operand whose fragments the engine derived as
/// \p F, for elements of \p Element: the start is fragment 0's offset plus
/// F.rest(Coord), in bytes; SBO and LBO are the bound `sbo` and `lbo` in
/// bytes (a swizzled K-major layout binds no `lbo`: unused); the base offset
/// is the start's 128-byte row within the swizzle's period.
/// @pre the operand view starts on its swizzle's period (Verify.cpp checks
/// the shared-memory map's alignments).
llvm::Expected<SmemDescriptor>
wgmmaDescriptor(const OperandFragment &F, DType Element,
                const std::vector<std::int64_t> &Coord);

} // namespace tf::lower::sm90

#endif // TF_PLUGIN_LOWER_SM90_DESCRIPTOR_H
