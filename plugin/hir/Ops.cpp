//===- plugin/hir/Ops.cpp - What each tf op is ----------------------------===//
//
// See Ops.h. The op table is Ops.def; the table of contract kinds is here.
//
//===----------------------------------------------------------------------===//

#include "hir/Ops.h"

namespace tf::hir {

namespace {

constexpr OpInfo Ops[] = {
#define TF_OP(Kind, Name, Class, Arity, Result, Access, NeedsInstruction,      \
              Fuses, BinaryOp)                                                 \
  {OpKind::Kind,                                                               \
   Name,                                                                       \
   OpClass::Class,                                                             \
   Arity,                                                                      \
   ResultType::Result,                                                         \
   AccessShape::Access,                                                        \
   NeedsInstruction,                                                           \
   Fuses,                                                                      \
   BinaryOp},
#include "hir/Ops.def"
};

/// The annotation of an op declaration is this prefix and the op's name.
constexpr llvm::StringLiteral AnnotationPrefix = "tf.op.";

constexpr unsigned classBit(OpClass C) {
  return 1u << static_cast<unsigned>(C);
}

/// What the contracts of one kind implement.
struct ContractKindInfo {
  AtomKind Kind;
  /// The op classes (classBit) of the ops its contracts implement.
  unsigned Implements;
  /// The op a tf::schedule of its atom performs.
  std::optional<OpKind> Scheduled;
};

constexpr ContractKindInfo ContractKinds[] = {
    {AtomKind::mma, classBit(OpClass::Matmul), OpKind::Matmul},
    {AtomKind::copy, classBit(OpClass::Copy) | classBit(OpClass::InsertSlice),
     OpKind::Copy},
    {AtomKind::elementwise,
     classBit(OpClass::Cast) | classBit(OpClass::ElementwiseUnary) |
         classBit(OpClass::ElementwiseBinary),
     std::nullopt},
    {AtomKind::config, 0, std::nullopt},
};

const ContractKindInfo *contractKindInfo(AtomKind Kind) {
  for (const ContractKindInfo &I : ContractKinds)
    if (I.Kind == Kind)
      return &I;
  return nullptr;
}

} // namespace

const OpInfo &opInfo(OpKind K) { return Ops[static_cast<std::size_t>(K)]; }

llvm::StringRef opName(OpKind K) { return opInfo(K).Name; }

std::optional<OpKind> opKindFromAnnotation(llvm::StringRef Annotation) {
  if (!Annotation.consume_front(AnnotationPrefix))
    return std::nullopt;
  for (const OpInfo &I : Ops)
    if (I.Name == Annotation)
      return I.Kind;
  return std::nullopt;
}

bool needsInstruction(OpKind K) { return opInfo(K).NeedsInstruction; }

bool fusesIntoProducer(OpKind K) { return opInfo(K).Fuses; }

bool writesInPlace(OpKind K) {
  switch (opInfo(K).Access) {
  case AccessShape::Scheduled:
  case AccessShape::Mma:
  case AccessShape::Copy:
  case AccessShape::InsertSlice:
    return true;
  case AccessShape::None:
  case AccessShape::Fill:
  case AccessShape::RingHandout:
  case AccessShape::Elementwise:
  case AccessShape::Reduce:
  case AccessShape::Broadcast:
    return false;
  }
  return false;
}

bool takesTensorOperands(OpKind K, std::size_t N) {
  int Arity = opInfo(K).Arity;
  return Arity == Variadic || static_cast<std::size_t>(Arity) == N;
}

bool contractKindImplements(AtomKind Kind, OpKind K) {
  const ContractKindInfo *I = contractKindInfo(Kind);
  return I && (I->Implements & classBit(opInfo(K).Class)) != 0;
}

std::optional<OpKind> scheduledOp(AtomKind Kind) {
  const ContractKindInfo *I = contractKindInfo(Kind);
  return I ? I->Scheduled : std::nullopt;
}

} // namespace tf::hir
