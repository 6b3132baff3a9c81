//===- plugin/cli/FactsCommand.cpp - `tf facts` ---------------------------===//
//
//   tf facts ATOM [--target ID] [--json] [--targets-dir DIR]  one contract
//   tf facts [--list] [--target ID] [--json]                  every atom
//
// Prints an atom's whole instruction contract -- execution mesh and its
// predicates, parameters with predicates and per-case domains, operands
// with shapes, dtypes, storage and accepted layouts, limits -- and, with
// --target, whether the target's architectures provide the capability the
// atom needs. The contracts come from include/tf/atoms/registry.hpp, the
// text from include/tf/contract/print.hpp; this file adds the fact tree and
// the JSON (documented in docs/contracts/README.md).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "targets/TargetFacts.h"

#include "tf/atoms/registry.hpp"
#include "tf/contract/print.hpp"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace tf::targets;

namespace tf::cli {

cl::SubCommand FactsSubcommand(
    "facts",
    "An atom's instruction contract: tf facts ATOM [--target ID]\n\n"
    "  tf facts ATOM --target ID   the contract, and whether ID has its capability\n"
    "  tf facts ATOM               the contract alone\n"
    "  tf facts [--list]           every atom with its kind and capability\n\n"
    "docs/contracts/README.md describes the listing and the JSON");

static cl::OptionCategory FactsCategory("tf facts options");

static cl::list<std::string> FactsArgs(cl::Positional, cl::sub(FactsSubcommand),
                                       cl::desc("[ATOM]"),
                                       cl::cat(FactsCategory));
static cl::opt<std::string>
    TargetOption("target", cl::sub(FactsSubcommand), cl::value_desc("ID"),
                cl::desc("The device (or architecture) whose capabilities to "
                         "check, e.g. nvidia.h200_sxm"),
                cl::cat(FactsCategory));
static cl::opt<bool> FactsJson("json", cl::sub(FactsSubcommand),
                               cl::desc("Print JSON (docs/contracts/README.md)"),
                               cl::cat(FactsCategory));
static cl::opt<bool> FactsList("list", cl::sub(FactsSubcommand),
                               cl::desc("List every atom (the default without "
                                        "ATOM)"),
                               cl::cat(FactsCategory));
static cl::opt<std::string>
    FactsTargetsDir("targets-dir", cl::sub(FactsSubcommand),
                    cl::value_desc("DIR"),
                    cl::desc("Read the fact documents from DIR (default: "
                             "$TF_TARGETS_DIR, else the built-in targets/)"),
                    cl::cat(FactsCategory));

namespace {

StringRef sv(std::string_view S) { return StringRef(S.data(), S.size()); }

/// Reports a one-line error (and, with --json, an error object); returns 1.
int fail(const std::string &Message, StringRef KnownKey = {},
         ArrayRef<std::string> Known = {}) {
  errs() << "tf facts: error: " << Message << '\n';
  if (FactsJson) {
    json::OStream J(outs(), 2);
    J.object([&] {
      J.attributeObject("error", [&] {
        J.attribute("message", Message);
        if (!KnownKey.empty())
          J.attributeArray(KnownKey, [&] {
            for (const std::string &K : Known)
              J.value(K);
          });
      });
    });
    outs() << '\n';
  }
  return 1;
}

std::vector<std::string> atomIds() {
  std::vector<std::string> Ids;
  for (const Contract *C : all_contracts())
    Ids.emplace_back(C->id.view());
  return Ids;
}

/// The target as the printer needs it, for contract \p C (null: only the
/// target's own lines).
tf::FactsTarget describeTarget(const FactDatabase &DB, const TargetDocument &D,
                               const Contract *C) {
  MergedTarget M = DB.merge(D);
  tf::FactsTarget T;
  T.id = D.Id;
  T.kind = kindName(D.Kind).str();
  // An architecture lists its own capabilities; its closure starts with it.
  if (D.Kind == DocumentKind::Architecture)
    T.architectures.push_back(D.Id);
  for (const std::string &A : M.ArchitectureClosure)
    if (A != D.Id)
      T.architectures.push_back(A);
  if (C == nullptr || C->capability.empty()) {
    T.capability = tf::FactsTarget::Capability::none;
    return T;
  }
  StringRef Cap(C->capability.text, C->capability.size());
  if (M.hasCapability(Cap)) {
    T.capability = tf::FactsTarget::Capability::available;
    T.capability_from = M.capability(Cap)->From;
  }
  return T;
}

//===- JSON ---------------------------------------------------------------===//

void writeValue(json::OStream &J, const ParamValue &V) {
  switch (V.kind) {
  case ParamKind::integer:
    J.value(V.integer);
    return;
  case ParamKind::dtype:
    J.value(sv(name(V.dtype)));
    return;
  case ParamKind::choice:
    J.value(sv(V.choice.view()));
    return;
  }
}

void writeConditions(json::OStream &J, StringRef Key, const Conditions &When) {
  J.attributeObject(Key, [&] {
    for (const Condition &C : When) {
      J.attributeBegin(sv(C.param.view()));
      writeValue(J, C.value);
      J.attributeEnd();
    }
  });
}

void writeValues(json::OStream &J, StringRef Key, const ParamValues &Values) {
  J.attributeArray(Key, [&] {
    for (const ParamValue &V : Values)
      writeValue(J, V);
  });
}

void writeOptionalValue(json::OStream &J, StringRef Key, bool Has,
                        const ParamValue &V) {
  J.attributeBegin(Key);
  if (Has)
    writeValue(J, V);
  else
    J.value(nullptr);
  J.attributeEnd();
}

void writeOptionalString(json::OStream &J, StringRef Key,
                         std::string_view S) {
  if (S.empty())
    J.attribute(Key, nullptr);
  else
    J.attribute(Key, sv(S));
}

void writeParam(json::OStream &J, const ParamDef &P) {
  J.object([&] {
    J.attribute("name", sv(P.name.view()));
    J.attribute("kind", tf::to_string(P.kind));
    writeOptionalString(J, "choice_type", P.choice_type.view());
    J.attribute("derived", P.derived);
    writeOptionalValue(J, "default", P.has_default, P.default_value);
    J.attributeBegin("range");
    if (P.has_range)
      J.object([&] {
        J.attribute("lo", P.lo);
        J.attribute("hi", P.hi);
        J.attribute("step", P.step);
      });
    else
      J.value(nullptr);
    J.attributeEnd();
    writeValues(J, "allowed", P.allowed);
    J.attributeArray("predicates", [&] {
      for (const std::string &S : predicates(P))
        J.value(S);
    });
    J.attributeArray("cases", [&] {
      for (const ParamCase &C : P.cases)
        J.object([&] {
          writeConditions(J, "when", C.when);
          writeValues(J, "allowed", C.allowed);
          writeOptionalValue(J, "default", C.has_default, C.default_value);
          J.attribute("text", allowed_string(C, P));
        });
    });
  });
}

void writeDType(json::OStream &J, const DTypeRule &R) {
  J.object([&] {
    switch (R.kind) {
    case DTypeRule::Kind::any:
      J.attribute("rule", "any");
      break;
    case DTypeRule::Kind::fixed:
      J.attribute("rule", "fixed");
      J.attribute("dtype", sv(name(R.dtype)));
      break;
    case DTypeRule::Kind::of_param:
      J.attribute("rule", "of_param");
      J.attribute("param", sv(R.param.view()));
      break;
    case DTypeRule::Kind::one_of:
      J.attribute("rule", "one_of");
      J.attributeArray("set", [&] {
        for (DType T : R.set)
          J.value(sv(name(T)));
      });
      break;
    }
    J.attribute("text", tf::to_string(R));
  });
}

void writeArrangement(json::OStream &J, const LayoutPattern &P) {
  J.object([&] {
    J.attribute("kind", tf::to_string(P.kind));
    J.attribute("text", tf::to_string(P));
    switch (P.kind) {
    case LayoutPatternKind::any:
      break;
    case LayoutPatternKind::shard:
      J.attribute("layout", tf::to_string(P.shard.layout,
                                          P.shard.axes));
      J.attribute("mesh", tf::to_string(P.shard.mesh));
      break;
    case LayoutPatternKind::layout:
      J.attribute("layout", tf::to_string(P.layout.layout));
      J.attribute("offset", tf::to_string(P.layout.offset));
      if (P.layout.swizzle.is_identity())
        J.attribute("swizzle", nullptr);
      else
        J.attribute("swizzle", tf::to_string(P.layout.swizzle));
      break;
    case LayoutPatternKind::row_major:
      if (P.layout.swizzle.is_identity())
        J.attribute("swizzle", nullptr);
      else
        J.attribute("swizzle", tf::to_string(P.layout.swizzle));
      break;
    case LayoutPatternKind::same_as:
      J.attribute("operand", sv(P.operand.view()));
      break;
    }
    writeConditions(J, "when", P.when);
    writeOptionalString(J, "source", P.source.view());
  });
}

void writeOperand(json::OStream &J, const OperandPattern &O) {
  J.object([&] {
    J.attribute("name", sv(O.name.view()));
    writeConditions(J, "when", O.when);
    J.attribute("access", tf::to_string(O.access));
    J.attribute("shape", tf::to_string(O.shape));
    J.attributeBegin("dtype");
    writeDType(J, O.dtype);
    J.attributeEnd();
    J.attribute("storage", sv(name(O.storage)));
    J.attributeArray("atom_modes", [&] {
      for (int M : O.atom_modes)
        J.value(M >= 0 && M < 3 ? StringRef(&"MNK"[M], 1) : StringRef("?"));
    });
    J.attributeArray("arrangements", [&] {
      for (const LayoutPattern &P : O.layouts)
        writeArrangement(J, P);
    });
  });
}

void writeLimit(json::OStream &J, const OperandLimit &L) {
  J.object([&] {
    J.attribute("operand", sv(L.operand.view()));
    J.attribute("kind", tf::to_string(L.kind));
    J.attribute("mode", L.mode);
    J.attribute("value", L.value);
    J.attribute("predicate", predicate_string(L));
    writeConditions(J, "when", L.when);
    writeOptionalString(J, "source", L.source.view());
  });
}

void writeCapability(json::OStream &J, const Contract &C,
                     const tf::FactsTarget *T) {
  J.attributeObject("capability", [&] {
    writeOptionalString(J, "name", C.capability.view());
    J.attributeBegin("available");
    if (T == nullptr)
      J.value(nullptr);
    else
      J.value(T->capability != tf::FactsTarget::Capability::missing);
    J.attributeEnd();
    writeOptionalString(J, "from", T ? T->capability_from : std::string());
  });
}

void writeContract(json::OStream &J, const Contract &C,
                   const tf::FactsTarget *T) {
  J.object([&] {
    J.attribute("atom", sv(C.id.view()));
    J.attribute("kind", tf::to_string(C.kind));
    J.attributeBegin("target");
    if (T == nullptr)
      J.value(nullptr);
    else
      J.object([&] {
        J.attribute("id", T->id);
        J.attribute("kind", T->kind);
        J.attributeArray("architectures", [&] {
          for (const std::string &A : T->architectures)
            J.value(A);
        });
      });
    J.attributeEnd();
    writeCapability(J, C, T);
    J.attributeObject("execution_mesh", [&] {
      const Mesh &M = C.execution_mesh.mesh;
      J.attribute("mesh", tf::to_string(M));
      J.attribute("level", sv(M.level.view()));
      J.attribute("layout", tf::to_string(M.layout));
      J.attribute("offset", tf::to_string(M.offset));
      J.attributeArray("predicates", [&] {
        for (const MeshPredicate &P : C.execution_mesh.predicates)
          J.value(tf::to_string(P));
      });
    });
    if (has_atom_shape(C))
      J.attribute("atom_shape", tf::to_string(C.atom_shape));
    else
      J.attribute("atom_shape", nullptr);
    J.attributeArray("parameters", [&] {
      for (const ParamDef &P : C.params)
        writeParam(J, P);
    });
    J.attributeArray("operands", [&] {
      for (const OperandPattern &O : C.operands)
        writeOperand(J, O);
    });
    J.attributeArray("limits", [&] {
      for (const OperandLimit &L : C.limits)
        writeLimit(J, L);
    });
  });
  outs() << '\n';
}

//===- The verbs ----------------------------------------------------------===//

int listAtoms(const FactDatabase *DB, const TargetDocument *D) {
  raw_ostream &OS = outs();
  auto available = [&](const Contract &C) {
    return describeTarget(*DB, *D, &C).capability !=
           tf::FactsTarget::Capability::missing;
  };
  if (FactsJson) {
    json::OStream J(OS, 2);
    J.object([&] {
      writeOptionalString(J, "target", D ? D->Id : std::string());
      J.attributeArray("atoms", [&] {
        for (const Contract *C : all_contracts())
          J.object([&] {
            J.attribute("atom", sv(C->id.view()));
            J.attribute("kind", tf::to_string(C->kind));
            writeOptionalString(J, "capability", C->capability.view());
            if (D)
              J.attribute("available", available(*C));
            else
              J.attribute("available", nullptr);
          });
      });
    });
    OS << '\n';
    return 0;
  }
  std::vector<std::vector<std::string>> Rows;
  Rows.push_back({"ATOM", "KIND", "CAPABILITY"});
  if (D)
    Rows[0].push_back("ON " + D->Id);
  for (const Contract *C : all_contracts()) {
    Rows.push_back({std::string(C->id.view()), tf::to_string(C->kind),
                    C->capability.empty() ? std::string("-")
                                          : std::string(C->capability.view())});
    if (D)
      Rows.back().push_back(available(*C) ? "available" : "missing");
  }
  std::vector<size_t> Widths(Rows[0].size(), 0);
  for (const auto &R : Rows)
    for (size_t I = 0; I < R.size(); ++I)
      Widths[I] = std::max(Widths[I], R[I].size());
  for (const auto &R : Rows) {
    for (size_t I = 0; I < R.size(); ++I) {
      OS << R[I];
      if (I + 1 < R.size())
        OS.indent(Widths[I] - R[I].size() + 2);
    }
    OS << '\n';
  }
  OS << all_contracts().size()
     << (all_contracts().size() == 1 ? " atom" : " atoms")
     << "; 'tf facts ATOM' prints one\n";
  return 0;
}

int showAtom(const Contract &C, const FactDatabase *DB,
             const TargetDocument *D) {
  std::optional<tf::FactsTarget> T;
  if (D)
    T = describeTarget(*DB, *D, &C);
  if (FactsJson) {
    json::OStream J(outs(), 2);
    writeContract(J, C, T ? &*T : nullptr);
    return 0;
  }
  outs() << facts_text(C, T ? &*T : nullptr);
  return 0;
}

} // namespace

int runFactsCommand() {
  std::vector<std::string> Args(FactsArgs.begin(), FactsArgs.end());
  if (Args.size() > 1)
    return fail("expected at most one atom id, found " +
                std::to_string(Args.size()) + ": " + join(Args, " "));
  if (FactsList && !Args.empty())
    return fail("--list takes no atom id (found '" + Args[0] + "')");

  const Contract *C = nullptr;
  if (!Args.empty()) {
    C = find_contract(Args[0]);
    if (!C)
      return fail("unknown atom '" + Args[0] +
                      "'; known atoms: " + join(atomIds(), ", "),
                  "known_atoms", atomIds());
  }

  std::optional<FactDatabase> DB;
  const TargetDocument *D = nullptr;
  if (!TargetOption.empty()) {
    TargetsDir Dir = resolveTargetsDir(FactsTargetsDir);
    Expected<FactDatabase> Loaded = FactDatabase::loadDirectory(Dir.Path);
    if (!Loaded) {
      size_t Count = 0;
      handleAllErrors(
          Loaded.takeError(),
          [&](const FactError &E) {
            for (const Diagnostic &Diag : E.diagnostics())
              errs() << Diag.str() << '\n';
            Count += E.diagnostics().size();
          },
          [&](const ErrorInfoBase &E) {
            errs() << "tf facts: error: " << E.message() << '\n';
            ++Count;
          });
      return fail("the fact tree " + Dir.Path + " has " +
                  std::to_string(Count) + (Count == 1 ? " error" : " errors"));
    }
    DB.emplace(std::move(*Loaded));
    D = DB->find(TargetOption);
    if (!D)
      return fail("unknown target '" + TargetOption +
                      "'; known targets: " + join(DB->ids(), ", "),
                  "known_targets", DB->ids());
  }

  const FactDatabase *DBP = DB ? &*DB : nullptr;
  if (!C)
    return listAtoms(DBP, D);
  return showAtom(*C, DBP, D);
}

} // namespace tf::cli
