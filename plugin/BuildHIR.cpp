//===- BuildHIR.cpp - Clang's AST of tf kernels -> HIR --------------------===//
//
// Clang's AST into tf's HIR (BuildHIR.h): one buildhir::KernelBuilder per
// kernel site (plugin/buildhir/: its parts by concern), which walks the
// function body once:
//
//   declarations   tensor / ring / buffer / index variables -> Alloc, Let, Op
//   range-for      over tf.op.tile_offsets / persistent_tiles / grid_tiles
//                  -> Loop (tile_offsets' step, the scheduler's mesh and
//                  options evaluated as constants)
//   [[tf::mesh]]   sites matched by their AnnotateAttr -> MeshScope
//   calls          whose callee carries [[clang::annotate("tf.op.NAME")]]
//                  -> Op of that kind (hir/Ops.def), with operands, result
//                  and AccessRelation; nested ops become Ops of their own
//                  before the one that uses them
//
// Types are recognised by the qualified names of tf's class templates
// (tf::Tensor, tf::Window, tf::Buffer, tf::Ring), ops only by their
// annotation, never by how the user spells them. Scalar statements that
// touch no tensor and call nothing but constexpr functions are host-side
// integer arithmetic: they are allowed and leave no trace. Everything else --
// control flow, calls to other functions, lambdas, tensor addresses -- is an
// error at its exact range, and the kernel is left out of the module.
//
//===----------------------------------------------------------------------===//

#include "BuildHIR.h"
#include "buildhir/KernelBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace tf::plugin {
hir::Module buildModule(ASTContext &Ctx, llvm::ArrayRef<Site> Sites) {
  hir::Module M;
  const SourceManager &SM = Ctx.getSourceManager();
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    M.MainFile = std::string(Main->getName());
  for (const Site &S : Sites) {
    if (S.Kind != TfAttr::Kernel)
      continue;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(S.D);
    if (!FD || !FD->doesThisDeclarationHaveABody() || FD->isInvalidDecl())
      continue;
    buildhir::KernelBuilder B(Ctx, S, Sites);
    if (std::optional<hir::Kernel> K = B.build())
      M.Kernels.push_back(std::move(*K));
  }
  return M;
}

hir::SourceRange hirRange(const SourceManager &SM, clang::SourceRange R) {
  hir::SourceRange Out;
  if (R.isInvalid())
    return Out;
  SourceLocation B = SM.getFileLoc(R.getBegin());
  SourceLocation E = SM.getFileLoc(R.getEnd());
  Out.Begin = B.getRawEncoding();
  Out.End = E.getRawEncoding();
  PresumedLoc P = SM.getPresumedLoc(B);
  if (P.isValid()) {
    Out.File = P.getFilename();
    Out.Line = P.getLine();
    Out.Column = P.getColumn();
  }
  return Out;
}

std::optional<hir::TensorType> decodeTensorType(QualType T) {
  return buildhir::tensorTypeOf(T);
}

/// The annotation is on the declaration the header wrote: a function
/// template's pattern, a class template's member.
std::optional<hir::OpKind> opKindOf(const FunctionDecl *FD) {
  for (int Depth = 0; FD && Depth < 4; ++Depth) {
    for (const AnnotateAttr *A : FD->specific_attrs<AnnotateAttr>())
      if (std::optional<hir::OpKind> K =
              hir::opKindFromAnnotation(A->getAnnotation()))
        return K;
    const FunctionDecl *Next = FD->getTemplateInstantiationPattern();
    if (!Next)
      if (const FunctionTemplateDecl *P = FD->getPrimaryTemplate())
        Next = P->getTemplatedDecl();
    if (!Next)
      Next = FD->getInstantiatedFromMemberFunction();
    if (Next == FD)
      break;
    FD = Next;
  }
  return std::nullopt;
}

} // namespace tf::plugin
