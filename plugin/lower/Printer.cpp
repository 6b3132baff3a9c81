//===- plugin/lower/Printer.cpp - The LIR as a readable program -----------===//
//
// See Printer.h. Expressions print infix with the parentheses precedence
// needs; `/` is floor division of non-negative values.
//
//===----------------------------------------------------------------------===//
#include "lower/Printer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cstdio>

namespace tf::lower {

namespace {

int precedence(ExprKind K) {
  switch (K) {
  case ExprKind::Xor: return 1;
  case ExprKind::And: return 2;
  case ExprKind::Add:
  case ExprKind::Sub: return 3;
  case ExprKind::Mul:
  case ExprKind::Div:
  case ExprKind::Mod: return 4;
  default: return 5; // atoms and calls
  }
}

const char *infix(ExprKind K) {
  switch (K) {
  case ExprKind::Add: return " + ";
  case ExprKind::Sub: return " - ";
  case ExprKind::Mul: return " * ";
  case ExprKind::Div: return " / ";
  case ExprKind::Mod: return " % ";
  case ExprKind::And: return " & ";
  case ExprKind::Xor: return " ^ ";
  default: return nullptr;
  }
}

std::string text(const Kernel &K, ExprId E) {
  if (E == None)
    return "?";
  const Expr &X = K.Exprs[E];
  switch (X.Kind) {
  case ExprKind::Constant: return std::to_string(X.Value);
  case ExprKind::Var: return X.Name;
  case ExprKind::Extent:
    return X.Name + ".extent(" + std::to_string(X.Dim) + ")";
  case ExprKind::CeilDiv:
    return "ceil_div(" + text(K, X.Lhs) + ", " + text(K, X.Rhs) + ")";
  case ExprKind::Min:
    return "min(" + text(K, X.Lhs) + ", " + text(K, X.Rhs) + ")";
  case ExprKind::Max:
    return "max(" + text(K, X.Lhs) + ", " + text(K, X.Rhs) + ")";
  default:
    break;
  }
  const int P = precedence(X.Kind);
  auto Side = [&](ExprId C, bool Right) {
    const int Q = precedence(K.Exprs[C].Kind);
    // Left-associative: a right operand of equal precedence needs
    // parentheses unless the operator is associative with it (+ after +).
    // Bit operations parenthesise every infix operand: C's precedence of
    // & and ^ below + surprises readers.
    const bool Bits = X.Kind == ExprKind::And || X.Kind == ExprKind::Xor;
    const bool Paren = (Bits && infix(K.Exprs[C].Kind)) || Q < P ||
                       (Right && Q == P &&
                        !(X.Kind == ExprKind::Add ||
                          (X.Kind == ExprKind::Mul &&
                           K.Exprs[C].Kind == ExprKind::Mul)));
    std::string Operand = text(K, C);
    return Paren ? ("(" + llvm::Twine(Operand) + ")").str() : Operand;
  };
  return Side(X.Lhs, false) + infix(X.Kind) + Side(X.Rhs, true);
}

/// ", order=(1,0)" for a box whose order is not the tensor's (its
/// dimensions as the tensor's, outermost first); empty for the identity.
std::string orderText(const std::vector<int> &Order) {
  bool Identity = true;
  for (std::size_t J = 0; J < Order.size(); ++J)
    Identity = Identity && Order[J] == static_cast<int>(J);
  if (Identity)
    return "";
  return ", order=" + hir::shapeText(std::vector<std::int64_t>(Order.begin(),
                                                           Order.end()));
}

std::string position(const hir::SourceRange &R) {
  if (R.File.empty())
    return "<unknown>";
  return R.File + ":" + std::to_string(R.Line) + ":" +
         std::to_string(R.Column);
}

/// The fused ops of a fragment store, each after a space: ` relu`,
/// ` cast.bf16`, ` scale(alpha)`, ` add(ld.global.bf16 c[(m * 128) + row,
/// (n * 256) + col] scale(beta))`.
void printFragmentOps(const Kernel &K, llvm::ArrayRef<FragmentOp> Ops,
                      llvm::raw_ostream &OS) {
  static const char *const Coord[] = {"row", "col"};
  for (const FragmentOp &Op : Ops) {
    OS << " " << elementwiseName(Op.Op);
    switch (Op.Op) {
    case ElementwiseOp::Cast:
      OS << "." << name(Op.To);
      break;
    case ElementwiseOp::Scale:
      OS << "(" << Op.Scalar << ")";
      break;
    case ElementwiseOp::Add: {
      const FragmentOperand &X = Op.Operand.front();
      OS << "(ld.global." << name(X.Load.Element) << " " << X.Load.Tensor
         << "[";
      for (std::size_t D = 0; D < X.Load.Origin.size(); ++D)
        OS << (D ? ", " : "") << text(K, X.Load.Origin[D]) << " + "
           << Coord[X.Load.Dims[D]];
      OS << "]";
      printFragmentOps(K, X.Ops, OS);
      OS << ")";
      break;
    }
    default:
      break;
    }
  }
}

/// `x[(m * 4) + d0, (n * 1024) + d1]`: a global tile as a register tile
/// meets it (d: the register tile's dimensions).
std::string globalText(const Kernel &K, const EpilogueLoad &G) {
  std::string Out = G.Tensor + "[";
  for (std::size_t D = 0; D < G.Origin.size(); ++D)
    Out += (D ? ", " : "") + text(K, G.Origin[D]) + " + d" +
           std::to_string(G.Dims[D]);
  return Out + "]";
}

std::string scalarText(const Kernel &K, const ScalarExpr &E) {
  using Kind = ScalarExpr::Kind;
  switch (E.What) {
  case Kind::Constant: {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.9g", E.Value);
    return Buf;
  }
  case Kind::Parameter: return E.Parameter;
  case Kind::Index: return "float(" + text(K, E.Index) + ")";
  case Kind::Neg: return "-(" + scalarText(K, E.Args[0]) + ")";
  default: break;
  }
  const char *Op = E.What == Kind::Add   ? " + "
                   : E.What == Kind::Sub ? " - "
                   : E.What == Kind::Mul ? " * "
                                         : " / ";
  return "(" + scalarText(K, E.Args[0]) + Op + scalarText(K, E.Args[1]) + ")";
}

/// `[0..7,256..263]`, `[0 x32]`: runs of consecutive values as a..b,
/// of repeated ones as v xN.
std::string listText(llvm::ArrayRef<std::int64_t> Values) {
  std::string Out = "[";
  for (std::size_t I = 0; I < Values.size();) {
    std::size_t Same = I, Next = I;
    while (Same + 1 < Values.size() && Values[Same + 1] == Values[I])
      ++Same;
    while (Next + 1 < Values.size() && Values[Next + 1] == Values[Next] + 1)
      ++Next;
    Out += I ? "," : "";
    if (Same > I) {
      Out += std::to_string(Values[I]) + " x" + std::to_string(Same - I + 1);
      I = Same + 1;
    } else if (Next > I + 1) {
      Out += std::to_string(Values[I]) + ".." + std::to_string(Values[Next]);
      I = Next + 1;
    } else {
      Out += std::to_string(Values[I]);
      ++I;
    }
  }
  return Out + "]";
}

/// `t / 32 % 4 * 1 + r[0,0,...]` per dimension of a register tile.
/// `t / D % E * S + ` per term.
std::string termsText(llvm::ArrayRef<ThreadTerm> Terms) {
  std::string Out;
  for (const ThreadTerm &X : Terms)
    Out += "t / " + std::to_string(X.Divisor) + " % " +
           std::to_string(X.Extent) + " * " + std::to_string(X.Scale) + " + ";
  return Out;
}

std::string coordText(const RegisterTile &T) {
  std::string Out = "(";
  for (std::size_t D = 0; D < T.Extents.size(); ++D) {
    Out += D ? ", " : "";
    Out += termsText(T.ThreadCoord[D]) + "r" + listText(T.RegisterCoord[D]);
  }
  return Out + ")";
}

/// Partial r of a thread's slot in \p Scratch, plus \p Offsets (a list):
/// `name[r * Slots + t / 32 % 8 * 1 + [0..7]]`.
std::string partialText(const Kernel &K, RegionId Scratch, std::int64_t Slots,
                        llvm::ArrayRef<ThreadTerm> Slot,
                        llvm::StringRef Offsets = "") {
  std::vector<std::string> Parts;
  for (const ThreadTerm &X : Slot)
    Parts.push_back("t / " + std::to_string(X.Divisor) + " % " +
                    std::to_string(X.Extent) + " * " + std::to_string(X.Scale));
  if (!Offsets.empty())
    Parts.push_back(Offsets.str());
  return K.Regions[Scratch].Name + "[r * " + std::to_string(Slots) + " + " +
         (Parts.empty() ? std::string("0") : llvm::join(Parts, " + ")) + "]";
}

class Printer {
public:
  Printer(const Kernel &K, llvm::raw_ostream &OS) : K(K), OS(OS) {}

  void run();

private:
  void stmt(InstId Id, unsigned Indent);
  void body(const std::vector<InstId> &Body, unsigned Indent) {
    for (InstId I : Body)
      stmt(I, Indent);
  }
  std::string e(ExprId X) const { return text(K, X); }

  const Kernel &K;
  llvm::raw_ostream &OS;
};

void Printer::stmt(InstId Id, unsigned Indent) {
  const Stmt &S = K.Insts[Id];
  OS.indent(Indent);
  if (const ExtensionInst *X = S.extension()) {
    X->extension().print(K, S, OS);
    OS << "\n";
    return;
  }
  switch (S.kind()) {
  case StmtKind::Role: {
    const auto &R = S.get<RoleStmt>();
    OS << "scope thread[" << R.Begin << ":" << R.End << "] " << R.Name;
    if (!R.Mesh.empty())
      OS << " = " << R.Mesh;
    OS << " {\n";
    body(S.Body, Indent + 2);
    OS.indent(Indent) << "}\n";
    return;
  }
  case StmtKind::TileLoop: {
    const auto &L = S.get<TileLoopStmt>();
    OS << "for task in range(" << e(L.Start) << ", " << e(L.Bound) << ", "
       << e(L.Stride) << ")  # "
       << (L.Persistent ? "persistent_tiles" : "grid_tiles: one tile per CTA")
       << ", group_m=" << L.GroupM;
    if (L.Cluster > 1)
      OS << ", clusters of " << L.Cluster << " CTAs along M";
    OS << " {\n";
    body(S.Body, Indent + 2);
    OS.indent(Indent) << "}\n";
    return;
  }
  case StmtKind::KLoop: {
    const auto &L = S.get<KLoopStmt>();
    OS << "for " << L.Var << " in range(" << e(L.Start) << ", " << e(L.Bound)
       << ", " << L.Step << ") {\n";
    body(S.Body, Indent + 2);
    OS.indent(Indent) << "}\n";
    return;
  }
  case StmtKind::Let: {
    const auto &L = S.get<LetStmt>();
    OS << "let " << L.Var << " = " << e(L.Value) << "\n";
    return;
  }
  case StmtKind::ZeroFragment:
    OS << "zero acc\n";
    return;
  case StmtKind::StoreFragment: {
    const auto &F = S.get<StoreFragmentStmt>();
    OS << "st.shared";
    printFragmentOps(K, F.Epilogue, OS);
    OS << " cvt." << name(F.CastTo) << " acc -> " << K.Regions[F.View].Name
       << "  # per thread as " << F.Shard;
    if (F.Blocks.count() != 1)
      OS << ", " << F.Blocks.Rows << " x " << F.Blocks.Columns
         << " blocks of " << F.Registers.rows() << " x "
         << F.Registers.columns() << " per warpgroup";
    OS << "\n";
    return;
  }
  case StmtKind::RegisterLoad: {
    const auto &I = S.get<RegisterLoadStmt>();
    OS << K.Tiles[I.Dst].Name << " = ld.global." << name(I.Src.Element) << " "
       << globalText(K, I.Src) << " vector=" << I.Vector << "\n";
    return;
  }
  case StmtKind::RegisterStore: {
    const auto &I = S.get<RegisterStoreStmt>();
    OS << "st.global." << name(I.Dst.Element) << " " << globalText(K, I.Dst)
       << " = " << K.Tiles[I.Src].Name << " vector=" << I.Vector << "\n";
    return;
  }
  case StmtKind::RegisterMath: {
    const auto &I = S.get<RegisterMathStmt>();
    OS << K.Tiles[I.Dst].Name << " = " << registerOpName(I.Op) << "."
       << name(I.To) << "(";
    for (std::size_t A = 0; A < I.Operands.size(); ++A) {
      const RegisterOperand &O = I.Operands[A];
      OS << (A ? ", " : "");
      switch (O.What) {
      case RegisterOperand::Kind::Tile:
        OS << K.Tiles[O.Tile].Name;
        if (!O.Map.empty())
          OS << listText(O.Map);
        break;
      case RegisterOperand::Kind::Scalar:
        OS << scalarText(K, O.Scalar);
        break;
      case RegisterOperand::Kind::InBounds:
        OS << "in_bounds(" << globalText(K, O.Bounds) << ")";
        break;
      }
    }
    OS << ")\n";
    return;
  }
  case StmtKind::RegisterReduce: {
    const auto &I = S.get<RegisterReduceStmt>();
    OS << K.Tiles[I.Dst].Name << " = reduce." << registerOpName(I.Op) << "("
       << K.Tiles[I.Src].Name << " into " << listText(I.Into)
       << ") shfl.bfly " << listText(I.LaneMasks) << "\n";
    return;
  }
  case StmtKind::RegisterShare: {
    const auto &I = S.get<RegisterShareStmt>();
    OS << "st.shared.f32 "
       << partialText(K, I.Scratch, I.Slots, I.Slot) << " = "
       << K.Tiles[I.Src].Name << "[r]";
    if (I.Writers)
      OS << " if t & " << I.Writers << " == 0";
    OS << "\n";
    return;
  }
  case StmtKind::RegisterGather: {
    const auto &I = S.get<RegisterGatherStmt>();
    OS << K.Tiles[I.Dst].Name << " = gather." << registerOpName(I.Op) << "("
       << partialText(K, I.Scratch, I.Slots, I.Slot, listText(I.Offsets))
       << ")\n";
    return;
  }
  case StmtKind::AtomCall:
  case StmtKind::Extension:
    // An atom call without a target encoding, or an empty extension
    // statement: the verifier's business; print what the core knows.
    if (const auto *Call = S.getIf<AtomCallStmt>()) {
      OS << "call " << Call->Contract;
      if (!Call->Params.empty())
        OS << " " << paramsText(*Call);
    } else {
      OS << "extension";
    }
    OS << "\n";
    return;
  }
}

void Printer::run() {
  OS << "kernel " << K.Name << " at " << position(K.Range) << " on "
     << K.Target << "\n";
  OS << "  mangled " << K.MangledName << "\n";
  OS << "  params";
  for (const Parameter &P : K.Parameters)
    OS << " " << P.Name << ":"
       << (P.What == Parameter::Kind::Tensor ? std::string(name(P.Element))
                                             : P.ScalarType);
  OS << "\n";
  OS << "  launch grid=(" << e(K.Grid) << ")"
     << (K.Persistent ? " persistent" : "");
  if (K.ClusterCtas > 1)
    OS << " cluster=(" << K.ClusterCtas << ")";
  OS << " block=(" << K.BlockThreads << ")";
  if (K.ResidentCtas > 1)
    OS << " resident=" << K.ResidentCtas << " per SM";
  OS << " dynamic_smem=" << K.SharedBytes << " of " << K.SharedLimit
     << " (cta.shared_memory.max), base aligned to " << K.SharedAlign
     << "\n";
  OS << "  tensor maps\n";
  for (std::size_t I = 0; I < K.Maps.size(); ++I) {
    const TensorMap &M = K.Maps[I];
    OS << "    map" << I << " = tensor_map(" << M.Tensor << ", " << name(M.Element)
       << ", box=" << hir::shapeText(M.Box) << orderText(M.Order)
       << ", swizzle=" << swizzleName(M.Swizzle) << ")\n";
  }
  OS << "  shared memory\n";
  for (const Region &R : K.Regions) {
    OS << "    " << llvm::format_decimal(R.Offset, 6) << " " << R.Name << " = ";
    if (R.Kind == RegionKind::Barrier)
      OS << R.Object << "()";
    else
      OS << "tensor_view(" << R.Offset << ", " << name(R.Element)
         << ", smem, " << R.Layout << ", shape=" << hir::shapeText(R.Shape) << ")";
    OS << "  # " << R.Bytes << " bytes, align " << R.Align << " ("
       << R.AlignReason << ")\n";
  }
  if (!K.Tiles.empty()) {
    OS << "  register tiles (register r of thread t of the role holds element coord)\n";
    for (const RegisterTile &T : K.Tiles)
      OS << "    " << T.Name << " = " << name(T.Element) << "[" << T.Registers
         << "] of tile " << hir::shapeText(T.Extents) << ", coord "
         << coordText(T) << "  # " << T.Shard << "\n";
  }
  OS << "  barriers\n";
  for (const Barrier &B : K.Barriers) {
    OS << "    " << B.Name << "[" << B.Count << "] arrivals=" << B.Arrivals;
    if (B.TxBytes)
      OS << " expect_tx=" << B.TxBytes;
    OS << "\n";
  }
  OS << "  body\n";
  body(K.Body, 4);
}

} // namespace

std::string exprText(const Kernel &K, ExprId E) { return text(K, E); }

std::string viewText(const Kernel &K, RegionId View, hir::ValueId Ring,
                     ExprId Slot) {
  if (Ring != hir::None)
    for (const Region &R : K.Regions)
      if (R.Kind == RegionKind::RingStage && R.Value == Ring)
        return R.Name.substr(0, R.Name.rfind('[')) + "[" + text(K, Slot) +
               "]";
  return View != None ? K.Regions[View].Name : "?";
}

std::string barrierText(const Kernel &K, BarrierId Bar, ExprId Slot) {
  return K.Barriers[Bar].Name + "[" + text(K, Slot) + "]";
}

std::string paramsText(const AtomCallStmt &Call) {
  if (Call.Params.empty())
    return "";
  return "{" + llvm::join(Call.Params, ", ") + "}";
}

const char *swizzleName(SwizzleMode M) {
  switch (M) {
  case SwizzleMode::none: return "none";
  case SwizzleMode::bytes32: return "32B";
  case SwizzleMode::bytes64: return "64B";
  case SwizzleMode::bytes128: return "128B";
  }
  return "?";
}

void print(const Kernel &K, llvm::raw_ostream &OS) { Printer(K, OS).run(); }

} // namespace tf::lower
