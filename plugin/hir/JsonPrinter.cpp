//===- plugin/hir/JsonPrinter.cpp - The HIR as JSON -----------------------===//
//
// The form `-fplugin-arg-tf-dump-hir=json` and `tf hir --json` print
// (Printer.h, printJson); docs/schemas/hir.schema.json is its schema and
// test/cli/json/ validates it. One object per translation unit:
//
//   {
//     "format": "tf.hir",
//     "version": 1,
//     "main_file": "optimal.cpp",
//     "kernels": [
//       {
//         "name": "gemm::gemm",
//         ...
//         "values": [{"id": 0, "name": "a", "display": "%a", ...}, ...],
//         "exprs": [...],
//         "stmts": [{"id": 0, "kind": "block", ...}, ...]
//       }
//     ]
//   }
//
// Values, expressions and statements are the kernel's arenas in index order
// (an object's "id" is its index); they refer to each other by id, null for
// none. Every layout, mesh and type carries its text (as the text dump
// prints it) next to its parsed structure. An extent is a number, or a
// string where it has none: "?" (known at run time) or a contract symbol.
// Keys are written in a fixed order, so the same HIR prints the same bytes;
// positions are basename:line:col, as in the text dump, so the document does
// not depend on where the sources lie.
//
//===----------------------------------------------------------------------===//

#include "hir/Printer.h"

#include "tf/layout/mesh_text.hpp"
#include "tf/layout/text/print.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace tf::hir {
namespace {

llvm::StringRef sv(std::string_view S) { return {S.data(), S.size()}; }

const char *valueKindName(ValueKind K) {
  switch (K) {
  case ValueKind::Tensor:
    return "tensor";
  case ValueKind::Ring:
    return "ring";
  case ValueKind::Index:
    return "index";
  case ValueKind::Scalar:
    return "scalar";
  }
  return "?";
}

const char *originName(ValueOrigin O) {
  switch (O) {
  case ValueOrigin::Parameter:
    return "parameter";
  case ValueOrigin::Local:
    return "local";
  case ValueOrigin::Temporary:
    return "temporary";
  case ValueOrigin::LoopIndex:
    return "loop_index";
  }
  return "?";
}

const char *exprKindName(ExprKind K) {
  switch (K) {
  case ExprKind::Constant:
    return "constant";
  case ExprKind::Ref:
    return "ref";
  case ExprKind::Extent:
    return "extent";
  case ExprKind::Add:
    return "add";
  case ExprKind::Sub:
    return "sub";
  case ExprKind::Mul:
    return "mul";
  case ExprKind::Div:
    return "div";
  case ExprKind::Mod:
    return "mod";
  case ExprKind::CeilDiv:
    return "ceil_div";
  case ExprKind::Min:
    return "min";
  case ExprKind::Max:
    return "max";
  case ExprKind::Opaque:
    return "opaque";
  }
  return "?";
}

const char *stmtKindName(StmtKind K) {
  switch (K) {
  case StmtKind::Block:
    return "block";
  case StmtKind::MeshScope:
    return "mesh_scope";
  case StmtKind::Loop:
    return "loop";
  case StmtKind::Let:
    return "let";
  case StmtKind::Alloc:
    return "alloc";
  case StmtKind::Op:
    return "op";
  }
  return "?";
}

const char *loopKindName(LoopKind K) {
  switch (K) {
  case LoopKind::TileOffsets:
    return "tile_offsets";
  case LoopKind::PersistentTiles:
    return "persistent_tiles";
  case LoopKind::GridTiles:
    return "grid_tiles";
  }
  return "?";
}

const char *accessKindName(AccessKind K) {
  switch (K) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::ReadWrite:
    return "readwrite";
  }
  return "?";
}

const char *paramKindName(ParamKind K) {
  switch (K) {
  case ParamKind::integer:
    return "integer";
  case ParamKind::dtype:
    return "dtype";
  case ParamKind::choice:
    return "choice";
  }
  return "?";
}

class ModuleWriter {
public:
  explicit ModuleWriter(llvm::raw_ostream &OS) : J(OS, 2) {}

  void module(const Module &M) {
    J.object([&] {
      J.attribute("format", "tf.hir");
      J.attribute("version", 1);
      J.attribute("main_file", basename(M.MainFile));
      J.attributeArray("kernels", [&] {
        for (const Kernel &K : M.Kernels)
          kernel(K);
      });
    });
  }

private:
  static std::string basename(llvm::StringRef Path) {
    if (std::size_t Slash = Path.find_last_of("/\\");
        Slash != llvm::StringRef::npos)
      return Path.substr(Slash + 1).str();
    return Path.str();
  }

  //===- Leaves -----------------------------------------------------------===//

  void id(unsigned Id) {
    if (Id == None)
      J.value(nullptr);
    else
      J.value(Id);
  }

  void idAttribute(llvm::StringRef Key, unsigned Id) {
    J.attributeBegin(Key);
    id(Id);
    J.attributeEnd();
  }

  void ids(llvm::StringRef Key, const std::vector<unsigned> &Ids) {
    J.attributeArray(Key, [&] {
      for (unsigned I : Ids)
        id(I);
    });
  }

  /// A source position, or null.
  void position(llvm::StringRef Key, const SourceRange &R) {
    J.attributeBegin(Key);
    if (!R.valid() || R.File.empty())
      J.value(nullptr);
    else
      J.object([&] {
        J.attribute("file", basename(R.File));
        J.attribute("line", R.Line);
        J.attribute("column", R.Column);
      });
    J.attributeEnd();
  }

  /// An extent, stride or offset: its number, else "?" or its symbol.
  void integer(const Int &I) {
    if (I.has_value())
      J.value(I.value);
    else
      J.value(tf::to_string(I));
  }

  /// HIR extents: negative for "known at run time".
  void extents(llvm::StringRef Key, const std::vector<std::int64_t> &V) {
    J.attributeArray(Key, [&] {
      for (std::int64_t E : V)
        if (E < 0)
          J.value("?");
        else
          J.value(E);
    });
  }

  void integers(llvm::StringRef Key, const std::vector<std::int64_t> &V) {
    J.attributeArray(Key, [&] {
      for (std::int64_t E : V)
        J.value(E);
    });
  }

  /// An IntTuple as nested arrays: (2,(4,8)) is [2,[4,8]], 128 is 128.
  void tuple(const IntTuple &T) {
    if (T.is_leaf()) {
      integer(T.leaf());
      return;
    }
    J.array([&] {
      for (int I = 0; I < T.rank(); ++I)
        tuple(T.mode(I));
    });
  }

  void tupleAttribute(llvm::StringRef Key, const IntTuple &T) {
    J.attributeBegin(Key);
    tuple(T);
    J.attributeEnd();
  }

  /// Leaf bindings: "@group" as "group", "@2" as 2, unbound as null.
  void axes(llvm::StringRef Key, const LeafAxes &Axes) {
    J.attributeArray(Key, [&] {
      for (const AxisRef &A : Axes) {
        if (!A.name.empty())
          J.value(sv(A.name.view()));
        else if (A.index >= 0)
          J.value(A.index);
        else
          J.value(nullptr);
      }
    });
  }

  void swizzle(llvm::StringRef Key, const Swizzle *S) {
    J.attributeBegin(Key);
    if (!S)
      J.value(nullptr);
    else
      J.object([&] {
        J.attribute("text", tf::to_string(*S));
        J.attribute("bits", S->bits);
        J.attribute("base", S->base);
        J.attribute("shift", S->shift);
      });
    J.attributeEnd();
  }

  void layout(const Layout &L) {
    J.object([&] {
      J.attribute("text", tf::to_string(L));
      tupleAttribute("shape", L.shape);
      tupleAttribute("stride", L.stride);
    });
  }

  void layoutText(const LayoutText &T) {
    J.object([&] {
      J.attribute("text", tf::to_string(T));
      tupleAttribute("shape", T.layout.shape);
      tupleAttribute("stride", T.layout.stride);
      if (T.has_axes)
        axes("axes", T.axes);
      else
        J.attribute("axes", nullptr);
      J.attributeBegin("offset");
      if (T.has_offset)
        integer(T.offset);
      else
        J.value(nullptr);
      J.attributeEnd();
      swizzle("swizzle", T.has_swizzle ? &T.swizzle : nullptr);
    });
  }

  void mesh(const Mesh &M) {
    J.object([&] {
      J.attribute("text", tf::to_string(M));
      J.attribute("level", sv(M.level.view()));
      J.attributeBegin("layout");
      layout(M.layout);
      J.attributeEnd();
      J.attributeBegin("offset");
      integer(M.offset);
      J.attributeEnd();
      J.attributeArray("axes", [&] {
        for (const Name &N : M.axes)
          J.value(sv(N.view()));
      });
    });
  }

  void meshAttribute(llvm::StringRef Key, const Mesh &M) {
    J.attributeBegin(Key);
    mesh(M);
    J.attributeEnd();
  }

  void shard(const ShardLayout &S) {
    J.object([&] {
      J.attribute("text", tf::to_string(S));
      J.attributeObject("layout", [&] {
        J.attribute("text", tf::to_string(S.layout, S.axes));
        tupleAttribute("shape", S.layout.shape);
        tupleAttribute("stride", S.layout.stride);
        axes("axes", S.axes);
      });
      meshAttribute("mesh", S.mesh);
    });
  }

  void type(const TensorType &T) {
    J.object([&] {
      J.attribute("text", typeText(T));
      J.attribute("element", sv(name(T.Element)));
      J.attribute("storage", sv(name(T.Where)));
      J.attribute("spelling", T.Spelling);
      J.attributeBegin("layout");
      layoutText(T.Layout);
      J.attributeEnd();
      extents("window_extents", T.WindowExtents);
      tupleAttribute("shape", T.shape());
    });
  }

  //===- Arenas -----------------------------------------------------------===//

  void kernel(const Kernel &K) {
    Names = valueNames(K);
    Texts = exprTexts(K);
    J.object([&] {
      J.attribute("name", K.Name);
      J.attribute("mangled_name", K.MangledName);
      position("position", K.Range);
      position("instantiated_at", K.InstantiatedAt);
      if (K.Target.empty())
        J.attribute("target", nullptr);
      else
        J.attribute("target", K.Target);
      position("target_position", K.TargetRange);
      J.attributeArray("topologies", [&] {
        for (const Topology &T : K.Topologies)
          J.object([&] {
            J.attribute("level", sv(T.level.view()));
            J.attributeBegin("extent");
            integer(T.extent);
            J.attributeEnd();
          });
      });
      J.attribute("resident_ctas", K.ResidentCtas);
      ids("parameters", K.Parameters);
      idAttribute("body", K.Body);
      J.attributeArray("values", [&] {
        for (ValueId V = 0; V < K.Values.size(); ++V)
          value(V, K.Values[V]);
      });
      J.attributeArray("exprs", [&] {
        for (ExprId E = 0; E < K.Exprs.size(); ++E)
          expr(E, K.Exprs[E]);
      });
      J.attributeArray("stmts", [&] {
        for (StmtId S = 0; S < K.Stmts.size(); ++S)
          stmt(S, K.Stmts[S]);
      });
    });
  }

  void value(ValueId Id, const Value &V) {
    J.object([&] {
      J.attribute("id", Id);
      if (V.Name.empty())
        J.attribute("name", nullptr);
      else
        J.attribute("name", V.Name);
      J.attribute("display", Names[Id]);
      J.attribute("kind", valueKindName(V.Kind));
      J.attribute("origin", originName(V.Origin));
      J.attributeBegin("type");
      if (V.Kind == ValueKind::Index || V.Kind == ValueKind::Scalar)
        J.value(nullptr);
      else
        type(V.Type);
      J.attributeEnd();
      if (V.Kind == ValueKind::Ring)
        J.attribute("stages", V.Stages);
      else
        J.attribute("stages", nullptr);
      idAttribute("def", V.Def);
      idAttribute("scope", V.Scope);
      idAttribute("tile_of", V.TileOf);
      ids("tile_offsets", V.TileOffsets);
      idAttribute("init", V.Init);
      position("position", V.Range);
      J.attributeBegin("shard");
      if (V.Shard)
        shard(*V.Shard);
      else
        J.value(nullptr);
      J.attributeEnd();
      J.attribute("type_derived", V.TypeDerived);
    });
  }

  void expr(ExprId Id, const Expr &E) {
    J.object([&] {
      J.attribute("id", Id);
      J.attribute("kind", exprKindName(E.Kind));
      J.attribute("text", Texts[Id]);
      switch (E.Kind) {
      case ExprKind::Constant:
        J.attribute("value", E.Constant);
        break;
      case ExprKind::Ref:
        idAttribute("ref", E.Ref);
        break;
      case ExprKind::Extent:
        idAttribute("ref", E.Ref);
        J.attribute("dim", E.Dim);
        break;
      case ExprKind::Add:
      case ExprKind::Sub:
      case ExprKind::Mul:
      case ExprKind::Div:
      case ExprKind::Mod:
      case ExprKind::CeilDiv:
      case ExprKind::Min:
      case ExprKind::Max:
        idAttribute("lhs", E.Lhs);
        idAttribute("rhs", E.Rhs);
        break;
      case ExprKind::Opaque:
        J.attribute("source", E.Text);
        break;
      }
      if (E.Static)
        J.attribute("static", *E.Static);
      else
        J.attribute("static", nullptr);
    });
  }

  void stmt(StmtId Id, const Stmt &S) {
    J.object([&] {
      J.attribute("id", Id);
      J.attribute("kind", stmtKindName(S.Kind));
      position("position", S.Range);
      idAttribute("parent", S.Parent);
      ids("body", S.Body);
      switch (S.Kind) {
      case StmtKind::Block:
        break;
      case StmtKind::MeshScope:
        J.attribute("mesh_spelling", S.MeshSpelling);
        meshAttribute("mesh", S.Mesh);
        break;
      case StmtKind::Loop:
        loop(S);
        break;
      case StmtKind::Let:
        idAttribute("defines", S.Defines);
        idAttribute("init", S.Init);
        break;
      case StmtKind::Alloc:
        idAttribute("defines", S.Defines);
        break;
      case StmtKind::Op:
        op(S);
        break;
      }
    });
  }

  void loop(const Stmt &S) {
    J.attribute("loop", loopKindName(S.Loop));
    ids("indices", S.Indices);
    ids("bounds", S.Bounds);
    J.attributeBegin("loop_mesh");
    if (S.Loop == LoopKind::TileOffsets)
      J.value(nullptr);
    else
      mesh(S.LoopMesh);
    J.attributeEnd();
    J.attribute("group_m", S.GroupM);
    J.attribute("column_major", S.ColumnMajor);
    J.attribute("cluster", S.Cluster);
  }

  void op(const Stmt &S) {
    J.attribute("op", opName(S.Op));
    position("call_position", S.CallRange);
    ids("operands", S.Operands);
    idAttribute("result", S.Result);
    J.attribute("assigns", S.Assigns);
    if (S.Op == OpKind::Cast)
      J.attribute("cast_to", sv(name(S.CastTo)));
    else
      J.attribute("cast_to", nullptr);
    J.attributeBegin("access");
    access(S.Access);
    J.attributeEnd();
    J.attributeBegin("schedule");
    if (S.Sched)
      schedule(*S.Sched);
    else
      J.value(nullptr);
    J.attributeEnd();
  }

  void access(const AccessRelation &R) {
    J.object([&] {
      J.attributeArray("dim_names", [&] {
        for (const std::string &N : R.DimNames)
          J.value(N);
      });
      tupleAttribute("domain", R.Domain);
      J.attributeArray("accesses", [&] {
        for (const Access &A : R.Accesses)
          J.object([&] {
            idAttribute("operand", A.Operand);
            J.attribute("kind", accessKindName(A.Kind));
            J.attributeArray("map", [&] {
              for (unsigned D : A.Map)
                J.value(D);
            });
            J.attributeArray("map_names", [&] {
              for (unsigned D : A.Map)
                if (D < R.DimNames.size())
                  J.value(R.DimNames[D]);
                else
                  J.value(nullptr);
            });
            ids("offsets", A.Offsets);
            extents("extents", A.Extents);
            position("position", A.Range);
          });
      });
    });
  }

  void schedule(const Schedule &Sc) {
    J.object([&] {
      J.attribute("atom", Sc.AtomSpelling);
      if (Sc.ContractId.empty())
        J.attribute("contract", nullptr);
      else
        J.attribute("contract", Sc.ContractId);
      J.attributeArray("params", [&] {
        for (std::size_t I = 0; I < Sc.Params.size(); ++I) {
          const detail::AtomParam &P = Sc.Params[I];
          J.object([&] {
            J.attribute("name", sv(P.name.view()));
            J.attribute("kind", paramKindName(P.value.kind));
            switch (P.value.kind) {
            case ParamKind::integer:
              J.attribute("value", P.value.integer);
              break;
            case ParamKind::dtype:
              J.attribute("value", sv(name(P.value.dtype)));
              break;
            case ParamKind::choice:
              J.attribute("value", sv(P.value.choice.view()));
              break;
            }
            position("position", I < Sc.ParamRanges.size() ? Sc.ParamRanges[I]
                                                           : SourceRange{});
          });
        }
      });
      J.attributeBegin("repeat");
      if (Sc.Repeat.empty())
        J.value(nullptr);
      else
        J.array([&] {
          for (std::int64_t R : Sc.Repeat)
            J.value(R);
        });
      J.attributeEnd();
      position("repeat_position", Sc.RepeatRange);
      integers("derived_repeat", Sc.DerivedRepeat);
      extents("box_extents", Sc.BoxExtents);
      J.attributeBegin("box_offsets");
      if (Sc.BoxExtents.empty())
        J.value(nullptr);
      else
        layout(Sc.BoxOffsets);
      J.attributeEnd();
    });
  }

  llvm::json::OStream J;
  std::vector<std::string> Names;
  std::vector<std::string> Texts;
};

} // namespace

void printJson(const Module &M, llvm::raw_ostream &OS) {
  ModuleWriter(OS).module(M);
  OS << '\n';
}

} // namespace tf::hir
