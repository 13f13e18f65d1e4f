// support/diagnostic.cc — printing locations and diagnostics.
#include "support/diagnostic.h"

namespace accelc::support {

Location Location::file(std::string path, int line, int col) {
  Location l;
  l.kind_ = Kind::kFile;
  l.path_ = std::move(path);
  l.line_ = line;
  l.col_ = col;
  return l;
}

Location Location::node(std::string model, std::string node) {
  Location l;
  l.kind_ = Kind::kNode;
  l.path_ = std::move(model);
  l.node_ = std::move(node);
  return l;
}

Location Location::pc(std::string program, uint64_t pc) {
  Location l;
  l.kind_ = Kind::kPc;
  l.path_ = std::move(program);
  l.pc_ = pc;
  return l;
}

std::string Location::str() const {
  switch (kind_) {
    case Kind::kNone:
      return "";
    case Kind::kFile: {
      std::string s = path_;
      if (line_ > 0) s += ":" + std::to_string(line_);
      if (line_ > 0 && col_ > 0) s += ":" + std::to_string(col_);
      return s;
    }
    case Kind::kNode:
      return path_ + ":" + node_;
    case Kind::kPc:
      return path_ + ":pc " + std::to_string(pc_);
  }
  return "";
}

static std::string line(const Location& loc, const char* level, const std::string& msg) {
  std::string where = loc.str();
  return (where.empty() ? std::string() : where + ": ") + level + ": " + msg;
}

std::string Diagnostic::str() const {
  std::string s = line(loc, "error", message);
  for (const Note& n : notes) s += "\n" + line(n.loc, "note", n.message);
  return s;
}

std::string printable(const std::string& s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace accelc::support
