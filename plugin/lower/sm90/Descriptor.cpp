//===- plugin/lower/sm90/Descriptor.cpp - WGMMA descriptors ---------------===//
//
// See Descriptor.h.
//
//===----------------------------------------------------------------------===//
#include "lower/sm90/Descriptor.h"

#include "tf/layout/text/print.hpp"

namespace tf::lower::sm90 {

std::optional<SwizzleMode> swizzleModeOf(const Swizzle &S) {
  for (SwizzleMode M : {SwizzleMode::none, SwizzleMode::bytes32,
                        SwizzleMode::bytes64, SwizzleMode::bytes128}) {
    const Swizzle Want = swizzle_for(M);
    if (S.bits == Want.bits && (S.bits == 0 || (S.base == Want.base &&
                                                S.shift == Want.shift)))
      return M;
  }
  return std::nullopt;
}

llvm::Expected<SmemDescriptor>
wgmmaDescriptor(const OperandFragment &F, DType Element,
                const std::vector<std::int64_t> &Coord) {
  const std::int64_t Bytes = bytes(Element);
  std::optional<SwizzleMode> Mode = swizzleModeOf(F.layout.swizzle);
  if (!Mode)
    return llvm::createStringError(llvm::Twine("operand ") + F.name.view() +
                                   ": swizzle " + to_string(F.layout) +
                                   " is no WGMMA swizzle mode");
  SmemDescriptor D;
  D.Swizzle = *Mode;

  Result<std::int64_t> Sbo = F.bindings.value("sbo");
  if (!Sbo)
    return llvm::createStringError(llvm::Twine("operand ") + F.name.view() +
                                   ": the canonical layout binds no sbo");
  D.StrideBytes = *Sbo * Bytes;
  Result<std::int64_t> Lbo = F.bindings.value("lbo");
  D.LeadingUsed = Lbo.ok();
  D.LeadingBytes = Lbo ? *Lbo * Bytes : 0;

  IntTuple At;
  for (std::int64_t C : Coord)
    At.push_back(IntTuple(C));
  Result<std::int64_t> Rest = evaluate(F.rest, At);
  Result<std::int64_t> First = F.layout.offset.get();
  if (!Rest || !First)
    return llvm::createStringError(
        llvm::Twine("operand ") + F.name.view() +
        ": the atom's start is not a compile-time constant");
  D.Start = (*First + *Rest) * Bytes;
  if (D.Swizzle != SwizzleMode::none)
    D.BaseOffset =
        static_cast<int>((D.Start % swizzle_period_bytes(D.Swizzle)) >> 7);
  return D;
}

} // namespace tf::lower::sm90
