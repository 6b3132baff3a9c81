//===- buildhir/Statements.cpp - Statements of a kernel -> HIR ------------===//
//
// Declarations (tensors, rings, buffers, index variables), expression
// statements, tile loops over tf's schedulers, ifs and [[tf::mesh]] scopes;
// scalar host-side arithmetic is checked and leaves no trace.
//
//===----------------------------------------------------------------------===//

#include "buildhir/KernelBuilder.h"
#include "ConstantValue.h"
#include "MeshSource.h"
#include "tf/layout/text/print.hpp"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace clang;

namespace tf::plugin::buildhir {

void KernelBuilder::translateBodyInto(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      translate(Child);
    return;
  }
  translate(S);
}

const Site *KernelBuilder::meshSiteOf(const AttributedStmt *AS) const {
  for (const Attr *A : AS->getAttrs())
    if (const auto *AA = dyn_cast<AnnotateAttr>(A))
      if (auto It = MeshSites.find(AA); It != MeshSites.end())
        return It->second;
  return nullptr;
}

const Site *KernelBuilder::meshSiteOf(const Decl *D) const {
  for (const AnnotateAttr *AA : D->specific_attrs<AnnotateAttr>())
    if (auto It = MeshSites.find(AA); It != MeshSites.end())
      return It->second;
  return nullptr;
}

StmtId KernelBuilder::openMeshScope(const Site &S, clang::SourceRange Whole) {
  hir::Stmt Scope;
  Scope.Kind = hir::StmtKind::MeshScope;
  clang::SourceRange R = Whole;
  if (S.Attr && S.Attr->getLocation().isValid() &&
      SM.isBeforeInTranslationUnit(SM.getFileLoc(S.Attr->getLocation()),
                                   SM.getFileLoc(R.getBegin())))
    R.setBegin(S.Attr->getLocation());
  Scope.Range = range(R);
  if (!S.Args.empty()) {
    if (std::optional<tf::Mesh> M = decodeMesh(S.Args[0].Value, S.Args[0].Type))
      Scope.Mesh = *M;
    Scope.MeshSpelling = sourceText(S.Args[0].Range);
    Scope.MeshGroups = meshGroupsSource(S.Args[0].Written, Ctx);
  }
  StmtId Saved = Current;
  Current = addStmt(std::move(Scope));
  return Saved;
}

void KernelBuilder::translate(const Stmt *S) {
  if (!S)
    return;
  if (isa<NullStmt>(S))
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    hir::Stmt B;
    B.Kind = hir::StmtKind::Block;
    B.Range = range(CS);
    StmtId Saved = Current;
    Current = addStmt(std::move(B));
    translateBodyInto(CS);
    Current = Saved;
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
    if (const Site *Mesh = meshSiteOf(AS)) {
      StmtId Saved = openMeshScope(*Mesh, AS->getSourceRange());
      K.Stmts[Current].MeshOnBlock = isa<CompoundStmt>(AS->getSubStmt());
      translateBodyInto(AS->getSubStmt());
      closeScope(Saved);
      return;
    }
    translate(AS->getSubStmt());
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      translateDecl(D, DS);
    return;
  }
  if (const auto *FS = dyn_cast<CXXForRangeStmt>(S))
    return translateLoop(FS);
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return translateIf(IS);
  if (const auto *E = dyn_cast<Expr>(S))
    return translateExprStmt(E, S);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (RS->getRetValue())
      unsupported(RS, "'return' with a value",
                  "a kernel returns nothing; write results into a tensor "
                  "parameter");
    else if (Current != K.Body || !isLastOfBody(RS))
      unsupported(RS, "an early 'return'",
                  "a kernel runs to its end; restrict the work with the "
                  "tile loop's bounds instead");
    return;
  }
  if (isa<ForStmt>(S))
    return unsupported(S, "a 'for' loop",
                       "loop over tiles with `for (std::int64_t k : "
                       "tf::tile_offsets(extent, step))` or "
                       "tf::persistent_tiles / tf::grid_tiles");
  if (isa<WhileStmt>(S) || isa<DoStmt>(S))
    return unsupported(S, isa<WhileStmt>(S) ? "a 'while' loop" : "a 'do' loop",
                       "loop over tiles with `for (std::int64_t k : "
                       "tf::tile_offsets(extent, step))`");
  if (isa<SwitchStmt>(S))
    return unsupported(S, "a 'switch' statement",
                       "choose at compile time with 'if constexpr' or a "
                       "template parameter");
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return translate(LS->getSubStmt()); // the goto is what is reported
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return unsupported(S, "'goto'",
                       "kernels are straight-line code, tile loops and mesh "
                       "scopes");
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return unsupported(S, isa<BreakStmt>(S) ? "'break'" : "'continue'",
                       "a tile loop visits every tile; narrow its bounds "
                       "instead");
  if (isa<CXXTryStmt>(S))
    return unsupported(S, "a 'try' block",
                       "kernels do not throw; remove the handler");
  if (isa<AsmStmt>(S))
    return unsupported(S, "inline assembly",
                       "choose the instruction with tf::schedule<Atom>");
  if (isa<CoroutineBodyStmt>(S) || isa<CoreturnStmt>(S))
    return unsupported(S, "a coroutine", "write the kernel as a plain function");
  unsupported(S, "this statement",
              "kernels hold declarations, tf ops, tile loops and mesh scopes");
}

void KernelBuilder::translateIf(const IfStmt *IS) {
  if (IS->isConstexpr()) {
    // The instantiation keeps only the branch taken.
    const Expr *Cond = IS->getCond();
    bool Value = false;
    if (Cond && !Cond->isValueDependent() &&
        Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
      if (IS->getInit())
        translate(IS->getInit());
      translate(Value ? IS->getThen() : IS->getElse());
      return;
    }
  }
  unsupported(IS, "an 'if' statement",
              "the HIR has no branches; decide at compile time with 'if "
              "constexpr', or let the tile loop's bounds and the tiles' "
              "bounds handle the edges");
}

void KernelBuilder::translateDecl(const Decl *D, const Stmt *Whole) {
  if (!D)
    return;
  if (isa<TypedefNameDecl>(D) || isa<StaticAssertDecl>(D) ||
      isa<UsingDecl>(D) || isa<UsingDirectiveDecl>(D) ||
      isa<UsingShadowDecl>(D) || isa<TagDecl>(D) ||
      isa<NamespaceAliasDecl>(D))
    return;
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD) {
    unsupported(Whole, "this declaration",
                "kernels declare tensors, rings, buffers and integers");
    return;
  }
  if (const Site *Mesh = meshSiteOf(VD)) {
    StmtId Saved = openMeshScope(*Mesh, Whole->getSourceRange());
    translateVar(VD, Whole);
    closeScope(Saved);
    return;
  }
  translateVar(VD, Whole);
}

bool KernelBuilder::applyLayoutSite(const VarDecl *VD, hir::TensorType &T) {
  auto It = LayoutSites.find(VD);
  if (It == LayoutSites.end() || It->second->Args.empty())
    return true;
  const SiteArgument &A = It->second->Args.front();
  std::optional<LayoutText> Written;
  if (A.Text) {
    Result<LayoutText> Parsed = parse_layout_text(A.Text->getString());
    if (Parsed.ok())
      Written = *Parsed;
  } else if (std::optional<Layout> L = decodeLayout(A.Value, A.Type)) {
    Written = LayoutText{*L};
  } else if (std::optional<ComposedLayout> C =
                 decodeComposedLayout(A.Value, A.Type)) {
    Written = LayoutText{C->layout};
    Written->offset = C->offset;
    Written->has_offset = !(C->offset.is_constant() && C->offset.value == 0);
    Written->swizzle = C->swizzle;
    Written->has_swizzle = true;
  } else if (std::optional<ShardLayout> Sh = decodeShardLayout(A.Value, A.Type)) {
    Written = LayoutText{Sh->layout};
    Written->axes = Sh->axes;
    Written->has_axes = true;
  }
  // The attribute's own checks reported a value tf cannot read.
  if (!Written)
    return true;
  // The written layout replaces the type's; the shape is the type's promise.
  hir::TensorType Annotated = T;
  Annotated.Layout = *Written;
  IntTuple Want = T.shape(), Have = Annotated.shape();
  bool Agrees = Want.rank() == Have.rank();
  for (int I = 0; Agrees && I < Want.rank(); ++I) {
    const Int W = Want.mode(I).leaf(), H = Have.mode(I).leaf();
    Agrees = W.is_dynamic() || H.is_dynamic() || W == H;
  }
  if (!Agrees) {
    error(It->second->Attr->getLocation(), DiagId::err_tf_layout_shape)
        << VD << to_string(Want) << to_string(Have)
        << It->second->Attr->getRange();
    return false;
  }
  Annotated.Spelling = to_string(*Written);
  T = std::move(Annotated);
  return true;
}

void KernelBuilder::translateVar(const VarDecl *VD, const Stmt *Whole) {
  QualType T = VD->getType();
  if (T->isDependentType())
    return;
  const Expr *Init = VD->getInit();
  if (isa<DecompositionDecl>(VD)) {
    unsupported(Whole, "a structured binding outside a tile loop",
                "bind tile coordinates in the loop: `for (auto [m, n] : "
                "tf::persistent_tiles(...))`");
    return;
  }
  if (VD->isStaticLocal() || VD->getTLSKind() != VarDecl::TLS_None) {
    if (VD->isConstexpr() || (T.isConstQualified() && Init &&
                              Init->isConstantInitializer(Ctx, false)))
      return;
    unsupported(Whole, "a static local variable",
                "kernel state lives in tensors; declare a buffer or a ring");
    return;
  }

  // References to tf values alias them.
  if (T->isReferenceType() && Init) {
    const Expr *S = strip(Init);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S)) {
      ValueId V = valueOfDecl(DRE->getDecl());
      if (V != None) {
        Vars[VD] = V;
        return;
      }
    }
  }

  if (std::optional<TypeInfo> TI = typeInfo(T)) {
    hir::Value V;
    V.Kind = TI->Kind;
    V.Type = TI->Type;
    V.Stages = TI->Stages;
    V.Origin = hir::ValueOrigin::Local;
    V.Name = VD->getNameAsString();
    V.Range = range(VD->getSourceRange());
    const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
    const auto *InitCall = dyn_cast_or_null<CallExpr>(strip(Init));
    recordSpelling(V.Type, TSI && !TSI->getType()->getContainedAutoType()
                               ? tensorSpelling(TSI->getTypeLoc())
                           : InitCall ? resultSpelling(InitCall, Ctx)
                                      : tensorSpelling(T, Ctx));
    if (!applyLayoutSite(VD, V.Type))
      return;
    const Expr *S = strip(Init);
    // `tf::Ring<Slot, N> r;` and `tf::Buffer<T> b;`: storage without an op.
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(S);
    if (!S || (Construct && Construct->getNumArgs() == 0)) {
      hir::Stmt A;
      A.Kind = hir::StmtKind::Alloc;
      A.Range = range(Whole);
      StmtId Id = addStmt(std::move(A));
      V.Def = Id;
      ValueId Val = addValue(std::move(V));
      K.Stmts[Id].Defines = Val;
      K.Stmts[Id].Result = Val;
      Vars[VD] = Val;
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && opKindOf(CE)) {
      ValueId Val = addValue(std::move(V));
      Vars[VD] = Val;
      StmtId Op = translateOp(CE, Val, /*Assigns=*/false, Whole);
      K.Values[Val].Def = Op;
      if (Op != None) {
        K.Stmts[Op].Range = range(Whole);
        inheritSpelling(Val, Op);
      }
      return;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (M && M->getIdentifier() && M->getName() == "tile") {
        ValueId Tile = tileValue(MC, VD->getNameAsString());
        if (Tile != None) {
          K.Values[Tile].Origin = hir::ValueOrigin::Local;
          K.Values[Tile].Range = V.Range;
          Vars[VD] = Tile;
        }
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      ValueId Src = valueOfDecl(DRE->getDecl());
      if (Src != None) {
        // A copy of a view or buffer names the same tile of data.
        Vars[VD] = Src;
        return;
      }
    }
    unsupported(Whole, "this initializer of a tensor",
                "initialize tensors with a tf op (tf::zeros, tf::empty, "
                "tf::schedule, ...), a tile `t.tile<BM, BK>(m0, k0)` or "
                "another tensor");
    return;
  }
  if (isTensorLike(T)) {
    unsupported(Whole, "this tensor type",
                "tf reads tensor types whose element type and layout text it "
                "knows; write tf::Tensor<T, \"layout\", storage>");
    return;
  }

  if (isIndexType(T)) {
    if (VD->isConstexpr())
      return; // read as a constant wherever it is used
    if (!Init) {
      unsupported(Whole, "an integer without initializer",
                  "index values are defined once: `const std::int64_t x = "
                  "...;`");
      return;
    }
    if (!checkScalar(Init))
      return;
    hir::Value V;
    V.Kind = hir::ValueKind::Index;
    V.Origin = hir::ValueOrigin::Local;
    V.Name = VD->getNameAsString();
    V.Range = range(VD->getSourceRange());
    hir::Stmt L;
    L.Kind = hir::StmtKind::Let;
    L.Range = range(Whole);
    ExprId Ex = indexExpr(Init);
    StmtId Id = addStmt(std::move(L));
    V.Def = Id;
    V.Init = Ex;
    ValueId Val = addValue(std::move(V));
    K.Stmts[Id].Defines = Val;
    K.Stmts[Id].Init = Ex;
    Vars[VD] = Val;
    return;
  }

  // Other variables: allowed when they are constants or scalars computed
  // from scalars (booleans, floating constants); never when they hold tf
  // values or call functions tf cannot see.
  if (!Init || VD->isConstexpr() || holdsEscape(Init))
    return;
  if (touchesTensor(Init)) {
    unsupported(Whole, "a variable of this type holding a tensor",
                "declare it with `auto` from a tf op, or as a tf::Tensor");
    return;
  }
  checkScalar(Init);
}

bool KernelBuilder::touchesTensor(const Expr *E) const {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isTensorValueRef(DRE);
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (touchesTensor(CE))
        return true;
  return false;
}

bool KernelBuilder::checkScalar(const Expr *E) {
  if (!E)
    return true;
  bool OK = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (isa<LambdaExpr>(S))
      return; // reported by scanForEscapes
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = calleeOf(CE);
      if (opKindOf(CE)) {
        unsupported(CE, "a tf op inside an expression",
                    "give the op its own statement: `auto x = tf::op(...);`");
        OK = false;
        return;
      }
      bool Allowed = Callee && (Callee->isConstexpr() || Callee->isConsteval());
      // Extents and sizes of tf values are known to the HIR.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        if (const CXXMethodDecl *M = MC->getMethodDecl();
            M && M->getIdentifier() && MC->getImplicitObjectArgument() &&
            isTensorLike(MC->getImplicitObjectArgument()->getType()) &&
            (M->getName() == "extent" || M->getName() == "size"))
          Allowed = true;
      if (!Allowed && isa<CXXOperatorCallExpr>(CE) && Callee &&
          !isTensorLike(CE->getType()))
        Allowed = Callee->isConstexpr();
      if (!Allowed) {
        std::string Name = Callee ? qualifiedName(*Callee)
                                  : sourceText(CE->getCallee()
                                                   ? CE->getCallee()
                                                         ->getSourceRange()
                                                   : CE->getSourceRange());
        error(CE->getBeginLoc(), DiagId::err_tf_hir_unknown_call)
            << Name
            << (K.meshScopeOf(Current) != None
                    ? "inside a mesh scope only tf ops run; make it a "
                      "constexpr function of constants or compute it "
                      "outside the kernel"
                    : "make it a constexpr function, or a tf op "
                      "([[clang::annotate(\"tf.op.NAME\")]])")
            << CE->getSourceRange();
        afterError();
        OK = false;
        return;
      }
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor && !Ctor->isConstexpr() && !Ctor->isTrivial()) {
        error(CE->getBeginLoc(), DiagId::err_tf_hir_unknown_call)
            << qualifiedName(*Ctor)
            << "only constexpr constructors can be represented"
            << CE->getSourceRange();
        afterError();
        OK = false;
        return;
      }
    }
    if (isa<CXXThrowExpr>(S)) {
      unsupported(S, "'throw'",
                  "a kernel cannot unwind; report failures through a tensor "
                  "parameter");
      OK = false;
      return;
    }
    if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S)) {
      unsupported(S, "dynamic allocation",
                  "tensors get their storage from tf::zeros, tf::empty and "
                  "tf::Ring");
      OK = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(E);
  return OK;
}

void KernelBuilder::translateExprStmt(const Expr *E, const Stmt *Whole) {
  const Expr *S = strip(E);
  if (!S)
    return;
  // (void)x and other casts to void of a plain value.
  if (const auto *C = dyn_cast<CStyleCastExpr>(S);
      C && C->getType()->isVoidType()) {
    const Expr *Sub = strip(C->getSubExpr());
    if (Sub && (isa<DeclRefExpr>(Sub) || !Sub->HasSideEffects(Ctx)))
      return;
    return translateExprStmt(C->getSubExpr(), Whole);
  }
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && opKindOf(CE)) {
    translateOp(CE, None, false, Whole);
    return;
  }
  // acc = op(...): an assignment of a tensor (a builtin or an operator=).
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    Lhs = BO->getLHS();
    Rhs = BO->getRHS();
    if (BO->getOpcode() != BO_Assign && isTensorValueRef(Lhs)) {
      unsupported(BO, "a compound assignment of a tensor",
                  "use the element-wise ops: `x = tf::add(x, y);`");
      return;
    }
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    Lhs = OC->getArg(0);
    Rhs = OC->getArg(1);
  }
  if (Lhs && isTensorValueRef(Lhs)) {
    const auto *DRE = cast<DeclRefExpr>(strip(Lhs));
    ValueId Target = valueOfDecl(DRE->getDecl());
    const auto *Call = dyn_cast_or_null<CallExpr>(strip(Rhs));
    if (Call && opKindOf(Call)) {
      StmtId Op = translateOp(Call, Target, /*Assigns=*/true, Whole);
      if (Op != None)
        K.Stmts[Op].Range = range(Whole);
      return;
    }
    unsupported(Whole, "this assignment of a tensor",
                "assign the result of a tf op: `acc = tf::schedule<...>(acc, "
                "lhs, rhs);`");
    return;
  }
  if (Lhs) {
    // Assigning an index value the HIR already read would make it lie.
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(Lhs)))
      if (Mutable.contains(DRE->getDecl())) {
        unsupported(Whole, "assigning an index value used by tile ops",
                    "index values are defined once; declare a new `const "
                    "std::int64_t` instead");
        return;
      }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(U->getSubExpr())))
      if (Mutable.contains(DRE->getDecl())) {
        unsupported(Whole, "changing an index value used by tile ops",
                    "index values are defined once; declare a new `const "
                    "std::int64_t` instead");
        return;
      }
  if (holdsEscape(S))
    return;
  if (touchesTensor(S)) {
    unsupported(Whole, "this use of a tensor",
                "tensors are read and written by tf ops only; element access "
                "belongs to header-only code outside the kernel");
    return;
  }
  checkScalar(S);
}

void KernelBuilder::translateLoop(const CXXForRangeStmt *FS) {
  const auto *Call = dyn_cast_or_null<CallExpr>(strip(FS->getRangeInit()));
  std::optional<hir::OpKind> Op = Call ? opKindOf(Call) : std::nullopt;
  hir::LoopKind Kind;
  if (Op == hir::OpKind::TileOffsets)
    Kind = hir::LoopKind::TileOffsets;
  else if (Op == hir::OpKind::PersistentTiles)
    Kind = hir::LoopKind::PersistentTiles;
  else if (Op == hir::OpKind::GridTiles)
    Kind = hir::LoopKind::GridTiles;
  else {
    unsupported(FS, "a range-based 'for' over this range",
                "loop over tf::tile_offsets(extent, step), "
                "tf::persistent_tiles(mesh, GM, GN) or tf::grid_tiles(mesh, "
                "GM, GN)");
    return;
  }

  hir::Stmt L;
  L.Kind = hir::StmtKind::Loop;
  L.Loop = Kind;
  L.Range = range(FS);
  L.CallRange = range(Call);

  if (Kind == hir::LoopKind::TileOffsets) {
    for (const Expr *A : Call->arguments())
      L.Bounds.push_back(indexExpr(A));
    // tile_offsets<Step>(extent): the step is the template argument.
    std::optional<std::int64_t> Step;
    if (L.Bounds.size() == 1) {
      if (const TemplateArgumentList *TA = calleeTemplateArgs(Call);
          TA && TA->size() >= 1)
        if ((Step = integralArg((*TA)[0])))
          L.Bounds.push_back(constantExpr(*Step));
    } else if (Call->getNumArgs() >= 2 &&
               !Call->getArg(1)->isValueDependent()) {
      if (std::optional<llvm::APSInt> V =
              Call->getArg(1)->getIntegerConstantExpr(Ctx))
        Step = V->getExtValue();
    }
    // A step that is not positive never reaches the extent.
    if (Step && *Step <= 0) {
      error(Call->getBeginLoc(), DiagId::err_tf_hir_unsupported)
          << ("a tile loop with step " + std::to_string(*Step))
          << "the step of tf::tile_offsets is a tile's positive extent"
          << Call->getSourceRange();
      afterError();
    }
  } else {
    unsigned N = Call->getNumArgs();
    if (N >= 1) {
      if (std::optional<tf::Mesh> M = evaluateMesh(Call->getArg(0)))
        L.LoopMesh = *M;
      else {
        error(Call->getArg(0)->getBeginLoc(), DiagId::err_tf_hir_unsupported)
            << "a tile scheduler over a mesh that is not a constant"
            << "declare the CTA mesh `constexpr tf::Mesh cta = "
               "tf::mesh(\"cta\", ...)`"
            << Call->getArg(0)->getSourceRange();
        afterError();
      }
    }
    for (unsigned I = 1; I < N && I < 3; ++I)
      L.Bounds.push_back(indexExpr(Call->getArg(I)));
    if (N >= 4) {
      const Expr *Opt = strip(Call->getArg(3));
      if (const auto *DA = dyn_cast_or_null<CXXDefaultArgExpr>(Opt))
        Opt = strip(DA->getExpr());
      Expr::EvalResult R;
      if (Opt && !Opt->isValueDependent() && Opt->EvaluateAsRValue(R, Ctx) &&
          R.Val.isStruct()) {
        QualType T = Opt->getType();
        if (std::optional<std::int64_t> G = intField(R.Val, T, "group_m"))
          L.GroupM = *G;
        if (L.GroupM < 1) {
          error(Opt->getBeginLoc(), DiagId::err_tf_hir_unsupported)
              << ("a tile scheduler with group_m = " +
                  std::to_string(L.GroupM))
              << "group_m counts the tile rows of a group: 1 or more"
              << Opt->getSourceRange();
          afterError();
        }
        if (std::optional<std::int64_t> C = intField(R.Val, T, "column_major"))
          L.ColumnMajor = *C != 0;
        if (std::optional<std::int64_t> C = intField(R.Val, T, "cluster")) {
          L.Cluster = *C;
          L.ClusterRange = range(optionRange(Opt, "cluster"));
        }
      } else if (Opt) {
        error(Opt->getBeginLoc(), DiagId::err_tf_hir_unsupported)
            << "tile scheduler options that are not constants"
            << "write them as constants: `{.group_m = 8}`"
            << Opt->getSourceRange();
        afterError();
      }
    }
  }

  StmtId Saved = Current;
  StmtId Id = addStmt(std::move(L));
  Current = Id;

  const VarDecl *LV = FS->getLoopVariable();
  auto AddIndex = [&](const ValueDecl *D) {
    hir::Value V;
    V.Kind = hir::ValueKind::Index;
    V.Origin = hir::ValueOrigin::LoopIndex;
    V.Name = D->getNameAsString();
    V.Range = range(D->getSourceRange());
    V.Def = Id;
    ValueId Val = addValue(std::move(V));
    K.Stmts[Id].Indices.push_back(Val);
    Vars[D] = Val;
    Mutable.insert(D);
  };
  if (const auto *DD = dyn_cast_or_null<DecompositionDecl>(LV)) {
    for (const BindingDecl *B : DD->bindings())
      AddIndex(B);
  } else if (LV && isIndexType(LV->getType())) {
    AddIndex(LV);
  } else if (LV) {
    unsupported(LV->getInit() ? static_cast<const Stmt *>(FS) : FS,
                "binding the whole tile",
                "bind its coordinates: `for (auto [m, n] : ...)`");
  }
  unsigned Want = Kind == hir::LoopKind::TileOffsets ? 1 : 2;
  if (!Failed && K.Stmts[Id].Indices.size() != Want)
    unsupported(FS, "this loop variable",
                Kind == hir::LoopKind::TileOffsets
                    ? "write `for (std::int64_t k : tf::tile_offsets(...))`"
                    : "write `for (auto [m, n] : ...)`");

  translateBodyInto(FS->getBody());
  Current = Saved;
}

} // namespace tf::plugin::buildhir
