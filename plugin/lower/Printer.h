//===- plugin/lower/Printer.h - The LIR as a readable program --*- C++ -*-===//
//
// What `tf finalize` prints (docs/finalize.md): per kernel its launch shape,
// tensor maps and shared-memory map at the top, then the program -- lets,
// the barrier set-up, and one `scope thread[B:E]` block per role with its
// loops and instructions, every operand spelled out (views with their byte
// offsets, barriers with slot and phase expressions, WGMMA descriptors'
// fields). The same LIR always prints the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_PRINTER_H
#define TF_PLUGIN_LOWER_PRINTER_H

#include "lower/LIR.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tf::lower {

void print(const Kernel &K, llvm::raw_ostream &OS);

/// Expression \p E of \p K as the printer writes it:
/// `((task - cta.x) / 132) * ceil_div(a.extent(1), 64) + k / 64`.
std::string exprText(const Kernel &K, ExprId E);

/// A shared-memory view as the printer names it: a ring's stage
/// `lhs_ring[it % 3]` (\p Ring's stage \p Slot), else region \p View's name.
std::string viewText(const Kernel &K, RegionId View, hir::ValueId Ring,
                     ExprId Slot);

/// Barrier object \p Slot of array \p Bar: `lhs_ring.full[it % 3]`.
std::string barrierText(const Kernel &K, BarrierId Bar, ExprId Slot);

/// The contract parameters an atom call records, as the printer writes them
/// after the instruction: `{n=256, a_major=K, ...}` (empty: none recorded).
std::string paramsText(const AtomCallStmt &Call);

/// The name of swizzle mode \p M: none, 32B, 64B, 128B.
const char *swizzleName(SwizzleMode M);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_PRINTER_H
