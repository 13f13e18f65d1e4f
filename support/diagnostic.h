// support/diagnostic.h — located diagnostics.
//
// Every error about user input names where it is: a place in a text file
// (`file:line:col`), a node of a model (`model.onnx:node-name`) or an
// instruction of a program (`program:pc N`). The printed form is
//   LOCATION: error: what was expected, what was found
// followed by zero or more `LOCATION: note: ...` lines.
#ifndef ACCELC_SUPPORT_DIAGNOSTIC_H_
#define ACCELC_SUPPORT_DIAGNOSTIC_H_

#include <cstdint>
#include <string>
#include <vector>

namespace accelc::support {

/// Where a diagnostic points. Lines and columns count from 1.
class Location {
 public:
  enum class Kind { kNone, kFile, kNode, kPc };

  Location() = default;
  /// `path:line:col`; line or col 0 omits that part.
  static Location file(std::string path, int line = 0, int col = 0);
  /// `model:node`.
  static Location node(std::string model, std::string node);
  /// `program:pc N` (N counts instructions from 0).
  static Location pc(std::string program, uint64_t pc);

  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  int line() const { return line_; }
  int col() const { return col_; }
  uint64_t pcIndex() const { return pc_; }
  /// The printed form (empty for kNone).
  std::string str() const;

 private:
  Kind kind_ = Kind::kNone;  ///< which of the forms this is
  std::string path_;         ///< file, model or program name
  std::string node_;         ///< node name (kNode)
  int line_ = 0;             ///< 1-based line (kFile)
  int col_ = 0;              ///< 1-based column (kFile)
  uint64_t pc_ = 0;          ///< instruction index (kPc)
};

/// One error with its location and optional notes.
struct Diagnostic {
  Location loc;                ///< where the error is
  std::string message;         ///< lower case, no final period
  struct Note {
    Location loc;              ///< where the note points (may be kNone)
    std::string message;       ///< the note text
  };
  std::vector<Note> notes;     ///< supporting facts, printed after the error

  Diagnostic() = default;
  Diagnostic(Location l, std::string m) : loc(std::move(l)), message(std::move(m)) {}
  Diagnostic& note(Location l, std::string m) {
    notes.push_back({std::move(l), std::move(m)});
    return *this;
  }
  /// "LOC: error: message" then one "LOC: note: ..." line per note.
  std::string str() const;
};

/// Shorthand for building a Diagnostic.
inline Diagnostic error(Location loc, std::string message) {
  return Diagnostic(std::move(loc), std::move(message));
}

/// `s` for a message: bytes that do not print (controls, NUL, non-ASCII)
/// written as \xHH, so that what a file holds is visible.
std::string printable(const std::string& s);

}  // namespace accelc::support

#endif  // ACCELC_SUPPORT_DIAGNOSTIC_H_
