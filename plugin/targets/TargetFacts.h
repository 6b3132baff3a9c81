//===- plugin/targets/TargetFacts.h - Target fact documents ----*- C++ -*-===//
//
// The fact database: every architecture and device document under targets/,
// parsed and validated. An architecture lists capabilities (instruction
// families) and may include other architectures; a device lists capacities and
// rates and names the architectures it implements. Every fact carries a value,
// a unit, an origin and a source note; see docs/targets.md for the schema.
//
// Loading never stops at the first problem: every finding is collected, each
// naming file:line:column and the key path, and returned as one FactError.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TARGETS_TARGETFACTS_H
#define TF_TARGETS_TARGETFACTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tf::targets {

/// The schema strings this loader reads.
inline constexpr llvm::StringLiteral ArchitectureSchema = "tf.architecture/v1";
inline constexpr llvm::StringLiteral DeviceSchema = "tf.device/v1";
/// The string value that marks a fact nobody could find (never a guess).
inline constexpr llvm::StringLiteral UnavailableValue = "unavailable";
/// The environment variable naming a fact tree (after --targets-dir).
inline constexpr llvm::StringLiteral TargetsDirEnvVar = "TF_TARGETS_DIR";

/// How a fact was obtained.
enum class Origin { Vendor, Measured, Cited, Derived, Estimated };
llvm::StringRef originName(Origin O);
/// The origin called \p Name, if any.
std::optional<Origin> parseOrigin(llvm::StringRef Name);

/// Every unit a fact may carry, in documentation order.
llvm::ArrayRef<llvm::StringLiteral> knownUnits();
bool isKnownUnit(llvm::StringRef Unit);

/// A position in a fact document; Line and Column are 1-based, 0 if unknown.
struct SourceLocation {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// One finding of the loader, printed `file:line:col: error: message`.
struct Diagnostic {
  SourceLocation Loc;
  std::string Message;
  std::string str() const;
};

/// All findings of one load. Its message is one diagnostic per line.
class FactError : public llvm::ErrorInfo<FactError> {
public:
  static char ID;
  explicit FactError(std::vector<Diagnostic> Diags) : Diags(std::move(Diags)) {}
  llvm::ArrayRef<Diagnostic> diagnostics() const { return Diags; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::vector<Diagnostic> Diags;
};

/// One fact or capability: `[facts.KEY]` or `[capabilities."KEY"]`.
struct Fact {
  enum class Kind { Integer, Float, Boolean, String, Unavailable };
  std::string Key;
  Kind ValueKind = Kind::Unavailable;
  int64_t Int = 0;
  double Float = 0;
  bool Bool = false;
  std::string Str;
  std::string Unit;
  Origin How = Origin::Vendor;
  std::string Source;
  std::string Note; ///< optional
  SourceLocation Loc;

  bool isAvailable() const { return ValueKind != Kind::Unavailable; }
  /// The value as written for people: `4800000000000`, `true`, `sm_90a`,
  /// `unavailable`.
  std::string valueText() const;
};

enum class DocumentKind { Architecture, Device };
llvm::StringRef kindName(DocumentKind K);

/// One validated fact document.
struct TargetDocument {
  std::string Schema;
  DocumentKind Kind = DocumentKind::Device;
  std::string Id;
  std::string Name;         ///< one-line summary
  std::string Path;         ///< as opened
  std::string RelativePath; ///< relative to the fact tree's root
  SourceLocation Loc;       ///< of `spec.id`
  /// Devices: the architectures implemented. Architectures: those included.
  std::vector<std::string> Architectures;
  std::vector<Fact> Facts;        ///< sorted by key
  std::vector<Fact> Capabilities; ///< sorted by key; architectures only
};

/// A fact of a merged view and the document it came from.
struct MergedFact {
  const Fact *F = nullptr;
  std::string From; ///< the id of the defining document
};

/// A target as consumers see it: a device's own facts plus the facts of its
/// architectures, and the capabilities of those architectures and everything
/// they include (nearest definition wins).
struct MergedTarget {
  const TargetDocument *Doc = nullptr;
  /// The architectures reachable through compatibility, nearest first.
  std::vector<std::string> ArchitectureClosure;
  std::vector<MergedFact> Facts;        ///< sorted by key
  std::vector<MergedFact> Capabilities; ///< sorted by key

  const MergedFact *fact(llvm::StringRef Key) const;
  const MergedFact *capability(llvm::StringRef Key) const;
  bool hasCapability(llvm::StringRef Key) const;
};

/// Every document of one fact tree, validated together.
class FactDatabase {
public:
  /// Loads every `*.toml` under \p Dir (recursively, in path order).
  static llvm::Expected<FactDatabase> loadDirectory(llvm::StringRef Dir);
  /// Loads exactly \p Files; relative paths are shown as given.
  static llvm::Expected<FactDatabase> loadFiles(llvm::ArrayRef<std::string> Files);
  /// Loads documents given as text (\p Name is used in diagnostics).
  static llvm::Expected<FactDatabase>
  loadBuffers(llvm::ArrayRef<std::pair<std::string, std::string>> NamedTexts);

  /// Documents sorted by kind (architectures first), then id.
  llvm::ArrayRef<TargetDocument> documents() const { return Docs; }
  const TargetDocument *find(llvm::StringRef Id) const;
  /// The merged view of a loaded document.
  MergedTarget merge(const TargetDocument &Doc) const;
  /// The ids of all documents, in documents() order.
  std::vector<std::string> ids() const;
  /// The directory this database was loaded from, if any.
  llvm::StringRef root() const { return Root; }

private:
  std::vector<TargetDocument> Docs;
  std::string Root;
  friend class DatabaseBuilder;
};

/// Where the fact tree is read from, and why.
struct TargetsDir {
  enum class Choice { Option, Environment, Default };
  std::string Path;
  Choice Why = Choice::Default;
};
/// The search order: \p OptionValue (`--targets-dir`) if not empty, else the
/// environment variable TF_TARGETS_DIR if set and not empty, else
/// defaultTargetsDir().
TargetsDir resolveTargetsDir(llvm::StringRef OptionValue);
/// The fact tree shipped with tf, found from the binary this code runs in
/// (the plugin tf.so, the tf tool, a test): the data directory's
/// `tf/targets` as seen from the binary's directory, in the build tree and in
/// an installation alike, so a moved or installed plugin finds its facts.
std::string defaultTargetsDir();

} // namespace tf::targets

#endif // TF_TARGETS_TARGETFACTS_H
