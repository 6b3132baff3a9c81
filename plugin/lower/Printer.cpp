//===- plugin/lower/Printer.cpp - The LIR as a readable program -----------===//
//
// See Printer.h. Expressions print infix with the parentheses precedence
// needs; `/` is floor division of non-negative values.
//
//===----------------------------------------------------------------------===//
#include "lower/Printer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

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

std::string shapeText(const std::vector<std::int64_t> &S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << '(';
  for (std::size_t I = 0; I < S.size(); ++I)
    OS << (I ? "," : "") << S[I];
  OS << ')';
  return Out;
}

std::string position(const hir::SourceRange &R) {
  if (R.File.empty())
    return "<unknown>";
  return R.File + ":" + std::to_string(R.Line) + ":" +
         std::to_string(R.Column);
}

class Printer {
public:
  Printer(const Kernel &K, llvm::raw_ostream &OS) : K(K), OS(OS) {}

  void run();

private:
  void inst(InstId Id, unsigned Indent);
  void body(const std::vector<InstId> &Body, unsigned Indent) {
    for (InstId I : Body)
      inst(I, Indent);
  }
  std::string e(ExprId X) const { return text(K, X); }
  std::string barrier(const Inst &I) const {
    return K.Barriers[I.Bar].Name + "[" + e(I.Slot) + "]";
  }
  /// A ring's stage `lhs_ring[it % 3]`, else the view region's name.
  std::string view(const Inst &I, hir::ValueId Ring, ExprId Slot) const;
  std::string descriptor(const SmemDescriptor &D, const std::string &View) const;

  const Kernel &K;
  llvm::raw_ostream &OS;
};

std::string Printer::view(const Inst &I, hir::ValueId Ring,
                          ExprId Slot) const {
  if (Ring != hir::None)
    for (const Region &R : K.Regions)
      if (R.Kind == RegionKind::RingStage && R.Value == Ring)
        return R.Name.substr(0, R.Name.rfind('[')) + "[" + e(Slot) + "]";
  return I.View != None ? K.Regions[I.View].Name : "?";
}

std::string Printer::descriptor(const SmemDescriptor &D,
                                const std::string &View) const {
  return "desc(" + View + " + " + std::to_string(D.Start) +
         ", lbo=" + (D.LeadingUsed ? std::to_string(D.LeadingBytes) : "unused") +
         ", sbo=" + std::to_string(D.StrideBytes) +
         ", base_offset=" + std::to_string(D.BaseOffset) +
         ", swizzle=" + swizzleName(D.Swizzle) + ")";
}

void Printer::inst(InstId Id, unsigned Indent) {
  const Inst &I = K.Insts[Id];
  OS.indent(Indent);
  switch (I.Kind) {
  case InstKind::Role:
    OS << "scope thread[" << I.Begin << ":" << I.End << "] " << I.RoleName;
    if (!I.Mesh.empty())
      OS << " = " << I.Mesh;
    OS << " {\n";
    body(I.Body, Indent + 2);
    OS.indent(Indent) << "}\n";
    return;
  case InstKind::TileLoop:
    OS << "for task in range(" << e(I.Start) << ", " << e(I.Bound) << ", "
       << e(I.Stride) << ")  # "
       << (I.Persistent ? "persistent_tiles" : "grid_tiles: one tile per CTA")
       << ", group_m=" << I.GroupM << " {\n";
    body(I.Body, Indent + 2);
    OS.indent(Indent) << "}\n";
    return;
  case InstKind::KLoop:
    OS << "for " << I.Vars[0] << " in range(" << e(I.Start) << ", "
       << e(I.Bound) << ", " << I.Step << ") {\n";
    body(I.Body, Indent + 2);
    OS.indent(Indent) << "}\n";
    return;
  case InstKind::Let:
    OS << "let " << I.Vars[0] << " = " << e(I.Value) << "\n";
    return;
  case InstKind::BarrierInit: {
    const Barrier &B = K.Barriers[I.Bar];
    OS << instName(I.Kind) << " " << B.Name << "[0:" << B.Count
       << "], arrivals=" << I.Count << "\n";
    return;
  }
  case InstKind::FenceBarrierInit:
    OS << instName(I.Kind) << "; bar.sync 0  # every thread sees the "
       << "initialised barriers\n";
    return;
  case InstKind::Wait:
    OS << instName(I.Kind) << " " << barrier(I) << ", parity=" << e(I.Phase)
       << "\n";
    return;
  case InstKind::ArriveExpectTx:
    OS << instName(I.Kind) << " " << barrier(I) << ", tx=" << I.Bytes
       << "\n";
    return;
  case InstKind::Arrive:
    OS << instName(I.Kind) << " " << barrier(I);
    if (I.Elected >= 0)
      OS << "  # by thread " << I.Elected;
    OS << "\n";
    return;
  case InstKind::TmaLoad:
  case InstKind::TmaStore: {
    const TensorMap &M = K.Maps[I.Map];
    std::vector<std::string> Coords;
    for (ExprId C : I.Coords)
      Coords.push_back(e(C));
    const std::string Global =
        M.Tensor + "[" + llvm::join(Coords, ", ") + "]";
    const std::string Shared =
        view(I, I.Ring, I.Slot) + " + " + std::to_string(I.ViewOffset);
    OS << instName(I.Kind) << " map" << I.Map << " ";
    if (I.Kind == InstKind::TmaLoad)
      OS << Global << " -> " << Shared << ", " << barrier(I);
    else
      OS << Shared << " -> " << Global;
    OS << "  # " << I.Bytes << " bytes\n";
    return;
  }
  case InstKind::BulkCommit:
  case InstKind::WgmmaFence:
  case InstKind::WgmmaCommit:
  case InstKind::FenceProxyAsync:
    OS << instName(I.Kind) << "\n";
    return;
  case InstKind::BulkWaitRead:
    OS << instName(I.Kind) << " 0\n";
    return;
  case InstKind::WgmmaWait:
    OS << instName(I.Kind) << " " << I.Count << "\n";
    return;
  case InstKind::ZeroAcc:
    OS << instName(I.Kind) << " acc\n";
    return;
  case InstKind::Wgmma: {
    OS << wgmmaOpcode(I.Atom) << " " << I.Axis << "=" << I.AxisValue << " k=" << I.KStep
       << " acc[" << I.Block << "], "
       << descriptor(I.A, view(I, I.RingA, I.Coords[0])) << ", "
       << descriptor(I.B, view(I, I.RingB, I.Coords[1]))
       << ", tnsp_a=" << I.TransA << ", tnsp_b=" << I.TransB << "\n";
    return;
  }
  case InstKind::StoreFragment:
    OS << instName(I.Kind);
    for (const FragmentOp &F : I.Epilogue) {
      OS << " " << elementwiseName(F.Op);
      if (F.Op == ElementwiseOp::Cast)
        OS << "." << name(F.To);
    }
    OS << " cvt." << name(I.CastTo) << " acc -> "
       << K.Regions[I.View].Name << "  # per thread as " << I.Shard << "\n";
    return;
  case InstKind::NamedBarrier:
    OS << instName(I.Kind) << " " << I.BarrierIdNum << ", " << I.Count
       << "\n";
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
       << (P.What == Parameter::Kind::Integer ? P.ScalarType
                                               : std::string(name(P.Element)));
  OS << "\n";
  OS << "  launch grid=(" << e(K.Grid) << ")"
     << (K.Persistent ? " persistent" : "") << " block=(" << K.BlockThreads
     << ") dynamic_smem=" << K.SharedBytes << " of " << K.SharedLimit
     << " (cta.shared_memory.max), base aligned to " << K.SharedAlign
     << "\n";
  OS << "  tensor maps\n";
  for (std::size_t I = 0; I < K.Maps.size(); ++I) {
    const TensorMap &M = K.Maps[I];
    OS << "    map" << I << " = tensor_map(" << M.Tensor << ", " << name(M.Element)
       << ", box=" << shapeText(M.Box) << ", swizzle=" << swizzleName(M.Swizzle)
       << ")\n";
  }
  OS << "  shared memory\n";
  for (const Region &R : K.Regions) {
    OS << "    " << llvm::format_decimal(R.Offset, 6) << " " << R.Name << " = ";
    if (R.Kind == RegionKind::Barrier)
      OS << "mbarrier()";
    else
      OS << "tensor_view(" << R.Offset << ", " << name(R.Element)
         << ", smem, " << R.Layout << ", shape=" << shapeText(R.Shape) << ")";
    OS << "  # " << R.Bytes << " bytes, align " << R.Align << " ("
       << R.AlignReason << ")\n";
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
