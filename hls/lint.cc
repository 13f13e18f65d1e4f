// hls/lint.cc — the Vitis HLS coding rules on clang's JSON AST.
//
// The AST's locations give a byte offset on every node but name the file only
// where it changes from the node printed before, so the walk carries the
// current file along in print order; line and column come from the offset in
// the file's own text. Pragmas are not in the AST (clang drops unknown ones):
// they are found in the text and matched to the loops and functions by offset.
#include "hls/lint.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace accelc::hls {

using nlohmann::json;
using support::error;
using support::Location;
using support::Status;

namespace {

/// n[key][sub] as a string, "" where either is missing.
std::string field(const json& n, const char* key, const char* sub) {
  if (!n.is_object() || !n.contains(key) || !n[key].is_object()) return "";
  return n[key].value(sub, "");
}

/// The kind of node `n`, "" for a null child.
std::string kindOf(const json& n) { return n.is_object() ? n.value("kind", "") : ""; }

/// [begin, end) byte offsets in the linted file.
struct Range {
  int64_t begin = -1, end = -1;
  bool contains(int64_t at) const { return at >= begin && at < end; }
};

/// What the walk gathers from the linted file.
struct Facts {
  std::vector<std::pair<int64_t, std::string>> violations;  ///< offset, message
  std::set<std::string> constants;                          ///< ids of constant declarations
  std::set<std::string> defined;                            ///< functions with a body here
  std::map<std::string, std::vector<std::pair<std::string, int64_t>>> calls;  ///< caller -> (callee, offset), by name
  struct Loop {
    Range body;
    int64_t at = 0;
    bool constantBound = false;
  };
  std::vector<Loop> loops;
  struct Param {
    std::string name;
    int64_t at = 0;
  };
  Range topBody;
  std::vector<Param> topParams;
};

class Walker {
 public:
  Walker(std::string file, std::string top, Facts& f) : file_(std::move(file)), top_(std::move(top)), f_(f) {}

  void walk(const json& n, const std::string& function) {
    const int64_t at = offsetOf(n);
    const bool here = current_ == file_;
    const std::string kind = kindOf(n);
    std::string inFunction = function;
    if (here) inspect(n, kind, at, function);
    if (kind == "FunctionDecl" && n.contains("inner")) inFunction = n.value("name", "");
    if (n.is_object() && n.contains("inner"))
      for (const json& c : n["inner"]) walk(c, inFunction);
  }

 private:
  /// Follows the file names in print order; the node's own offset.
  int64_t offsetOf(const json& n) {
    int64_t at = -1;
    if (!n.is_object()) return at;
    for (const char* key : {"loc", "range"}) {
      if (!n.contains(key)) continue;
      const json& l = n[key];
      for (const json* part : {&l, l.contains("begin") ? &l["begin"] : nullptr, l.contains("end") ? &l["end"] : nullptr}) {
        if (!part) continue;
        const json& p = part->contains("expansionLoc") ? (*part)["expansionLoc"] : *part;
        if (p.contains("file")) current_ = p["file"].get<std::string>();
        if (at < 0 && p.contains("offset")) at = p["offset"].get<int64_t>();
      }
    }
    return at;
  }

  static int64_t beginOf(const json& n) {
    if (!n.contains("range") || !n["range"].contains("begin")) return -1;
    const json& b = n["range"]["begin"].contains("expansionLoc") ? n["range"]["begin"]["expansionLoc"] : n["range"]["begin"];
    return b.value("offset", int64_t{-1});
  }

  static int64_t endOf(const json& n) {
    if (!n.contains("range") || !n["range"].contains("end")) return -1;
    const json& e = n["range"]["end"].contains("expansionLoc") ? n["range"]["end"]["expansionLoc"] : n["range"]["end"];
    return e.value("offset", int64_t{-1}) + e.value("tokLen", int64_t{0});
  }

  void inspect(const json& n, const std::string& kind, int64_t at, const std::string& function) {
    if (kind == "CXXNewExpr" || kind == "CXXDeleteExpr")
      f_.violations.push_back({at, "no dynamic memory: '" + std::string(kind == "CXXNewExpr" ? "new" : "delete") + "'"});
    if (kind == "VarDecl" && (n.value("constexpr", false) || field(n, "type", "qualType").rfind("const ", 0) == 0))
      f_.constants.insert(n.value("id", ""));
    if (kind == "EnumConstantDecl" || kind == "NonTypeTemplateParmDecl") f_.constants.insert(n.value("id", ""));
    if (kind == "VarDecl" || kind == "FieldDecl" || kind == "ParmVarDecl") checkType(n, at);
    if (kind == "FunctionDecl" && n.contains("inner")) function_(n, at);
    if (kind == "DeclRefExpr" && n.contains("referencedDecl")) reference(n, at, function);
    if (kind == "ForStmt" || kind == "WhileStmt" || kind == "DoStmt") loop(n, kind, at);
  }

  void checkType(const json& n, int64_t at) {
    static const std::regex kStl(
        R"(std::(__1::)?(vector|list|forward_list|deque|map|multimap|set|multiset|unordered_map|unordered_set|basic_string|string|queue|stack|priority_queue)\b)");
    const std::string type = field(n, "type", "qualType");
    std::smatch m;
    if (std::regex_search(type, m, kStl))
      f_.violations.push_back({at, "no STL containers: '" + n.value("name", "") + "' is a std::" + m[2].str()});
  }

  void function_(const json& n, int64_t at) {
    f_.defined.insert(n.value("name", ""));
    if (n.value("name", "") != top_) return;
    for (const json& c : n["inner"]) {
      if (kindOf(c) == "ParmVarDecl") f_.topParams.push_back({c.value("name", ""), offsetOfParam(c, at)});
      if (kindOf(c) == "CompoundStmt") f_.topBody = {beginOf(c), endOf(c)};
    }
  }

  static int64_t offsetOfParam(const json& p, int64_t fallback) {
    return p.contains("loc") && p["loc"].contains("offset") ? p["loc"]["offset"].get<int64_t>() : fallback;
  }

  void reference(const json& n, int64_t at, const std::string& function) {
    const std::string name = field(n, "referencedDecl", "name"), kind = field(n, "referencedDecl", "kind");
    if (kind == "FunctionDecl" && (name == "malloc" || name == "calloc" || name == "realloc" || name == "free"))
      f_.violations.push_back({at, "no dynamic memory: '" + name + "'"});
    if (kind == "FunctionDecl" && !function.empty()) f_.calls[function].push_back({name, at});
  }

  /// A loop's bound is constant when its condition compares against nothing but
  /// literals and constant declarations (the loop variable aside).
  void loop(const json& n, const std::string& kind, int64_t at) {
    Facts::Loop l;
    l.at = at;
    const json* body = nullptr;
    const json inner = n.value("inner", json::array());
    for (const json& c : inner)
      if (kindOf(c) == "CompoundStmt") body = &c;
    if (body) l.body = {beginOf(*body), endOf(*body)};
    if (kind == "ForStmt" && inner.size() > 2) {
      // ForStmt's children: init, condition variable, condition, increment, body (empty where absent).
      const json& cond = inner[2];
      std::string loopVar;
      if (kindOf(inner[0]) == "DeclStmt" && inner[0].contains("inner") && !inner[0]["inner"].empty())
        loopVar = inner[0]["inner"][0].value("id", "");
      l.constantBound = kindOf(cond) == "BinaryOperator" && constantSides(cond, loopVar);
    }
    f_.loops.push_back(l);
  }

  bool constantSides(const json& e, const std::string& loopVar) const {
    const std::string kind = kindOf(e);
    if (kind == "DeclRefExpr") {
      const std::string id = field(e, "referencedDecl", "id");
      return id == loopVar || f_.constants.count(id) || field(e, "referencedDecl", "kind") == "EnumConstantDecl";
    }
    if (kind == "CallExpr" || kind == "CXXMemberCallExpr") return false;
    if (!e.is_object()) return true;
    for (const json& c : e.value("inner", json::array()))
      if (!constantSides(c, loopVar)) return false;
    return true;
  }

  std::string file_, top_, current_;
  Facts& f_;
};

/// The byte offsets of `#pragma HLS <word>` lines (case-insensitive), and their text.
std::vector<std::pair<int64_t, std::string>> pragmas(const std::string& text, const std::string& word) {
  const std::regex re("^[ \\t]*#[ \\t]*pragma[ \\t]+HLS[ \\t]+" + word + "\\b([^\\n]*)", std::regex::icase | std::regex::multiline);
  std::vector<std::pair<int64_t, std::string>> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back({it->position(0), (*it)[1].str()});
  return out;
}

void checkLoops(const std::string& text, Facts& f) {
  const auto counts = pragmas(text, "loop_tripcount");
  for (const Facts::Loop& l : f.loops) {
    if (l.constantBound) continue;
    bool found = false;
    for (const auto& [at, args] : counts) {
      if (!l.body.contains(at)) continue;
      bool nested = false;
      for (const Facts::Loop& m : f.loops) nested = nested || (m.at > l.at && l.body.contains(m.at) && m.body.contains(at));
      found = found || !nested;
    }
    if (!found)
      f.violations.push_back({l.at, "a loop whose bound is not a constant needs '#pragma HLS loop_tripcount' in its body"});
  }
}

void checkInterfaces(const std::string& text, const std::string& top, Facts& f) {
  if (top.empty()) return;
  if (f.topBody.begin < 0) {
    f.violations.push_back({-1, "the top function '" + top + "' is not defined in this file"});
    return;
  }
  const auto ifaces = pragmas(text, "interface");
  for (const Facts::Param& p : f.topParams) {
    bool bound = false;
    const std::regex port("\\bport[ \\t]*=[ \\t]*" + p.name + "\\b", std::regex::icase);
    for (const auto& [at, args] : ifaces) bound = bound || (f.topBody.contains(at) && std::regex_search(args, port));
    if (!bound)
      f.violations.push_back({p.at, "top-level argument '" + p.name + "' has no '#pragma HLS INTERFACE ... port=" + p.name + "'"});
  }
}

/// A call that closes a cycle among the file's functions (by name: a call
/// may name a declaration before the definition).
void checkRecursion(Facts& f) {
  std::map<std::string, int> state;  // 0 new, 1 on the path, 2 done
  std::function<void(const std::string&)> visit = [&](const std::string& fn) {
    state[fn] = 1;
    for (const auto& [callee, at] : f.calls[fn]) {
      if (!f.defined.count(callee)) continue;
      if (state[callee] == 1)
        f.violations.push_back({at, "no recursion: '" + fn + "' calls '" + callee + "', which leads back to it"});
      else if (state[callee] == 0)
        visit(callee);
    }
    state[fn] = 2;
  };
  for (const std::string& fn : f.defined)
    if (state[fn] == 0) visit(fn);
}

Location locationAt(const std::string& path, const std::string& text, int64_t at) {
  int line = 1, col = 1;
  for (int64_t i = 0; i < at && i < static_cast<int64_t>(text.size()); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return Location::file(path, line, col);
}

}  // namespace

Status lintHls(const std::string& path, const std::string& top, const std::vector<std::string>& includes) {
  std::ifstream in(path);
  if (!in) return error(Location::file(path), "cannot read the source");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::string cmd = "clang++-14 -fsyntax-only -std=c++14 -Xclang -ast-dump=json";
  for (const std::string& dir : includes) cmd += " -I'" + dir + "'";
  cmd += " '" + path + "' 2>/dev/null";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char chunk[1 << 16];
    for (size_t n; (n = fread(chunk, 1, sizeof chunk, p)) > 0;) out.append(chunk, n);
    if (pclose(p) != 0) out.clear();
  }
  if (out.empty()) return error(Location::file(path), "clang++-14 could not parse the source (run it with -fsyntax-only to see why)");
  const json ast = json::parse(out, nullptr, false);
  if (ast.is_discarded()) return error(Location::file(path), "clang++-14 printed an AST that is not JSON");
  Facts f;
  try {
    Walker(path, top, f).walk(ast, "");
  } catch (const json::exception& e) {  // a shape of the AST this walk does not know
    return error(Location::file(path), std::string("clang++-14's AST has an unexpected shape: ") + e.what());
  }
  checkLoops(text, f);
  checkInterfaces(text, top, f);
  checkRecursion(f);
  if (f.violations.empty()) return Status::ok();
  const auto first = std::min_element(f.violations.begin(), f.violations.end());
  return error(first->first < 0 ? Location::file(path) : locationAt(path, text, first->first), "HLS rule: " + first->second);
}

}  // namespace accelc::hls
