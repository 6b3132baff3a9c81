//===- Diagnostics.cpp - Register tf diagnostics with Clang ---------------===//
//
// Turns the entries of Diagnostics.def into Clang custom diagnostics. Each
// DiagnosticIDs instance uniques custom descriptions itself, so registering on
// every report is cheap and works for every CompilerInstance in the process
// (clangd builds many).
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "clang/Basic/DiagnosticIDs.h"

#include <optional>

using namespace clang;

namespace tf::plugin {
namespace {

struct Entry {
  DiagnosticIDs::Class Class;
  std::optional<diag::Group> Group;
  const char *Message;
};

constexpr DiagnosticIDs::Class Error = DiagnosticIDs::CLASS_ERROR;
constexpr DiagnosticIDs::Class Warning = DiagnosticIDs::CLASS_WARNING;
constexpr DiagnosticIDs::Class Note = DiagnosticIDs::CLASS_NOTE;
constexpr std::nullopt_t NoGroup = std::nullopt;
using enum diag::Group;

const Entry Entries[] = {
#define TF_DIAG(Id, Class, Group, Message) {Class, Group, Message},
#include "Diagnostics.def"
};

diag::Severity defaultSeverity(DiagnosticIDs::Class Class) {
  switch (Class) {
  case DiagnosticIDs::CLASS_ERROR:
    return diag::Severity::Error;
  case DiagnosticIDs::CLASS_WARNING:
    return diag::Severity::Warning;
  default:
    // Clang gives notes the Fatal severity; the class makes them notes.
    return diag::Severity::Fatal;
  }
}

} // namespace

DiagnosticBuilder report(DiagnosticsEngine &Diags, SourceLocation Loc,
                         DiagId Id) {
  const Entry &E = Entries[static_cast<unsigned>(Id)];
  bool IsWarning = E.Class == DiagnosticIDs::CLASS_WARNING;
  DiagnosticIDs::CustomDiagDesc Desc(
      defaultSeverity(E.Class), E.Message, E.Class,
      /*ShowInSystemHeader=*/!IsWarning, /*ShowInSystemMacro=*/!IsWarning,
      E.Group);
  return Diags.Report(Loc, Diags.getDiagnosticIDs()->getCustomDiagID(Desc));
}

} // namespace tf::plugin
