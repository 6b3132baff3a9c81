//===- plugin/hir/Printer.cpp - The HIR as text ---------------------------===//
//
// The form `-fplugin-arg-tf-dump-hir` and `tf hir` print (Printer.h):
//
//   kernel gemm::gemm at optimal.cpp:62:6 target nvidia.h200_sxm topology cta=132 thread=384
//     mangled _ZN4gemm4gemmE...
//     param %a : tensor<bf16, (?,?):(?,1), gmem> at optimal.cpp:62:17
//     %lhs_ring = alloc ring<3 x tensor<bf16, ... | Swizzle(3,4,3), smem>> at ...
//     for (%m, %n) in persistent_tiles(Mesh(cta, ...), %GM, %GN, group_m=8) at ... {
//       mesh compute = Mesh(thread, ...) at ... {
//         %acc = zeros() : tensor<f32, ..., rmem> at ...
//           access (d0=128, d1=256): %acc(d0, d1) write
//       }
//     }
//
// Values print as %name (%name.2, %name.3 for later values of the same
// name; %N for unnamed values, N the value's index); tiles print inline as
// %parent.tile<E0xE1>(offsets). Layouts and meshes print with tf's own
// printers. Positions print as basename:line:col so that the text does not
// depend on where the sources lie.
//
//===----------------------------------------------------------------------===//

#include "hir/Printer.h"

#include "tf/layout/mesh_text.hpp"
#include "tf/layout/text/print.hpp"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <string>

namespace tf::hir {
namespace {

std::string position(const SourceRange &R) {
  if (!R.valid() || R.File.empty())
    return "<unknown>";
  std::string File = R.File;
  if (std::size_t Slash = File.find_last_of("/\\"); Slash != std::string::npos)
    File = File.substr(Slash + 1);
  return File + ":" + std::to_string(R.Line) + ":" + std::to_string(R.Column);
}

std::string intList(const std::vector<std::int64_t> &V, const char *Sep) {
  std::string Out;
  for (std::size_t I = 0; I < V.size(); ++I) {
    if (I)
      Out += Sep;
    Out += V[I] < 0 ? std::string("?") : std::to_string(V[I]);
  }
  return Out;
}

} // namespace

std::string typeText(const TensorType &T) {
  std::string Out = "tensor<" + std::string(name(T.Element)) + ", " +
                    to_string(T.Layout) + ", " + std::string(name(T.Where)) +
                    ">";
  if (!T.WindowExtents.empty())
    Out = "tile<" + intList(T.WindowExtents, "x") + " of " + Out + ">";
  return Out;
}

namespace {

const char *accessName(AccessKind K) {
  switch (K) {
  case AccessKind::Read: return "read";
  case AccessKind::Write: return "write";
  case AccessKind::ReadWrite: return "readwrite";
  }
  return "?";
}

const char *loopName(LoopKind K) {
  switch (K) {
  case LoopKind::TileOffsets: return "tile_offsets";
  case LoopKind::PersistentTiles: return "persistent_tiles";
  case LoopKind::GridTiles: return "grid_tiles";
  }
  return "?";
}

std::string paramValueText(const ParamValue &V) {
  switch (V.kind) {
  case ParamKind::integer: return std::to_string(V.integer);
  case ParamKind::dtype: return std::string(name(V.dtype));
  case ParamKind::choice: return std::string(V.choice.view());
  }
  return "?";
}

class KernelPrinter {
public:
  KernelPrinter(const Kernel &K, llvm::raw_ostream &OS) : K(K), OS(OS) {
    // Names: the first value called x is %x, later ones %x.2, %x.3, ...
    std::map<std::string, unsigned> Seen;
    Names.resize(K.Values.size());
    for (ValueId V = 0; V < K.Values.size(); ++V) {
      const std::string &N = K.Values[V].Name;
      if (N.empty()) {
        Names[V] = "%" + std::to_string(V);
        continue;
      }
      unsigned Count = ++Seen[N];
      Names[V] = "%" + N + (Count > 1 ? "." + std::to_string(Count) : "");
    }
  }

  void print() {
    OS << "kernel " << K.Name << " at " << position(K.Range);
    if (!K.Target.empty())
      OS << " target " << K.Target;
    if (!K.Topologies.empty()) {
      OS << " topology";
      for (const Topology &T : K.Topologies)
        OS << ' ' << T.level.view() << '=' << to_string(T.extent);
    }
    if (K.ResidentCtasRange.valid())
      OS << " resident_ctas=" << K.ResidentCtas;
    OS << '\n';
    OS << "  mangled " << K.MangledName << '\n';
    for (ValueId P : K.Parameters) {
      const Value &V = K.Values[P];
      OS << "  param " << Names[P] << " : " << valueType(V) << " at "
         << position(V.Range) << '\n';
    }
    if (K.Body != None)
      for (StmtId S : K.Stmts[K.Body].Body)
        stmt(S, 1);
  }

  const std::vector<std::string> &names() const { return Names; }

  std::string exprText(ExprId E) const { return expr(E); }

private:
  std::string valueType(const Value &V) const {
    switch (V.Kind) {
    case ValueKind::Index: return "index";
    case ValueKind::Scalar:
      return "scalar<" + std::string(name(V.Type.Element)) + ">";
    case ValueKind::Ring:
      return "ring<" + std::to_string(V.Stages) + " x " + typeText(V.Type) +
             ">";
    case ValueKind::Tensor: return typeText(V.Type);
    }
    return "?";
  }

  std::string expr(ExprId E) const {
    if (E == None || E >= K.Exprs.size())
      return "?";
    const Expr &X = K.Exprs[E];
    auto Bin = [&](const char *Op) {
      return "(" + expr(X.Lhs) + " " + Op + " " + expr(X.Rhs) + ")";
    };
    auto Call = [&](const char *F) {
      return std::string(F) + "(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
    };
    switch (X.Kind) {
    case ExprKind::Constant: return std::to_string(X.Constant);
    case ExprKind::Ref: return value(X.Ref);
    case ExprKind::Extent:
      return "extent(" + value(X.Ref) + ", " + std::to_string(X.Dim) + ")";
    case ExprKind::Add: return Bin("+");
    case ExprKind::Sub: return Bin("-");
    case ExprKind::Mul: return Bin("*");
    case ExprKind::Div: return Bin("/");
    case ExprKind::Mod: return Bin("%");
    case ExprKind::CeilDiv: return Call("ceil_div");
    case ExprKind::Min: return Call("min");
    case ExprKind::Max: return Call("max");
    case ExprKind::Opaque: return "opaque(\"" + X.Text + "\")";
    }
    return "?";
  }

  std::string exprList(const std::vector<ExprId> &Es) const {
    std::string Out;
    for (std::size_t I = 0; I < Es.size(); ++I)
      Out += (I ? ", " : "") + expr(Es[I]);
    return Out;
  }

  /// A value as an operand: its name; a tile as parent.tile<...>(...); an
  /// unnamed index as its expression.
  std::string value(ValueId V) const {
    if (V == None || V >= K.Values.size())
      return "none";
    const Value &X = K.Values[V];
    if (X.TileOf != None) {
      std::string Tile = value(X.TileOf) + ".tile<" +
                         intList(X.Type.WindowExtents, "x") + ">(" +
                         exprList(X.TileOffsets) + ")";
      return X.Name.empty() ? Tile : Names[V] + "=" + Tile;
    }
    if (X.Kind == ValueKind::Index && X.Name.empty() && X.Init != None &&
        X.Def == None)
      return expr(X.Init);
    if (X.Kind == ValueKind::Scalar && X.Name.empty())
      return "scalar(\"" + X.Written + "\")";
    return Names[V];
  }

  void indent(unsigned Depth) {
    for (unsigned I = 0; I < Depth; ++I)
      OS << "  ";
  }

  void body(const Stmt &S, unsigned Depth) {
    OS << " {\n";
    for (StmtId C : S.Body)
      stmt(C, Depth + 1);
    indent(Depth);
    OS << "}\n";
  }

  void stmt(StmtId Id, unsigned Depth) {
    const Stmt &S = K.Stmts[Id];
    indent(Depth);
    switch (S.Kind) {
    case StmtKind::Block:
      OS << "block at " << position(S.Range);
      body(S, Depth);
      return;
    case StmtKind::MeshScope:
      OS << "mesh " << S.MeshSpelling << " = " << to_string(S.Mesh) << " at "
         << position(S.Range);
      body(S, Depth);
      return;
    case StmtKind::Loop: {
      OS << "for ";
      if (S.Indices.size() == 1) {
        OS << value(S.Indices[0]);
      } else {
        OS << '(';
        for (std::size_t I = 0; I < S.Indices.size(); ++I)
          OS << (I ? ", " : "") << value(S.Indices[I]);
        OS << ')';
      }
      OS << " in " << loopName(S.Loop) << '(';
      if (S.Loop != LoopKind::TileOffsets)
        OS << to_string(S.LoopMesh) << ", ";
      OS << exprList(S.Bounds);
      if (S.Loop != LoopKind::TileOffsets) {
        OS << ", group_m=" << S.GroupM;
        if (S.ColumnMajor)
          OS << ", column_major";
        if (S.Cluster != 1)
          OS << ", cluster=" << S.Cluster;
      }
      OS << ") at " << position(S.Range);
      body(S, Depth);
      return;
    }
    case StmtKind::Let:
      OS << value(S.Defines) << " = let " << expr(S.Init) << " : index at "
         << position(S.Range) << '\n';
      return;
    case StmtKind::Alloc:
      OS << value(S.Defines) << " = alloc "
         << (S.Defines != None ? valueType(K.Values[S.Defines]) : "?")
         << " at " << position(S.Range) << '\n';
      return;
    case StmtKind::Op:
      op(S, Depth);
      return;
    }
  }

  void op(const Stmt &S, unsigned Depth) {
    if (S.Result != None)
      OS << value(S.Result) << " = ";
    OS << opName(S.Op);
    if (S.Op == OpKind::Cast)
      OS << '<' << name(S.CastTo) << '>';
    OS << '(';
    for (std::size_t I = 0; I < S.Operands.size(); ++I)
      OS << (I ? ", " : "") << value(S.Operands[I]);
    OS << ')';
    if (S.Result != None)
      OS << " : " << valueType(K.Values[S.Result]);
    if (S.Assigns)
      OS << " assigns";
    OS << " at " << position(S.Range);
    if (S.CallRange.valid() && S.CallRange.Begin != S.Range.Begin)
      OS << " call " << position(S.CallRange);
    OS << '\n';
    if (S.Sched)
      schedule(*S.Sched, Depth + 1);
    access(S.Access, Depth + 1);
  }

  /// " in box order <1,0>" unless the box order is the identity.
  static std::string boxOrder(const std::vector<int> &Order) {
    bool Identity = true;
    for (std::size_t J = 0; J < Order.size(); ++J)
      Identity = Identity && Order[J] == static_cast<int>(J);
    if (Identity)
      return "";
    return " in box order <" +
           llvm::join(llvm::map_range(Order, [](int D) { return std::to_string(D); }),
                      ",") +
           ">";
  }

  void schedule(const Schedule &Sc, unsigned Depth) {
    indent(Depth);
    OS << "schedule " << Sc.AtomSpelling << " contract "
       << (Sc.ContractId.empty() ? "?" : Sc.ContractId);
    if (!Sc.Repeat.empty())
      OS << " repeat<" << intList(Sc.Repeat, ",") << "> at "
         << position(Sc.RepeatRange);
    if (!Sc.BoxExtents.empty())
      OS << " boxes<" << intList(Sc.DerivedRepeat, ",") << "> of "
         << intList(Sc.BoxExtents, "x") << " at " << to_string(Sc.BoxOffsets)
         << boxOrder(Sc.BoxOrder);
    else if (!Sc.DerivedRepeat.empty())
      OS << " derived repeat<" << intList(Sc.DerivedRepeat, ",") << '>';
    OS << '\n';
    if (Sc.Params.size() == 0)
      return;
    indent(Depth + 1);
    OS << "params";
    for (std::size_t I = 0; I < Sc.Params.size(); ++I) {
      const detail::AtomParam &P = Sc.Params[I];
      OS << ' ' << P.name.view() << '=' << paramValueText(P.value);
      if (I < Sc.ParamRanges.size() && Sc.ParamRanges[I].valid())
        OS << " (" << position(Sc.ParamRanges[I]) << ')';
    }
    OS << '\n';
  }

  void access(const AccessRelation &R, unsigned Depth) {
    if (R.DimNames.empty() && R.Accesses.empty())
      return;
    indent(Depth);
    OS << "access (";
    int Rank = R.Domain.is_leaf() ? 0 : R.Domain.rank();
    for (std::size_t I = 0; I < R.DimNames.size(); ++I) {
      OS << (I ? ", " : "") << R.DimNames[I];
      if (static_cast<int>(I) < Rank)
        OS << '=' << to_string(R.Domain.mode(static_cast<int>(I)));
    }
    OS << "):";
    for (std::size_t I = 0; I < R.Accesses.size(); ++I) {
      const Access &A = R.Accesses[I];
      OS << (I ? ", " : " ") << value(A.Operand);
      if (!A.Offsets.empty())
        OS << '[' << exprList(A.Offsets) << " +" << ' '
           << intList(A.Extents, "x") << ']';
      OS << '(';
      for (std::size_t J = 0; J < A.Map.size(); ++J)
        OS << (J ? ", " : "")
           << (A.Map[J] < R.DimNames.size() ? R.DimNames[A.Map[J]] : "?");
      OS << ") " << accessName(A.Kind);
    }
    OS << '\n';
  }

  const Kernel &K;
  llvm::raw_ostream &OS;
  std::vector<std::string> Names;
};

} // namespace

void print(const Kernel &K, llvm::raw_ostream &OS) {
  KernelPrinter(K, OS).print();
}

std::vector<std::string> valueNames(const Kernel &K) {
  return KernelPrinter(K, llvm::nulls()).names();
}

std::vector<std::string> exprTexts(const Kernel &K) {
  KernelPrinter P(K, llvm::nulls());
  std::vector<std::string> Texts;
  Texts.reserve(K.Exprs.size());
  for (ExprId E = 0; E < K.Exprs.size(); ++E)
    Texts.push_back(P.exprText(E));
  return Texts;
}

void print(const Module &M, llvm::raw_ostream &OS) {
  for (std::size_t I = 0; I < M.Kernels.size(); ++I) {
    if (I)
      OS << '\n';
    print(M.Kernels[I], OS);
  }
}

} // namespace tf::hir
