//===- DiagnosticLog.h - Diagnostics kept as data ---------------*- C++ -*-===//
//
// What a translation unit's diagnostics -- tf's and Clang's -- said, kept as
// records rather than text: level, stable code, message, location, notes,
// fix-its and, for tf's own diagnostics, each message argument by its name
// in Diagnostics.def (operand, parameter, expected, found, reason, ...).
// Two writers read the same records: the SARIF log of
// `-fplugin-arg-tf-sarif=FILE` (Sarif.h) and the "diagnostics" of every
// query's JSON document (plugin/cli/QueryOutput.h), so an agent reads one
// form of a mistake wherever it asks.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_DIAGNOSTICLOG_H
#define TF_PLUGIN_DIAGNOSTICLOG_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class LangOptions;
} // namespace clang

namespace tf::plugin {

/// How severe a diagnostic is; remarks, and a note with nothing before it,
/// are notes.
enum class DiagnosticLevel { Note, Warning, Error };

/// "note", "warning", "error" (SARIF's and the queries' names).
llvm::StringRef levelName(DiagnosticLevel Level);

/// A span of one file: 1-based lines and columns in Unicode code points,
/// EndColumn one past the last character.
struct DiagnosticLocation {
  /// The file as the compiler names it (the spelling of the command line,
  /// or of the #include that reached it).
  std::string File;
  unsigned StartLine = 0, StartColumn = 0, EndLine = 0, EndColumn = 0;
};

/// Replace the text of Deleted with Inserted.
struct DiagnosticEdit {
  DiagnosticLocation Deleted;
  std::string Inserted;
};

/// The fix-its of one diagnostic or note, applied together; described by
/// that diagnostic's message.
struct DiagnosticFix {
  std::string Description;
  std::vector<DiagnosticEdit> Edits;
};

/// A message argument of a tf diagnostic under its Diagnostics.def name.
struct DiagnosticArgument {
  std::string Name;
  std::string Value;
};

struct DiagnosticNote {
  std::optional<DiagnosticLocation> Location;
  std::string Message;
  std::vector<DiagnosticArgument> Arguments;
};

/// One error, warning or remark with its notes.
struct RecordedDiagnostic {
  DiagnosticLevel Level = DiagnosticLevel::Error;
  /// The stable code: "tf:repeat-mismatch" for tf's (the [tf:...] suffix,
  /// which Message drops); "clang:-W<option>" for a Clang warning a flag
  /// controls, else "clang:" and Clang's numeric id.
  std::string Code;
  std::string Message;
  std::optional<DiagnosticLocation> Location;
  std::vector<DiagnosticArgument> Arguments;
  std::vector<DiagnosticNote> Notes;
  std::vector<DiagnosticFix> Fixes;
};

/// What is known of a code beyond one use: Diagnostics.def's name and
/// message template for tf's, Clang's format string and default mapping
/// for Clang's (SARIF's rules).
struct DiagnosticRule {
  std::string Code;
  /// Diagnostics.def's id ("err_tf_repeat_mismatch"); empty for Clang's.
  std::string Name;
  std::string Template;
  DiagnosticLevel DefaultLevel = DiagnosticLevel::Error;
  /// False for a Clang warning that only a flag turns on.
  bool EnabledByDefault = true;
};

/// Records diagnostics as a DiagnosticConsumer sees them.
class DiagnosticLog {
public:
  /// Adds \p Info, reported while compiling with \p LangOpts (which tell
  /// where a token ends): a note joins the last diagnostic recorded;
  /// ignored diagnostics are dropped.
  void record(clang::DiagnosticsEngine::Level Level,
              const clang::Diagnostic &Info,
              const clang::LangOptions &LangOpts);

  llvm::ArrayRef<RecordedDiagnostic> diagnostics() const { return Records; }
  /// The rules of the codes recorded, in the order of first use.
  llvm::ArrayRef<DiagnosticRule> rules() const { return Rules; }
  /// The index in rules() of \p Code, which was recorded.
  unsigned ruleIndex(llvm::StringRef Code) const {
    return RuleIndex.lookup(Code);
  }

private:
  std::string ruleFor(const clang::Diagnostic &Info, std::string &Message,
                      DiagnosticLevel Level,
                      std::vector<DiagnosticArgument> &Arguments);

  std::vector<RecordedDiagnostic> Records;
  std::vector<DiagnosticRule> Rules;
  llvm::StringMap<unsigned> RuleIndex;
};

/// Writes \p D as the object of the queries' "diagnostics" arrays
/// (docs/schemas/diagnostics.schema.json): {"level", "code", "message",
/// "location", "arguments", "notes", "fixes"}; files as \p D names them.
void diagnosticJson(llvm::json::OStream &J, const RecordedDiagnostic &D);

} // namespace tf::plugin

#endif // TF_PLUGIN_DIAGNOSTICLOG_H
