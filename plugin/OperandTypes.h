//===- OperandTypes.h - Element-wise operands that agree --------*- C++ -*-===//
//
// tf::add, sub, mul, div, maximum and minimum combine two tensors element
// by element, tf::where(mask, a, b) picks between two: the values' element
// types and every tensor operand's static extents must be the same (the
// mask's element type is free). Without the plugin the header says so with static_asserts, whose
// error stands in the header with the user's line only in an instantiation
// note. With the plugin loaded the header leaves these two checks to this
// one, which reads them from the call's argument types after Sema -- for
// every call outside tf's own functions, in kernels and out, so loading the
// plugin makes no build less strict -- and reports at the operand that
// disagrees (the one read from a tensor's window, else the later), with
// the cast that makes its element type the other's as a fix-it.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_OPERANDTYPES_H
#define TF_PLUGIN_OPERANDTYPES_H

#include "Pipeline.h"

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace tf::plugin {

/// Reports err_tf_op_element_types and err_tf_op_extents for the calls
/// \p Calls (SiteScan::ElementwiseCalls) whose operands disagree. Returns
/// whether any was reported.
bool checkOperandTypes(clang::ASTContext &Ctx, const Options &Opts,
                       llvm::ArrayRef<const clang::CallExpr *> Calls);

} // namespace tf::plugin

#endif // TF_PLUGIN_OPERANDTYPES_H
