//===- plugin/hir/Ops.h - What each tf op is --------------------*- C++ -*-===//
//
// tf's ops by kind: hir::OpKind has one enumerator per row of Ops.def, and
// opInfo says what the row says -- the op's class, its tensor operands, where
// its result's type comes from, the shape of its access relation, whether tf
// chooses an instruction for it, whether it fuses into the instruction that
// consumes it, and a binary op's BinaryOp value. BuildHIR maps an annotation
// to its kind (opKindFromAnnotation, the one place an op's name is compared);
// inference, the contract checks, the candidates, the printers and the
// backends read the kind and the table.
//
// Which ops a contract implements is data keyed by the contract's kind
// (tf::AtomKind): an MMA implements tf::matmul, a copy tf::copy and
// tf::insert_slice, an element-wise contract the element-wise ops and
// tf::cast (its own parameters narrow that down). tf::schedule performs the
// op its atom's contract implements (scheduledOp): a tiled MMA is a matmul,
// a TMA or plain copy a copy.
//
// Like the rest of the HIR, this header holds no Clang type.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_HIR_OPS_H
#define TF_PLUGIN_HIR_OPS_H

#include "tf/contract/contract.hpp"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace tf::hir {

/// One enumerator per op of Ops.def, in its order.
enum class OpKind : std::uint8_t {
#define TF_OP(Kind, Name, Class, Arity, Result, Access, NeedsInstruction,      \
              Fuses, BinaryOp)                                                 \
  Kind,
#include "hir/Ops.def"
};

/// What kind of op an op is.
enum class OpClass : std::uint8_t {
  Schedule,          ///< tf::schedule: an op with its instruction chosen
  Allocate,          ///< a buffer: tf::zeros, tf::empty
  RingHandout,       ///< a slot of a ring: Ring::next, Ring::slot
  Copy,              ///< dst = src
  Cast,              ///< an element type conversion
  ElementwiseUnary,  ///< neg, exp, exp2, rsqrt, relu, scale, ...
  ElementwiseBinary, ///< add, sub, mul, div, maximum, minimum
  Select,            ///< mask ? a : b, element by element
  Mask,              ///< which elements of a bounded tile lie in its tensor
  Broadcast,         ///< a tensor repeated along a new mode
  Matmul,            ///< C += A * B
  Reduce,            ///< a reduction along one mode
  InsertSlice,       ///< out(o + c) = tile(c)
  Loop,              ///< the range of a tile loop
};

/// Where the type of an op's result comes from when the builder could not
/// read it from the call's C++ type (inference derives it).
enum class ResultType : std::uint8_t {
  None,               ///< the op yields no tensor (a loop range)
  Declared,           ///< the call's C++ type only (buffers, reductions)
  FirstOperand,       ///< operand 0's: a ring's slot, the accumulator
  FirstTensorOperand, ///< the first tensor operand's
  CastTarget,         ///< operand 0's with the cast's element type
  Destination,        ///< operand 1's: the copy's destination
  Scheduled,          ///< that of the op the schedule's atom implements
};

/// The access relation an op gets (AccessRelation in HIR.h).
enum class AccessShape : std::uint8_t {
  None,        ///< no access relation: a loop range
  Scheduled,   ///< that of the op the schedule's atom implements
  Mma,         ///< domain (m, n, k): C(m, n) read-write, A(m, k), B(k, n)
  Fill,        ///< the result written over its shape
  RingHandout, ///< no element moves; the ring read (slot) or advanced (next)
  Copy,        ///< dst(d) = src(d) over the destination's shape
  Elementwise, ///< every operand read and the result written, identity
  Reduce,      ///< the operand read; the result without the reduced mode
  Broadcast,   ///< result(d) = t(d without the mode); `like` gives the shape
  InsertSlice, ///< out(o + d) = tile(d) over the tile's shape
};

/// The Arity of an op that takes any number of tensor operands.
inline constexpr int Variadic = -1;

/// One row of Ops.def (see there for the columns).
struct OpInfo {
  OpKind Kind;
  llvm::StringLiteral Name;
  OpClass Class;
  int Arity;
  ResultType Result;
  AccessShape Access;
  bool NeedsInstruction;
  bool Fuses;
  llvm::StringLiteral BinaryOp;
};

/// The row of op \p K.
const OpInfo &opInfo(OpKind K);

/// The op's name: the NAME of its tf.op.NAME annotation ("matmul").
llvm::StringRef opName(OpKind K);

/// The op an annotation's text ("tf.op.matmul") names; nullopt for other
/// annotations and for names no row of Ops.def has.
std::optional<OpKind> opKindFromAnnotation(llvm::StringRef Annotation);

/// Whether tf chooses an instruction for op \p K (otherwise it is
/// bookkeeping, or tf::schedule, which names its own).
bool needsInstruction(OpKind K);

/// Whether op \p K works element by element on the register fragments its
/// producer left, so that a scheduled op consuming its result does it on
/// the way (and it needs no instruction of its own).
bool fusesIntoProducer(OpKind K);

/// Whether op \p K writes an operand in place (tf::schedule, tf::copy,
/// tf::insert_slice, tf::matmul): what it returns, if anything, is a view of
/// that operand, not a new value.
bool writesInPlace(OpKind K);

/// Whether op \p K takes \p N tensor operands.
bool takesTensorOperands(OpKind K, std::size_t N);

/// Whether contracts of kind \p Kind implement op \p K. A contract's own
/// parameters narrow this down (the BinaryOp values an element-wise contract
/// allows, whether it converts); analysis/Candidates.cpp reads them.
bool contractKindImplements(AtomKind Kind, OpKind K);

/// The op a tf::schedule performs whose atom's contract is of kind \p Kind:
/// its access relation and result type are that op's. Nullopt for the kinds
/// no single op stands for (element-wise, configuration).
std::optional<OpKind> scheduledOp(AtomKind Kind);

} // namespace tf::hir

#endif // TF_PLUGIN_HIR_OPS_H
