//===- ConstantValue.cpp - Clang constants as tf values -------------------===//
//
// Decoders from APValue to the tf value types, walking record fields by name
// (never by position, so adding a member to a tf type does not silently shift
// the others), and their text for the plugin's `report`, printed by tf's own
// printers (tf/layout/text.hpp, tf/layout/mesh_text.hpp).
//
//===----------------------------------------------------------------------===//

#include "ConstantValue.h"

#include "tf/layout/mesh_text.hpp"
#include "tf/layout/text.hpp"

#include "clang/AST/APValue.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace tf::plugin {
namespace {

/// A member of a decoded record: its value and declared type.
struct Member {
  const APValue *Value;
  QualType Type;
};

bool isTfRecord(QualType T, llvm::StringRef QualifiedName) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getQualifiedNameAsString() == QualifiedName;
}

std::optional<Member> member(const APValue &V, QualType T,
                             llvm::StringRef Name) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  if (!RD || !V.isStruct())
    return std::nullopt;
  for (const FieldDecl *F : RD->fields()) {
    if (F->getName() != Name)
      continue;
    unsigned Index = F->getFieldIndex();
    if (Index >= V.getStructNumFields())
      return std::nullopt;
    return Member{&V.getStructField(Index), F->getType()};
  }
  return std::nullopt;
}

bool readInteger(const Member &M, std::int64_t &Out) {
  if (!M.Value->isInt())
    return false;
  Out = M.Value->getInt().getExtValue();
  return true;
}

/// Reads the integer member \p Name into \p Out (of any integral type).
template <class Int>
bool readInteger(const APValue &V, QualType T, llvm::StringRef Name,
                 Int &Out) {
  std::optional<Member> M = member(V, T, Name);
  std::int64_t Value = 0;
  if (!M || !readInteger(*M, Value))
    return false;
  Out = static_cast<Int>(Value);
  return true;
}

/// Calls \p Each for elements 0 .. \p Count-1 of the array value \p M.
bool forEachElement(const Member &M, std::size_t Count,
                    llvm::function_ref<bool(const Member &)> Each) {
  const auto *AT = M.Type.getCanonicalType()->getAsArrayTypeUnsafe();
  if (!AT || !M.Value->isArray() || Count > M.Value->getArraySize())
    return false;
  for (unsigned I = 0; I < Count; ++I) {
    const APValue &E = I < M.Value->getArrayInitializedElts()
                           ? M.Value->getArrayInitializedElt(I)
                           : M.Value->getArrayFiller();
    if (!Each(Member{&E, AT->getElementType()}))
      return false;
  }
  return true;
}

bool decode(const Member &M, Name &Out) {
  std::optional<Member> Text = member(*M.Value, M.Type, "text");
  if (!Text)
    return false;
  std::string S;
  bool Ended = false;
  bool OK = forEachElement(*Text, Name::max_length, [&](const Member &C) {
    std::int64_t Ch = 0;
    if (!readInteger(C, Ch))
      return false;
    Ended = Ended || Ch == 0;
    if (!Ended)
      S.push_back(static_cast<char>(Ch));
    return true;
  });
  Out = Name(std::string_view(S));
  return OK;
}

bool decode(const Member &M, Int &Out) {
  const APValue &V = *M.Value;
  std::optional<Member> Symbol = member(V, M.Type, "symbol");
  return readInteger(V, M.Type, "kind", Out.kind) &&
         readInteger(V, M.Type, "known", Out.known) &&
         readInteger(V, M.Type, "variadic", Out.variadic) &&
         readInteger(V, M.Type, "value", Out.value) && Symbol &&
         decode(*Symbol, Out.symbol);
}

bool decode(const Member &M, IntTupleNode &Out) {
  std::optional<Member> Leaf = member(*M.Value, M.Type, "leaf");
  return Leaf && decode(*Leaf, Out.leaf) &&
         readInteger(*M.Value, M.Type, "is_leaf", Out.is_leaf) &&
         readInteger(*M.Value, M.Type, "arity", Out.arity) &&
         readInteger(*M.Value, M.Type, "span", Out.span);
}

bool decode(const Member &M, AxisRef &Out) {
  std::optional<Member> N = member(*M.Value, M.Type, "name");
  return N && decode(*N, Out.name) &&
         readInteger(*M.Value, M.Type, "index", Out.index);
}

template <class T, std::size_t N>
bool decode(const Member &M, FixedVector<T, N> &Out) {
  std::size_t Count = 0;
  std::optional<Member> Items = member(*M.Value, M.Type, "items");
  if (!Items || !readInteger(*M.Value, M.Type, "count", Count) || Count > N)
    return false;
  Out.clear();
  return forEachElement(*Items, Count, [&](const Member &E) {
    T Item{};
    return decode(E, Item) && Out.push_back(Item);
  });
}

bool decode(const Member &M, IntTuple &Out) {
  std::optional<Member> Nodes = member(*M.Value, M.Type, "nodes");
  return Nodes && decode(*Nodes, Out.nodes) && !Out.nodes.empty() &&
         readInteger(*M.Value, M.Type, "overflowed", Out.overflowed);
}

bool decode(const Member &M, Layout &Out) {
  std::optional<Member> Shape = member(*M.Value, M.Type, "shape");
  std::optional<Member> Stride = member(*M.Value, M.Type, "stride");
  return Shape && Stride && decode(*Shape, Out.shape) &&
         decode(*Stride, Out.stride);
}

bool decode(const Member &M, Swizzle &Out) {
  return readInteger(*M.Value, M.Type, "bits", Out.bits) &&
         readInteger(*M.Value, M.Type, "base", Out.base) &&
         readInteger(*M.Value, M.Type, "shift", Out.shift);
}

bool decode(const Member &M, ComposedLayout &Out) {
  std::optional<Member> Sw = member(*M.Value, M.Type, "swizzle");
  std::optional<Member> Off = member(*M.Value, M.Type, "offset");
  std::optional<Member> L = member(*M.Value, M.Type, "layout");
  return Sw && Off && L && decode(*Sw, Out.swizzle) &&
         decode(*Off, Out.offset) && decode(*L, Out.layout);
}

bool decode(const Member &M, Mesh &Out) {
  std::optional<Member> Level = member(*M.Value, M.Type, "level");
  std::optional<Member> L = member(*M.Value, M.Type, "layout");
  std::optional<Member> Off = member(*M.Value, M.Type, "offset");
  std::optional<Member> Axes = member(*M.Value, M.Type, "axes");
  return Level && L && Off && Axes && decode(*Level, Out.level) &&
         decode(*L, Out.layout) && decode(*Off, Out.offset) &&
         decode(*Axes, Out.axes);
}

bool decode(const Member &M, ShardLayout &Out) {
  std::optional<Member> L = member(*M.Value, M.Type, "layout");
  std::optional<Member> Axes = member(*M.Value, M.Type, "axes");
  std::optional<Member> Me = member(*M.Value, M.Type, "mesh");
  return L && Axes && Me && decode(*L, Out.layout) &&
         decode(*Axes, Out.axes) && decode(*Me, Out.mesh);
}

bool decode(const Member &M, Topology &Out) {
  std::optional<Member> Level = member(*M.Value, M.Type, "level");
  std::optional<Member> Extent = member(*M.Value, M.Type, "extent");
  return Level && Extent && decode(*Level, Out.level) &&
         decode(*Extent, Out.extent);
}

bool decode(const Member &M, ResidentCtas &Out) {
  return readInteger(*M.Value, M.Type, "count", Out.count);
}

bool decode(const Member &M, Target &Out) {
  std::optional<Member> Id = member(*M.Value, M.Type, "id");
  return Id && decode(*Id, Out.id);
}

bool decode(const Member &M, ParamValue &Out) {
  std::optional<Member> Choice = member(*M.Value, M.Type, "choice");
  return Choice && decode(*Choice, Out.choice) &&
         readInteger(*M.Value, M.Type, "kind", Out.kind) &&
         readInteger(*M.Value, M.Type, "integer", Out.integer) &&
         readInteger(*M.Value, M.Type, "dtype", Out.dtype);
}

bool decode(const Member &M, detail::AtomParam &Out) {
  std::optional<Member> N = member(*M.Value, M.Type, "name");
  std::optional<Member> V = member(*M.Value, M.Type, "value");
  return N && V && decode(*N, Out.name) && decode(*V, Out.value);
}

template <class T>
std::optional<T> decodeAs(const APValue &V, QualType Ty,
                          llvm::StringRef QualifiedName) {
  T Out{};
  if (!isTfRecord(Ty, QualifiedName) || !decode(Member{&V, Ty}, Out))
    return std::nullopt;
  return Out;
}

} // namespace

std::optional<Layout> decodeLayout(const APValue &V, QualType T) {
  return decodeAs<Layout>(V, T, "tf::Layout");
}
std::optional<ComposedLayout> decodeComposedLayout(const APValue &V,
                                                   QualType T) {
  return decodeAs<ComposedLayout>(V, T, "tf::ComposedLayout");
}
std::optional<ShardLayout> decodeShardLayout(const APValue &V, QualType T) {
  return decodeAs<ShardLayout>(V, T, "tf::ShardLayout");
}
std::optional<Mesh> decodeMesh(const APValue &V, QualType T) {
  return decodeAs<Mesh>(V, T, "tf::Mesh");
}
std::optional<Topology> decodeTopology(const APValue &V, QualType T) {
  return decodeAs<Topology>(V, T, "tf::Topology");
}
std::optional<Target> decodeTarget(const APValue &V, QualType T) {
  return decodeAs<Target>(V, T, "tf::Target");
}
std::optional<ResidentCtas> decodeResidentCtas(const APValue &V, QualType T) {
  return decodeAs<ResidentCtas>(V, T, "tf::ResidentCtas");
}

std::optional<std::string> decodeName(const APValue &V, QualType T) {
  std::optional<Name> N = decodeAs<Name>(V, T, "tf::Name");
  if (!N)
    return std::nullopt;
  return std::string(N->view());
}
std::optional<detail::AtomParams> decodeAtomParams(const APValue &V,
                                                   QualType T) {
  return decodeAs<detail::AtomParams>(V, T, "tf::FixedVector");
}

std::string describeConstant(const APValue &V, QualType T,
                             const ASTContext &Ctx) {
  // tf's own printers, so that the plugin, the headers and the CLI agree.
  if (std::optional<Layout> L = decodeLayout(V, T))
    return "Layout " + to_string(*L);
  if (std::optional<Mesh> M = decodeMesh(V, T))
    return to_string(*M);
  if (std::optional<ComposedLayout> C = decodeComposedLayout(V, T))
    return "ComposedLayout " + to_string(*C);
  if (std::optional<ShardLayout> S = decodeShardLayout(V, T))
    return "ShardLayout " + to_string(*S);
  if (std::optional<Target> Tgt = decodeTarget(V, T))
    return "Target(" + std::string(Tgt->id.view()) + ")";
  if (std::optional<ResidentCtas> R = decodeResidentCtas(V, T))
    return "ResidentCtas(" + std::to_string(R->count) + ")";
  if (std::optional<Topology> Top = decodeTopology(V, T))
    return "Topology(" + std::string(Top->level.view()) + ", " +
           to_string(Top->extent) + ")";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  V.printPretty(OS, Ctx, T);
  return Out;
}

std::optional<std::string> fixedStringText(const TemplateArgument &A) {
  const APValue *V = nullptr;
  if (A.getKind() == TemplateArgument::StructuralValue)
    V = &A.getAsStructuralValue();
  else if (A.getKind() == TemplateArgument::Declaration)
    if (const auto *PO = dyn_cast<TemplateParamObjectDecl>(A.getAsDecl()))
      V = &PO->getValue();
  if (!V || !V->isStruct() || V->getStructNumFields() < 1)
    return std::nullopt;
  const APValue &Arr = V->getStructField(0);
  if (!Arr.isArray())
    return std::nullopt;
  std::string S;
  for (unsigned I = 0; I < Arr.getArraySize(); ++I) {
    const APValue &C = I < Arr.getArrayInitializedElts()
                           ? Arr.getArrayInitializedElt(I)
                           : Arr.getArrayFiller();
    if (!C.isInt())
      return std::nullopt;
    std::int64_t Ch = C.getInt().getExtValue();
    if (Ch == 0)
      break;
    S.push_back(static_cast<char>(Ch));
  }
  return S;
}

std::optional<LayoutTextError> checkLayoutText(llvm::StringRef Text) {
  Result<LayoutText> Parsed =
      parse_layout_text(std::string_view(Text.data(), Text.size()));
  if (Parsed)
    return std::nullopt;
  const Error &E = Parsed.error();
  unsigned Position = E.position < 0 ? 0 : static_cast<unsigned>(E.position);
  return LayoutTextError{E.message(), std::min<unsigned>(Position, Text.size())};
}

std::string describeLayoutText(llvm::StringRef Text) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << '"';
  OS.write_escaped(Text);
  OS << '"';
  Result<LayoutText> Parsed =
      parse_layout_text(std::string_view(Text.data(), Text.size()));
  if (Parsed)
    OS << " = " << to_string(*Parsed);
  return Out;
}

} // namespace tf::plugin
