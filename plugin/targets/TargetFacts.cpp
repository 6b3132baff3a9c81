//===- plugin/targets/TargetFacts.cpp - Target fact documents -------------===//
//
// Parses and validates targets/**/*.toml with toml++ (no exceptions: parse
// errors come back as toml::parse_result). Every problem becomes a Diagnostic;
// nothing here stops at the first one or aborts.
//
//===----------------------------------------------------------------------===//
#include "TargetFacts.h"
#include "TomlText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

// toml++ 3.3 asserts (TOML_ASSERT_ASSUME) on some malformed input that its
// parser then rejects with a proper error, e.g. a table header `[=x]`. With
// NDEBUG that assertion becomes an optimizer assumption (undefined behaviour
// under clang), without it an abort. Make it a no-op either way; the parser's
// own error path reports the problem.
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_assert(true)
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

#include <charconv>
#include <cmath>
#include <dlfcn.h>
#include <functional>
#include <link.h>

using namespace llvm;

// The fact tree relative to the directory of the binary holding this code
// (plugin/targets/CMakeLists.txt): from the executables' directory (tf, the
// tests) and from the plugin's.
#if !defined(TF_TARGETS_FROM_BINDIR) || !defined(TF_TARGETS_FROM_LIBDIR)
#error "TF_TARGETS_FROM_BINDIR and TF_TARGETS_FROM_LIBDIR must be defined"
#endif

namespace tf::targets {

char FactError::ID = 0;

//===----------------------------------------------------------------------===//
// Vocabulary
//===----------------------------------------------------------------------===//

static constexpr StringLiteral Units[] = {
    // dimensionless and textual
    "bool", "count", "name", "version",
    // amounts of things
    "byte", "SM", "core", "thread", "warp", "CTA", "register",
    // per-container capacities
    "byte/SM", "byte/CTA", "byte/core", "register/SM", "register/CTA",
    "register/thread", "thread/SM", "thread/CTA", "warp/SM", "CTA/SM",
    "CTA/cluster",
    // rates
    "Hz", "byte/s", "flop/s", "op/s", "flop/cycle/core", "op/cycle/core",
    "flop/cycle/SM", "op/cycle/SM",
    // power
    "W",
    // time
    "s",
};

ArrayRef<StringLiteral> knownUnits() { return Units; }

bool isKnownUnit(StringRef Unit) {
  return llvm::is_contained(ArrayRef<StringLiteral>(Units), Unit);
}

static bool isTextUnit(StringRef Unit) {
  return Unit == "name" || Unit == "version";
}

StringRef originName(Origin O) {
  switch (O) {
  case Origin::Vendor:
    return "vendor";
  case Origin::Measured:
    return "measured";
  case Origin::Cited:
    return "cited";
  case Origin::Derived:
    return "derived";
  case Origin::Estimated:
    return "estimated";
  }
  return "vendor";
}

std::optional<Origin> parseOrigin(StringRef Name) {
  for (Origin O : {Origin::Vendor, Origin::Measured, Origin::Cited,
                   Origin::Derived, Origin::Estimated})
    if (originName(O) == Name)
      return O;
  return std::nullopt;
}

StringRef kindName(DocumentKind K) {
  return K == DocumentKind::Architecture ? "architecture" : "device";
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string Diagnostic::str() const {
  std::string S;
  raw_string_ostream OS(S);
  OS << Loc.File;
  if (Loc.Line)
    OS << ':' << Loc.Line << ':' << Loc.Column;
  OS << ": error: " << Message;
  return S;
}

void FactError::log(raw_ostream &OS) const {
  ListSeparator LS("\n");
  for (const Diagnostic &D : Diags)
    OS << LS << D.str();
}

std::error_code FactError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

//===----------------------------------------------------------------------===//
// Facts and merged views
//===----------------------------------------------------------------------===//

std::string Fact::valueText() const {
  switch (ValueKind) {
  case Kind::Integer:
    return std::to_string(Int);
  case Kind::Float: {
    char Buf[64];
    auto R = std::to_chars(Buf, Buf + sizeof(Buf), Float);
    return std::string(Buf, R.ptr);
  }
  case Kind::Boolean:
    return Bool ? "true" : "false";
  case Kind::String:
    return Str;
  case Kind::Unavailable:
    return UnavailableValue.str();
  }
  return "";
}

static const MergedFact *findMerged(const std::vector<MergedFact> &V,
                                    StringRef Key) {
  auto It = llvm::partition_point(
      V, [&](const MergedFact &M) { return StringRef(M.F->Key) < Key; });
  return It != V.end() && It->F->Key == Key ? &*It : nullptr;
}

const MergedFact *MergedTarget::fact(StringRef Key) const {
  return findMerged(Facts, Key);
}

const MergedFact *MergedTarget::capability(StringRef Key) const {
  return findMerged(Capabilities, Key);
}

bool MergedTarget::hasCapability(StringRef Key) const {
  const MergedFact *M = capability(Key);
  return M && M->F->ValueKind == Fact::Kind::Boolean && M->F->Bool;
}

const TargetDocument *FactDatabase::find(StringRef Id) const {
  for (const TargetDocument &D : Docs)
    if (D.Id == Id)
      return &D;
  return nullptr;
}

std::vector<std::string> FactDatabase::ids() const {
  std::vector<std::string> Ids;
  for (const TargetDocument &D : Docs)
    Ids.push_back(D.Id);
  return Ids;
}

MergedTarget FactDatabase::merge(const TargetDocument &Doc) const {
  MergedTarget M;
  M.Doc = &Doc;
  // Breadth-first over compatibility, nearest first.
  std::vector<const TargetDocument *> Closure;
  StringSet<> Seen;
  std::vector<std::string> Queue;
  if (Doc.Kind == DocumentKind::Architecture)
    Queue.push_back(Doc.Id);
  else
    Queue = Doc.Architectures;
  for (size_t I = 0; I < Queue.size(); ++I) {
    if (!Seen.insert(Queue[I]).second)
      continue;
    const TargetDocument *A = find(Queue[I]);
    if (!A || A->Kind != DocumentKind::Architecture)
      continue;
    Closure.push_back(A);
    if (A != &Doc)
      M.ArchitectureClosure.push_back(A->Id);
    llvm::append_range(Queue, A->Architectures);
  }

  StringSet<> FactKeys;
  auto AddFacts = [&](const TargetDocument &D) {
    for (const Fact &F : D.Facts)
      if (FactKeys.insert(F.Key).second)
        M.Facts.push_back({&F, D.Id});
  };
  AddFacts(Doc);
  if (Doc.Kind == DocumentKind::Device)
    for (const std::string &Id : Doc.Architectures)
      if (const TargetDocument *A = find(Id))
        AddFacts(*A);

  StringSet<> CapKeys;
  for (const TargetDocument *A : Closure)
    for (const Fact &F : A->Capabilities)
      if (CapKeys.insert(F.Key).second)
        M.Capabilities.push_back({&F, A->Id});

  auto ByKey = [](const MergedFact &L, const MergedFact &R) {
    return L.F->Key < R.F->Key;
  };
  llvm::sort(M.Facts, ByKey);
  llvm::sort(M.Capabilities, ByKey);
  return M;
}

//===----------------------------------------------------------------------===//
// Parsing and validation
//===----------------------------------------------------------------------===//

static StringRef typeName(const toml::node &N) {
  switch (N.type()) {
  case toml::node_type::table:
    return "table";
  case toml::node_type::array:
    return "array";
  case toml::node_type::string:
    return "string";
  case toml::node_type::integer:
    return "integer";
  case toml::node_type::floating_point:
    return "float";
  case toml::node_type::boolean:
    return "boolean";
  case toml::node_type::date:
    return "date";
  case toml::node_type::time:
    return "time";
  case toml::node_type::date_time:
    return "date-time";
  default:
    return "nothing";
  }
}

static bool isFactKeySegment(StringRef S) {
  return !S.empty() && llvm::all_of(S, [](char C) {
    return isLower(C) || isDigit(C) || C == '_';
  });
}

static bool isCapabilityName(StringRef S) {
  if (S.empty() || S.front() == '.' || S.back() == '.' || S.contains(".."))
    return false;
  return llvm::all_of(S, [](char C) {
    return isLower(C) || isDigit(C) || C == '_' || C == '.' || C == ':';
  });
}

static bool isValidId(StringRef S) {
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, '.');
  if (Parts.size() < 2 || !isLower(S.front()))
    return false;
  return llvm::all_of(Parts, isFactKeySegment);
}

/// A reference from one document to another, checked once all are loaded.
struct Reference {
  std::string Id;
  std::string Field; ///< `compatibility.architectures` or `.includes`
  SourceLocation Loc;
};

class DatabaseBuilder {
public:
  void addText(StringRef Path, StringRef RelativePath, StringRef Text);
  void error(SourceLocation Loc, const Twine &Message) {
    Diags.push_back({std::move(Loc), Message.str()});
  }
  Expected<FactDatabase> finish(std::string Root);

private:
  SourceLocation at(const toml::source_region &R) const {
    return {CurrentFile, R.begin.line, R.begin.column};
  }
  SourceLocation at(const toml::node &N) const { return at(N.source()); }
  SourceLocation at(const toml::key &K) const { return at(K.source()); }

  std::optional<std::string> requireString(const toml::table &T,
                                           StringRef Table, StringRef Key);
  void parseSpec(const toml::table &Spec, TargetDocument &Doc, bool &KindKnown);
  void parseCompatibility(const toml::node *N, TargetDocument &Doc,
                          std::vector<Reference> &Refs);
  void walkFacts(const toml::table &T, const std::string &Prefix,
                 std::vector<Fact> &Out);
  void parseCapabilities(const toml::table &T, std::vector<Fact> &Out);
  void parseFact(const toml::table &T, const std::string &Key,
                 bool IsCapability, std::vector<Fact> &Out);
  void checkCrossReferences();
  void addDocument(StringRef Path, StringRef RelativePath, StringRef Text);

  std::vector<Diagnostic> Diags;
  std::vector<TargetDocument> Docs;
  std::vector<std::vector<Reference>> Refs; // parallel to Docs
  std::string CurrentFile;
};

std::optional<std::string>
DatabaseBuilder::requireString(const toml::table &T, StringRef Table,
                               StringRef Key) {
  const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
  if (!N) {
    error(at(T), "missing key '" + Table + "." + Key + "'");
    return std::nullopt;
  }
  if (!N->is_string()) {
    error(at(*N), "'" + Table + "." + Key + "' must be a string, found " +
                      typeName(*N));
    return std::nullopt;
  }
  return std::string(N->as_string()->get());
}

void DatabaseBuilder::parseSpec(const toml::table &Spec, TargetDocument &Doc,
                                bool &KindKnown) {
  for (auto &&[K, V] : Spec) {
    StringRef Name(K.str());
    if (Name != "schema" && Name != "kind" && Name != "id" && Name != "name")
      error(at(K), "unknown key 'spec." + Name + "'");
  }
  std::optional<std::string> Schema = requireString(Spec, "spec", "schema");
  std::optional<std::string> Kind = requireString(Spec, "spec", "kind");
  std::optional<std::string> Id = requireString(Spec, "spec", "id");
  std::optional<std::string> Name = requireString(Spec, "spec", "name");

  std::optional<DocumentKind> FromSchema, FromKind;
  if (Schema) {
    Doc.Schema = *Schema;
    if (*Schema == ArchitectureSchema)
      FromSchema = DocumentKind::Architecture;
    else if (*Schema == DeviceSchema)
      FromSchema = DocumentKind::Device;
    else
      error(at(*Spec.get("schema")),
            "unsupported schema '" + *Schema + "' (expected '" +
                ArchitectureSchema + "' or '" + DeviceSchema + "')");
  }
  if (Kind) {
    if (*Kind == "architecture")
      FromKind = DocumentKind::Architecture;
    else if (*Kind == "device")
      FromKind = DocumentKind::Device;
    else
      error(at(*Spec.get("kind")), "unknown kind '" + *Kind +
                                       "' (expected 'architecture' or "
                                       "'device')");
  }
  if (FromSchema && FromKind && *FromSchema != *FromKind) {
    // Checking the rest against either kind would only add noise.
    error(at(*Spec.get("kind")), "kind '" + *Kind + "' does not match schema '" +
                                     *Schema + "' (expected '" +
                                     kindName(*FromSchema) + "')");
    return;
  }
  if (FromSchema || FromKind) {
    KindKnown = true;
    Doc.Kind = FromKind ? *FromKind : *FromSchema;
  }
  if (Id) {
    Doc.Id = *Id;
    Doc.Loc = at(*Spec.get("id"));
    if (!isValidId(*Id))
      error(Doc.Loc, "invalid id '" + *Id +
                         "' (expected lowercase 'vendor.name' with letters, "
                         "digits and '_')");
  }
  if (Name)
    Doc.Name = *Name;
}

void DatabaseBuilder::parseCompatibility(const toml::node *N,
                                         TargetDocument &Doc,
                                         std::vector<Reference> &DocRefs) {
  StringRef Field = Doc.Kind == DocumentKind::Device ? "architectures"
                                                      : "includes";
  if (!N) {
    if (Doc.Kind == DocumentKind::Device)
      error(Doc.Loc, "device '" + Doc.Id +
                         "' has no 'compatibility.architectures'");
    return;
  }
  const toml::table *T = N->as_table();
  if (!T) {
    error(at(*N), "'compatibility' must be a table, found " + typeName(*N));
    return;
  }
  for (auto &&[K, V] : *T)
    if (StringRef(K.str()) != Field)
      error(at(K), "unknown key 'compatibility." + StringRef(K.str()) +
                       "' (a " + kindName(Doc.Kind) + " takes 'compatibility." +
                       Field + "')");
  const toml::node *List = T->get(std::string_view(Field.data(), Field.size()));
  if (!List) {
    if (Doc.Kind == DocumentKind::Device)
      error(at(*T), "device '" + Doc.Id +
                        "' has no 'compatibility.architectures'");
    return;
  }
  const toml::array *A = List->as_array();
  if (!A) {
    error(at(*List), "'compatibility." + Field +
                         "' must be an array of strings, found " +
                         typeName(*List));
    return;
  }
  if (A->empty() && Doc.Kind == DocumentKind::Device)
    error(at(*List), "'compatibility.architectures' is empty (a device "
                     "implements at least one architecture)");
  StringSet<> Seen;
  for (const toml::node &E : *A) {
    if (!E.is_string()) {
      error(at(E), "'compatibility." + Field +
                       "' must be an array of strings, found " + typeName(E) +
                       " element");
      continue;
    }
    std::string Id(E.as_string()->get());
    if (!Seen.insert(Id).second) {
      error(at(E), "'" + Id + "' appears twice in 'compatibility." + Field +
                       "'");
      continue;
    }
    Doc.Architectures.push_back(Id);
    DocRefs.push_back({Id, ("compatibility." + Field).str(), at(E)});
  }
}

void DatabaseBuilder::parseFact(const toml::table &T, const std::string &Key,
                                bool IsCapability, std::vector<Fact> &Out) {
  std::string What =
      (IsCapability ? "capability '" : "fact '") + Key + "'";
  Fact F;
  F.Key = Key;
  F.Loc = at(T);
  bool Ok = true;
  for (auto &&[K, V] : T) {
    StringRef Name(K.str());
    if (Name != "value" && Name != "unit" && Name != "origin" &&
        Name != "source" && Name != "note") {
      error(at(K), What + " has unknown key '" + Name + "'");
      Ok = false;
    }
  }
  const toml::node *Value = T.get("value");
  const toml::node *Unit = T.get("unit");
  const toml::node *Orig = T.get("origin");
  const toml::node *Source = T.get("source");
  const toml::node *Note = T.get("note");
  for (auto [N, Name] : {std::pair{Value, "value"}, std::pair{Unit, "unit"},
                         std::pair{Orig, "origin"}, std::pair{Source, "source"}})
    if (!N) {
      error(F.Loc, What + " has no '" + Name + "'");
      Ok = false;
    }

  if (Value) {
    if (auto *I = Value->as_integer()) {
      F.ValueKind = Fact::Kind::Integer;
      F.Int = I->get();
    } else if (auto *D = Value->as_floating_point()) {
      F.ValueKind = Fact::Kind::Float;
      F.Float = D->get();
    } else if (auto *B = Value->as_boolean()) {
      F.ValueKind = Fact::Kind::Boolean;
      F.Bool = B->get();
    } else if (auto *S = Value->as_string()) {
      F.Str = std::string(S->get());
      F.ValueKind = F.Str == UnavailableValue ? Fact::Kind::Unavailable
                                              : Fact::Kind::String;
    } else {
      error(at(*Value), What + ": 'value' must be an integer, float, boolean "
                               "or string, found " +
                               typeName(*Value));
      Ok = false;
      Value = nullptr;
    }
  }
  if (Value && IsCapability && F.ValueKind != Fact::Kind::Boolean) {
    error(at(*Value), What + ": 'value' must be a boolean, found " +
                          (F.ValueKind == Fact::Kind::Unavailable
                               ? StringRef("'unavailable'")
                               : typeName(*Value)));
    Ok = false;
    Value = nullptr;
  }
  if (Value && F.ValueKind == Fact::Kind::String && F.Str.empty()) {
    error(at(*Value), What + " has an empty 'value'");
    Ok = false;
    Value = nullptr;
  }
  if (Value && ((F.ValueKind == Fact::Kind::Integer && F.Int < 0) ||
                (F.ValueKind == Fact::Kind::Float && F.Float < 0))) {
    error(at(*Value), What + " has a negative value");
    Ok = false;
  }
  if (Value && F.ValueKind == Fact::Kind::Float && !std::isfinite(F.Float)) {
    error(at(*Value), What + " has a value that is not finite");
    Ok = false;
  }

  bool UnitOk = false;
  if (Unit) {
    if (!Unit->is_string()) {
      error(at(*Unit), What + ": 'unit' must be a string, found " +
                           typeName(*Unit));
      Ok = false;
    } else {
      F.Unit = std::string(Unit->as_string()->get());
      if (!isKnownUnit(F.Unit)) {
        // Suggest a unit only when it is a near miss ('bytes' for 'byte').
        std::string Hint = " (see 'Units' in docs/targets.md)";
        unsigned Best = std::min<size_t>(3, (F.Unit.size() + 1) / 2);
        for (StringRef U : knownUnits()) {
          unsigned D = StringRef(F.Unit).edit_distance(U, true, Best);
          if (D < Best) {
            Best = D;
            Hint = (" (did you mean '" + U + "'?)").str();
          }
        }
        error(at(*Unit), What + " has unknown unit '" + F.Unit + "'" + Hint);
        Ok = false;
      } else {
        UnitOk = true;
      }
    }
  }
  if (Value && UnitOk && F.isAvailable()) {
    bool IsBool = F.ValueKind == Fact::Kind::Boolean;
    bool IsText = F.ValueKind == Fact::Kind::String;
    StringRef U = F.Unit;
    if (IsBool != (U == "bool") || IsText != isTextUnit(U)) {
      StringRef Has = IsBool ? "a boolean" : IsText ? "a string" : "a number";
      error(at(*Unit), What + " has " + Has + " value but unit '" + U +
                           "' (booleans take 'bool', strings 'name' or "
                           "'version', numbers any other unit)");
      Ok = false;
    }
  }
  if (Orig) {
    if (!Orig->is_string()) {
      error(at(*Orig), What + ": 'origin' must be a string, found " +
                           typeName(*Orig));
      Ok = false;
    } else if (auto O = parseOrigin(Orig->as_string()->get())) {
      F.How = *O;
    } else {
      error(at(*Orig), What + " has unknown origin '" +
                           StringRef(Orig->as_string()->get()) +
                           "' (expected vendor, measured, cited, derived or "
                           "estimated)");
      Ok = false;
    }
  }
  if (Source) {
    if (!Source->is_string()) {
      error(at(*Source), What + ": 'source' must be a string, found " +
                             typeName(*Source));
      Ok = false;
    } else {
      F.Source = std::string(Source->as_string()->get());
      if (StringRef(F.Source).trim().empty()) {
        error(at(*Source), What + " has an empty 'source'");
        Ok = false;
      }
    }
  }
  if (Note) {
    if (!Note->is_string()) {
      error(at(*Note), What + ": 'note' must be a string, found " +
                           typeName(*Note));
      Ok = false;
    } else {
      F.Note = std::string(Note->as_string()->get());
    }
  }
  if (Ok)
    Out.push_back(std::move(F));
}

static bool looksLikeFact(const toml::table &T) {
  for (const char *K : {"value", "unit", "origin", "source", "note"})
    if (T.contains(K))
      return true;
  return T.empty();
}

void DatabaseBuilder::walkFacts(const toml::table &T, const std::string &Prefix,
                                std::vector<Fact> &Out) {
  for (auto &&[K, V] : T) {
    std::string Key = Prefix.empty() ? std::string(K.str())
                                     : Prefix + "." + std::string(K.str());
    if (!isFactKeySegment(K.str())) {
      error(at(K), "invalid fact key '" + Key +
                       "' (each part is lowercase letters, digits and '_')");
      continue;
    }
    const toml::table *Sub = V.as_table();
    if (!Sub) {
      error(at(V), "'facts." + Key +
                       "' must be a table with value, unit, origin and "
                       "source, found " +
                       typeName(V));
      continue;
    }
    if (looksLikeFact(*Sub))
      parseFact(*Sub, Key, /*IsCapability=*/false, Out);
    else
      walkFacts(*Sub, Key, Out);
  }
}

void DatabaseBuilder::parseCapabilities(const toml::table &T,
                                        std::vector<Fact> &Out) {
  for (auto &&[K, V] : T) {
    std::string Key(K.str());
    if (!isCapabilityName(Key)) {
      error(at(K), "invalid capability name '" + Key +
                       "' (write it quoted, e.g. [capabilities.\"cp.async\"]; "
                       "lowercase letters, digits, '_', '.', ':')");
      continue;
    }
    const toml::table *Sub = V.as_table();
    if (!Sub) {
      error(at(V), "'capabilities." + Key +
                       "' must be a table with value, unit, origin and "
                       "source, found " +
                       typeName(V));
      continue;
    }
    if (!looksLikeFact(*Sub)) {
      // [capabilities.cp.async] instead of [capabilities."cp.async"].
      error(at(K), "capability '" + Key +
                       "' has no 'value' (a dotted capability name must be "
                       "quoted: [capabilities.\"a.b\"])");
      continue;
    }
    parseFact(*Sub, Key, /*IsCapability=*/true, Out);
  }
}

void DatabaseBuilder::addText(StringRef Path, StringRef RelativePath,
                              StringRef Text) {
  // toml++ tables iterate in key order; report a document's findings in
  // source order instead.
  size_t FirstDiag = Diags.size();
  addDocument(Path, RelativePath, Text);
  std::stable_sort(Diags.begin() + FirstDiag, Diags.end(),
                   [](const Diagnostic &L, const Diagnostic &R) {
                     return std::tie(L.Loc.Line, L.Loc.Column) <
                            std::tie(R.Loc.Line, R.Loc.Column);
                   });
}

void DatabaseBuilder::addDocument(StringRef Path, StringRef RelativePath,
                                  StringRef Text) {
  CurrentFile = Path.str();
  if (std::optional<OutsideComment> Char = findNonAsciiOutsideComments(Text)) {
    error({CurrentFile, Char->Line, Char->Column},
          "non-ASCII character " +
              formatv("U+{0:X-4}", static_cast<uint32_t>(Char->CodePoint)) +
              " outside a comment; fact documents are ASCII except in "
              "comments");
    return;
  }
  toml::parse_result Result = toml::parse(
      std::string_view(Text.data(), Text.size()), std::string_view(Path.data(), Path.size()));
  if (!Result) {
    const toml::parse_error &E = Result.error();
    error(at(E.source()), "malformed TOML: " + StringRef(E.description()));
    return;
  }
  const toml::table &Root = Result.table();

  TargetDocument Doc;
  Doc.Path = Path.str();
  Doc.RelativePath = RelativePath.str();
  Doc.Loc = {CurrentFile, 1, 1};
  std::vector<Reference> DocRefs;

  const toml::node *Spec = Root.get("spec");
  if (!Spec) {
    error({CurrentFile, 1, 1}, "missing table 'spec'");
    return;
  }
  if (!Spec->is_table()) {
    error(at(*Spec), "'spec' must be a table, found " + typeName(*Spec));
    return;
  }
  bool KindKnown = false;
  parseSpec(*Spec->as_table(), Doc, KindKnown);
  if (!KindKnown || Doc.Id.empty())
    return; // nothing below can be checked without a kind and an id

  for (auto &&[K, V] : Root) {
    StringRef Name(K.str());
    if (Name == "spec" || Name == "compatibility" || Name == "facts")
      continue;
    if (Name == "capabilities" && Doc.Kind == DocumentKind::Architecture)
      continue;
    if (Name == "capabilities")
      error(at(K), "unknown key 'capabilities' (a device takes its "
                   "capabilities from its architectures)");
    else
      error(at(K), "unknown key '" + Name + "'");
  }

  parseCompatibility(Root.get("compatibility"), Doc, DocRefs);

  if (const toml::node *Facts = Root.get("facts")) {
    if (const toml::table *T = Facts->as_table())
      walkFacts(*T, "", Doc.Facts);
    else
      error(at(*Facts), "'facts' must be a table, found " + typeName(*Facts));
  } else if (Doc.Kind == DocumentKind::Device) {
    error(Doc.Loc, "device '" + Doc.Id + "' has no table 'facts'");
  }
  if (Doc.Kind == DocumentKind::Architecture) {
    if (const toml::node *Caps = Root.get("capabilities")) {
      if (const toml::table *T = Caps->as_table())
        parseCapabilities(*T, Doc.Capabilities);
      else
        error(at(*Caps), "'capabilities' must be a table, found " +
                             typeName(*Caps));
    }
  }
  auto ByKey = [](const Fact &L, const Fact &R) { return L.Key < R.Key; };
  llvm::sort(Doc.Facts, ByKey);
  llvm::sort(Doc.Capabilities, ByKey);
  Docs.push_back(std::move(Doc));
  Refs.push_back(std::move(DocRefs));
}

static std::string locText(const SourceLocation &L) {
  return L.File + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Column);
}

void DatabaseBuilder::checkCrossReferences() {
  // Duplicate ids: the later document (in load order) is the error.
  StringMap<size_t> First;
  std::vector<bool> Shadowed(Docs.size(), false);
  for (size_t I = 0; I < Docs.size(); ++I) {
    auto [It, New] = First.try_emplace(Docs[I].Id, I);
    if (!New) {
      error(Docs[I].Loc, "duplicate id '" + Docs[I].Id +
                             "' (first defined at " +
                             locText(Docs[It->second].Loc) + ")");
      Shadowed[I] = true;
    }
  }
  auto Lookup = [&](StringRef Id) -> const TargetDocument * {
    auto It = First.find(Id);
    return It == First.end() ? nullptr : &Docs[It->second];
  };
  std::string KnownArchs;
  {
    ListSeparator LS(", ");
    for (const TargetDocument &D : Docs)
      if (D.Kind == DocumentKind::Architecture && Lookup(D.Id) == &D)
        KnownArchs += (Twine(LS) + D.Id).str();
  }

  bool RefsOk = true;
  for (size_t I = 0; I < Docs.size(); ++I) {
    if (Shadowed[I])
      continue;
    for (const Reference &R : Refs[I]) {
      const TargetDocument *T = Lookup(R.Id);
      if (!T) {
        error(R.Loc, "unknown architecture '" + R.Id + "' in '" + R.Field +
                         "' (known architectures: " +
                         (KnownArchs.empty() ? "none" : KnownArchs) + ")");
        RefsOk = false;
      } else if (T->Kind != DocumentKind::Architecture) {
        error(R.Loc, "'" + R.Id + "' in '" + R.Field +
                         "' is a device, not an architecture");
        RefsOk = false;
      }
    }
  }
  if (!RefsOk)
    return;

  // Include cycles: depth-first from each architecture; report each cycle at
  // the include that closes it, once.
  enum class Mark { None, Active, Done };
  std::vector<Mark> Marks(Docs.size(), Mark::None);
  std::vector<size_t> Stack;
  bool Cycles = false;
  std::function<void(size_t)> Visit = [&](size_t I) {
    Marks[I] = Mark::Active;
    Stack.push_back(I);
    for (const Reference &R : Refs[I]) {
      size_t J = First.lookup(R.Id);
      if (Marks[J] == Mark::Active) {
        std::string Path;
        auto Start = llvm::find(Stack, J);
        for (auto It = Start; It != Stack.end(); ++It)
          Path += Docs[*It].Id + " -> ";
        Path += Docs[J].Id;
        error(R.Loc, "architecture include cycle: " + Path);
        Cycles = true;
      } else if (Marks[J] == Mark::None) {
        Visit(J);
      }
    }
    Stack.pop_back();
    Marks[I] = Mark::Done;
  };
  for (size_t I = 0; I < Docs.size(); ++I)
    if (!Shadowed[I] && Docs[I].Kind == DocumentKind::Architecture &&
        Marks[I] == Mark::None)
      Visit(I);
  if (Cycles)
    return;

  // A device's facts and those of its architectures must not overlap: each
  // number lives in one place.
  for (size_t I = 0; I < Docs.size(); ++I) {
    const TargetDocument &D = Docs[I];
    if (Shadowed[I] || D.Kind != DocumentKind::Device)
      continue;
    StringMap<std::pair<const Fact *, const TargetDocument *>> Owner;
    for (const Fact &F : D.Facts)
      Owner.try_emplace(F.Key, &F, &D);
    for (const std::string &Id : D.Architectures) {
      const TargetDocument *A = Lookup(Id);
      for (const Fact &F : A->Facts) {
        auto [It, New] = Owner.try_emplace(F.Key, &F, A);
        if (New)
          continue;
        const auto &[OtherFact, OtherDoc] = It->second;
        error(OtherDoc == &D ? OtherFact->Loc : F.Loc,
              "fact '" + F.Key + "' of " + kindName(OtherDoc->Kind) + " '" +
                  OtherDoc->Id + "' is also defined by architecture '" + A->Id +
                  "' (" + locText(OtherDoc == &D ? F.Loc : OtherFact->Loc) +
                  "); device '" + D.Id + "' would see both");
      }
    }
  }
}

Expected<FactDatabase> DatabaseBuilder::finish(std::string Root) {
  checkCrossReferences();
  if (!Diags.empty())
    return make_error<FactError>(std::move(Diags));
  FactDatabase DB;
  DB.Root = std::move(Root);
  DB.Docs = std::move(Docs);
  llvm::stable_sort(DB.Docs, [](const TargetDocument &L,
                                const TargetDocument &R) {
    return std::tie(L.Kind, L.Id) < std::tie(R.Kind, R.Id);
  });
  return DB;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

static void addFile(DatabaseBuilder &B, StringRef Path, StringRef Relative) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    B.error({Path.str(), 0, 0},
            "cannot read file: " + Buf.getError().message());
    return;
  }
  B.addText(Path, Relative, (*Buf)->getBuffer());
}

Expected<FactDatabase> FactDatabase::loadDirectory(StringRef Dir) {
  DatabaseBuilder B;
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Dir, Status)) {
    B.error({Dir.str(), 0, 0},
            "cannot open targets directory: " + EC.message());
    return B.finish(Dir.str());
  }
  if (!sys::fs::is_directory(Status)) {
    B.error({Dir.str(), 0, 0}, "cannot open targets directory: not a directory");
    return B.finish(Dir.str());
  }
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    StringRef P = It->path();
    if (sys::path::extension(P) != ".toml" || sys::fs::is_directory(P))
      continue;
    Files.push_back(P.str());
  }
  if (EC) {
    B.error({Dir.str(), 0, 0}, "cannot list targets directory: " + EC.message());
    return B.finish(Dir.str());
  }
  llvm::sort(Files);
  if (Files.empty()) {
    B.error({Dir.str(), 0, 0}, "no fact documents (*.toml) in the targets "
                               "directory");
    return B.finish(Dir.str());
  }
  for (const std::string &F : Files) {
    StringRef Rel(F);
    if (!Rel.consume_front(Dir))
      Rel = F;
    Rel = Rel.ltrim("/");
    addFile(B, F, Rel);
  }
  return B.finish(Dir.str());
}

Expected<FactDatabase> FactDatabase::loadFiles(ArrayRef<std::string> Files) {
  DatabaseBuilder B;
  for (const std::string &F : Files)
    addFile(B, F, sys::path::filename(F));
  return B.finish("");
}

Expected<FactDatabase> FactDatabase::loadBuffers(
    ArrayRef<std::pair<std::string, std::string>> NamedTexts) {
  DatabaseBuilder B;
  for (const auto &[Name, Text] : NamedTexts)
    B.addText(Name, Name, Text);
  return B.finish("");
}

/// The binary holding this code: a shared object (the plugin, loaded by
/// clang) by the path it was loaded from, or the executable.
struct ThisBinary {
  std::string Path;
  bool IsSharedObject;
};

static ThisBinary thisBinary() {
  static const char Anchor = 0;
  Dl_info Info;
  link_map *Map = nullptr;
  // The executable's link map has an empty name; a shared object's is the
  // path it was opened by, relative to the unchanged working directory.
  if (dladdr1(&Anchor, &Info, reinterpret_cast<void **>(&Map),
              RTLD_DL_LINKMAP) &&
      Map && Map->l_name && *Map->l_name) {
    SmallString<256> Path(Map->l_name);
    sys::fs::make_absolute(Path);
    return {std::string(Path), true};
  }
  return {sys::fs::getMainExecutable(nullptr, const_cast<char *>(&Anchor)),
          false};
}

std::string defaultTargetsDir() {
  ThisBinary Binary = thisBinary();
  // Symbolic links resolved: an installation linked into another prefix
  // keeps its facts beside its binaries.
  SmallString<256> Real;
  if (sys::fs::real_path(Binary.Path, Real))
    Real = Binary.Path;
  SmallString<256> Dir(sys::path::parent_path(Real));
  sys::path::append(Dir, Binary.IsSharedObject ? TF_TARGETS_FROM_LIBDIR
                                               : TF_TARGETS_FROM_BINDIR);
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return std::string(Dir);
}

TargetsDir resolveTargetsDir(StringRef OptionValue) {
  if (!OptionValue.empty())
    return {OptionValue.str(), TargetsDir::Choice::Option};
  if (std::optional<std::string> Env =
          sys::Process::GetEnv(TargetsDirEnvVar.str());
      Env && !Env->empty())
    return {*Env, TargetsDir::Choice::Environment};
  return {defaultTargetsDir(), TargetsDir::Choice::Default};
}

} // namespace tf::targets
