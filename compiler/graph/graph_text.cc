// compiler/graph/graph_text.cc — printing and parsing the Graph IR text form.
#include "compiler/graph/graph_text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

namespace accelc::compiler {

using support::Expected;
using support::Status;

namespace {

// ---------------------------------------------------------------- printing

std::string quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

std::string floatText(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  return buf;
}

std::string hexBytes(const std::vector<uint8_t>& b) {
  static const char* kHex = "0123456789abcdef";
  std::string s = "hex:";
  for (uint8_t x : b) s += kHex[x >> 4], s += kHex[x & 15];
  return s;
}

std::string typeText(support::DType t, const Shape& s) {
  std::string r = std::string(support::dtypeName(t)) + "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

std::string ints(const runtime::Ints& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string tensorText(const Tensor& t, const PrintOptions& o) {
  return "tensor(" + typeText(t.dtype(), t.shape()) + ", " +
         (o.elideConstants ? "<" + std::to_string(t.bytes().size()) + " bytes>" : hexBytes(t.bytes())) + ")";
}

/// Appends `name=value` for every attribute field.
struct AttrPrinter {
  std::string out;        ///< text so far
  const PrintOptions& o;  ///< elision
  void sep(const char* n) { out += std::string(out.empty() ? "" : ", ") + n + "="; }
  void operator()(const char* n, int64_t v) { sep(n), out += std::to_string(v); }
  void operator()(const char* n, float v) { sep(n), out += floatText(v); }
  void operator()(const char* n, runtime::Ints& v) { sep(n), out += ints(v); }
  void operator()(const char* n, support::DType& v) { sep(n), out += support::dtypeName(v); }
  template <typename E, typename = std::enable_if_t<runtime::IsAttrEnum<E>::value>>
  void operator()(const char* n, E& v) {
    sep(n), out += runtime::enumName(v);
  }
  void operator()(const char* n, Tensor& v) { sep(n), out += tensorText(v, o); }
};

std::string valueDecl(const Value& v) {
  std::string s = quote(v.name) + " : " + typeText(v.dtype, v.shape);
  if (!v.quant.empty()) {
    std::string sc = "[", zp = "[";
    for (size_t i = 0; i < v.quant.scale.size(); ++i) sc += (i ? "," : "") + floatText(v.quant.scale[i]);
    for (size_t i = 0; i < v.quant.zeroPoint.size(); ++i) zp += (i ? "," : "") + std::to_string(v.quant.zeroPoint[i]);
    s += " quant(scale=" + sc + "], zero_point=" + zp + "], axis=" + std::to_string(v.quant.axis) +
         ", dtype=" + support::dtypeName(v.quant.dtype) + ")";
  }
  return s;
}

}  // namespace

std::string printGraph(const Graph& g, const PrintOptions& o) {
  std::ostringstream out;
  out << "graph " << quote(g.model) << "\n";
  for (int id : g.inputs) out << "input " << valueDecl(g.values[id]) << "\n";
  for (const Value& v : g.values)
    if (v.constant)
      out << "const " << valueDecl(v) << " = "
          << (o.elideConstants ? "<" + std::to_string(v.constant->bytes().size()) + " bytes>" : hexBytes(v.constant->bytes()))
          << "\n";
  for (const Node& n : g.nodes) {
    out << "node " << quote(n.name) << " " << runtime::opInfo(n.kind).name << "(";
    for (size_t i = 0; i < n.inputs.size(); ++i)
      out << (i ? ", " : "") << (n.inputs[i] < 0 ? "_" : quote(g.values[n.inputs[i]].name));
    out << ") -> (";
    for (size_t i = 0; i < n.outputs.size(); ++i) out << (i ? ", " : "") << valueDecl(g.values[n.outputs[i]]);
    AttrPrinter p{"", o};
    runtime::Attrs attrs = n.attrs;
    std::visit([&](auto& a) { a.visitFields(p); }, attrs);
    out << ")" << (p.out.empty() ? "" : " {" + p.out + "}") << "\n";
  }
  for (int id : g.outputs) out << "output " << quote(g.values[id].name) << "\n";
  return out.str();
}

namespace {

// ---------------------------------------------------------------- parsing

/// A token: a quoted string, a word (letters, digits, . - _ : +), or punctuation.
struct Tok {
  enum Kind { kStr, kWord, kPunct, kEnd } kind = kEnd;
  std::string text;  ///< contents (unquoted for strings)
  int line = 0, col = 0;
};

class Parser {
 public:
  Parser(const std::string& text, std::string path) : path_(std::move(path)) { lex(text); }
  Expected<Graph> run();

 private:
  void lex(const std::string& t);
  const Tok& peek() const { return toks_[pos_]; }
  Tok next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  support::Diagnostic err(const Tok& t, const std::string& what) const {
    return support::error(support::Location::file(path_, t.line, t.col),
                          "expected " + what + ", found " + (t.kind == Tok::kEnd ? "end of file" : "'" + t.text + "'"));
  }
  Status expect(const char* punct);
  bool accept(const char* punct);
  Expected<std::string> str();
  Expected<std::string> word();
  Expected<int64_t> integer();
  Expected<runtime::Ints> intList();
  Expected<std::vector<uint8_t>> hex();
  Status type(support::DType& dt, Shape& shape);
  Status valueDecl(Graph& g, int& id);
  Status node(Graph& g);
  Status attrs(runtime::Attrs& a);
  Expected<int> ref(const Graph& g);

  std::string path_;       ///< file name for locations
  std::vector<Tok> toks_;  ///< all tokens, ending with kEnd
  size_t pos_ = 0;         ///< next token
};

void Parser::lex(const std::string& t) {
  int line = 1, col = 1;
  size_t i = 0;
  auto adv = [&](size_t n) {
    for (size_t k = 0; k < n; ++k, ++i) {
      if (t[i] == '\n') ++line, col = 1;
      else ++col;
    }
  };
  while (i < t.size()) {
    char c = t[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      adv(1);
      continue;
    }
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') adv(1);
      continue;
    }
    Tok tok;
    tok.line = line, tok.col = col;
    if (c == '"') {
      tok.kind = Tok::kStr;
      adv(1);
      while (i < t.size() && t[i] != '"') {
        if (t[i] == '\\' && i + 1 < t.size()) adv(1);
        tok.text += t[i];
        adv(1);
      }
      adv(1);
    } else if (c == '-' && i + 1 < t.size() && t[i + 1] == '>') {
      tok.kind = Tok::kPunct, tok.text = "->";
      adv(2);
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '+') {
      tok.kind = Tok::kWord;  // ':' belongs to a word only in `hex:`
      while (i < t.size() && t[i] != '\0' &&
             (std::isalnum(static_cast<unsigned char>(t[i])) || std::strchr("-._+", t[i]) ||
              (t[i] == ':' && tok.text == "hex")) &&
             !(t[i] == '-' && i + 1 < t.size() && t[i + 1] == '>')) {
        tok.text += t[i];
        adv(1);
      }
    } else {
      tok.kind = Tok::kPunct, tok.text = std::string(1, c);
      adv(1);
    }
    toks_.push_back(tok);
  }
  Tok end;
  end.line = line, end.col = col;
  toks_.push_back(end);
}

Status Parser::expect(const char* p) {
  if (peek().kind == Tok::kPunct && peek().text == p) {
    next();
    return Status::ok();
  }
  return err(peek(), std::string("'") + p + "'");
}

bool Parser::accept(const char* p) {
  if (peek().kind != Tok::kPunct || peek().text != p) return false;
  next();
  return true;
}

Expected<std::string> Parser::str() {
  if (peek().kind != Tok::kStr) return err(peek(), "a quoted name");
  return next().text;
}

Expected<std::string> Parser::word() {
  if (peek().kind != Tok::kWord) return err(peek(), "a word");
  return next().text;
}

Expected<int64_t> Parser::integer() {
  const Tok t = peek();
  ACCELC_ASSIGN_OR_RETURN(std::string w, word());
  try {
    size_t n = 0;
    long long v = std::stoll(w, &n, 10);
    if (n == w.size()) return static_cast<int64_t>(v);
  } catch (...) {
  }
  return err(t, "an integer");
}

Expected<runtime::Ints> Parser::intList() {
  runtime::Ints v;
  ACCELC_TRY(expect("["));
  while (!accept("]")) {
    if (!v.empty()) ACCELC_TRY(expect(","));
    ACCELC_ASSIGN_OR_RETURN(int64_t x, integer());
    v.push_back(x);
  }
  return v;
}

Expected<std::vector<uint8_t>> Parser::hex() {
  const Tok t = peek();
  ACCELC_ASSIGN_OR_RETURN(std::string w, word());
  if (w.rfind("hex:", 0) != 0 || w.size() % 2) return err(t, "hex:<bytes>");
  std::vector<uint8_t> b;
  for (size_t i = 4; i < w.size(); i += 2) {
    auto nib = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    int hi = nib(w[i]), lo = nib(w[i + 1]);
    if (hi < 0 || lo < 0) return err(t, "hex digits");
    b.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return b;
}

Status Parser::type(support::DType& dt, Shape& shape) {
  const Tok t = peek();
  ACCELC_ASSIGN_OR_RETURN(std::string w, word());
  auto d = support::parseDType(w);
  if (!d) return err(t, "a dtype (" + support::dtypeNames() + ")");
  dt = *d;
  ACCELC_ASSIGN_OR_RETURN(shape, intList());
  return Status::ok();
}

Status Parser::valueDecl(Graph& g, int& id) {
  const Tok at = peek();
  Value v;
  ACCELC_ASSIGN_OR_RETURN(v.name, str());
  if (g.findValue(v.name) >= 0) return support::error(support::Location::file(path_, at.line, at.col), "value '" + v.name + "' is defined twice");
  ACCELC_TRY(expect(":"));
  ACCELC_TRY(type(v.dtype, v.shape));
  if (peek().kind == Tok::kWord && peek().text == "quant") {
    next();
    ACCELC_TRY(expect("("));
    for (const char* key : {"scale", "zero_point", "axis", "dtype"}) {
      const Tok k = peek();
      ACCELC_ASSIGN_OR_RETURN(std::string name, word());
      if (name != key) return err(k, std::string("'") + key + "'");
      ACCELC_TRY(expect("="));
      if (name == "axis") {
        ACCELC_ASSIGN_OR_RETURN(v.quant.axis, integer());
        ACCELC_TRY(expect(","));
        continue;
      }
      if (name == "dtype") {
        const Tok t = peek();
        ACCELC_ASSIGN_OR_RETURN(std::string d, word());
        auto dt = support::parseDType(d);
        if (!dt) return err(t, "a dtype");
        v.quant.dtype = *dt;
        continue;
      }
      ACCELC_TRY(expect("["));
      while (!accept("]")) {
        if (!(name == "scale" ? v.quant.scale.empty() : v.quant.zeroPoint.empty())) ACCELC_TRY(expect(","));
        const Tok n = peek();
        ACCELC_ASSIGN_OR_RETURN(std::string num, word());
        char* end = nullptr;
        if (name == "scale") v.quant.scale.push_back(std::strtof(num.c_str(), &end));
        else v.quant.zeroPoint.push_back(static_cast<int32_t>(std::strtol(num.c_str(), &end, 10)));
        if (!end || *end) return err(n, "a number");
      }
      ACCELC_TRY(expect(","));
    }
    ACCELC_TRY(expect(")"));
  }
  id = g.addValue(std::move(v));
  return Status::ok();
}

Expected<int> Parser::ref(const Graph& g) {
  const Tok t = peek();
  if (t.kind == Tok::kWord && t.text == "_") {
    next();
    return -1;
  }
  ACCELC_ASSIGN_OR_RETURN(std::string name, str());
  int id = g.findValue(name);
  if (id < 0) return support::error(support::Location::file(path_, t.line, t.col), "unknown value '" + name + "'");
  return id;
}

Status Parser::attrs(runtime::Attrs& a) {
  if (!accept("{")) return Status::ok();
  std::map<std::string, size_t> at, nameAt;  // attribute -> token position of its value / its name
  std::vector<std::string> order;
  while (!accept("}")) {
    if (!order.empty()) ACCELC_TRY(expect(","));
    const size_t namePos = pos_;
    ACCELC_ASSIGN_OR_RETURN(std::string name, word());
    nameAt[name] = namePos;
    ACCELC_TRY(expect("="));
    at[name] = pos_;
    order.push_back(name);
    int depth = 0;  // skip the value: a word, a list or tensor(...)
    do {
      const Tok t = next();
      if (t.kind == Tok::kEnd) return err(t, "'}'");
      if (t.kind == Tok::kPunct && (t.text == "[" || t.text == "(")) ++depth;
      if (t.kind == Tok::kPunct && (t.text == "]" || t.text == ")")) --depth;
    } while (depth > 0 || (peek().kind == Tok::kPunct && peek().text == "("));
  }
  const size_t resume = pos_;
  Status st;
  std::vector<std::string> known;
  auto field = [&](const char* n, auto& v) {
    known.push_back(n);
    auto it = at.find(n);
    if (!st.isOk() || it == at.end()) return;
    pos_ = it->second;
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, int64_t>) {
      auto x = integer();
      x ? void(v = *x) : void(st = x.status());
    } else if constexpr (std::is_same_v<T, float>) {
      const Tok t = peek();
      auto w = word();
      char* end = nullptr;
      if (w) v = std::strtof(w->c_str(), &end);
      if (!w || !end || *end) st = err(t, "a number");
    } else if constexpr (std::is_same_v<T, runtime::Ints>) {
      auto x = intList();
      x ? void(v = *x) : void(st = x.status());
    } else if constexpr (std::is_same_v<T, support::DType>) {
      const Tok t = peek();
      auto w = word();
      auto d = w ? support::parseDType(*w) : std::nullopt;
      d ? void(v = *d) : void(st = err(t, "a dtype"));
    } else if constexpr (runtime::IsAttrEnum<T>::value) {
      const Tok t = peek();
      auto w = word();
      if (!w || !runtime::parseEnum(*w, v)) st = err(t, runtime::enumChoices<T>());
    } else {  // Tensor: tensor(dtype[shape], hex:...)
      const Tok t = peek();
      auto w = word();
      if (!w || *w != "tensor") {
        st = err(t, "tensor(...)");
        return;
      }
      support::DType dt;
      Shape shape;
      Status s = expect("(");
      if (s) s = type(dt, shape);
      if (s) s = expect(",");
      if (!s) {
        st = s;
        return;
      }
      auto b = hex();
      if (!b) {
        st = b.status();
        return;
      }
      v = Tensor(dt, shape);
      if (b->size() != v.bytes().size()) st = err(t, std::to_string(v.bytes().size()) + " bytes of tensor data");
      else v.bytes() = *b;
      if (st) st = expect(")");
    }
  };
  std::visit([&](auto& s) { s.visitFields(field); }, a);
  pos_ = resume;
  ACCELC_TRY(st);
  for (const std::string& n : order)
    if (std::find(known.begin(), known.end(), n) == known.end())
      return support::error(support::Location::file(path_, toks_[nameAt[n]].line, toks_[nameAt[n]].col),
                            "unknown attribute '" + n + "'");
  return Status::ok();
}

Status Parser::node(Graph& g) {
  Node n;
  ACCELC_ASSIGN_OR_RETURN(n.name, str());
  const Tok opTok = peek();
  ACCELC_ASSIGN_OR_RETURN(std::string op, word());
  auto kind = runtime::findOp(op);
  if (!kind) return support::error(support::Location::file(path_, opTok.line, opTok.col), "unknown op '" + op + "'");
  n.kind = *kind;
  n.attrs = runtime::defaultAttrs(n.kind);
  ACCELC_TRY(expect("("));
  while (!accept(")")) {
    if (!n.inputs.empty()) ACCELC_TRY(expect(","));
    ACCELC_ASSIGN_OR_RETURN(int id, ref(g));
    n.inputs.push_back(id);
  }
  ACCELC_TRY(expect("->"));
  ACCELC_TRY(expect("("));
  while (!accept(")")) {
    if (!n.outputs.empty()) ACCELC_TRY(expect(","));
    int id = -1;
    ACCELC_TRY(valueDecl(g, id));
    n.outputs.push_back(id);
  }
  ACCELC_TRY(attrs(n.attrs));
  g.nodes.push_back(std::move(n));
  return Status::ok();
}

Expected<Graph> Parser::run() {
  Graph g;
  const Tok first = peek();
  ACCELC_ASSIGN_OR_RETURN(std::string kw, word());
  if (kw != "graph") return err(first, "'graph'");
  ACCELC_ASSIGN_OR_RETURN(g.model, str());
  while (peek().kind != Tok::kEnd) {
    const Tok t = peek();
    ACCELC_ASSIGN_OR_RETURN(std::string what, word());
    int id = -1;
    if (what == "input") {
      ACCELC_TRY(valueDecl(g, id));
      g.inputs.push_back(id);
    } else if (what == "const") {
      ACCELC_TRY(valueDecl(g, id));
      ACCELC_TRY(expect("="));
      ACCELC_ASSIGN_OR_RETURN(std::vector<uint8_t> b, hex());
      Tensor c(g.values[id].dtype, g.values[id].shape);
      if (b.size() != c.bytes().size()) return err(t, std::to_string(c.bytes().size()) + " bytes of constant data");
      c.bytes() = std::move(b);
      c.quant = g.values[id].quant;
      g.values[id].constant = std::move(c);
    } else if (what == "node") {
      ACCELC_TRY(node(g));
    } else if (what == "output") {
      ACCELC_ASSIGN_OR_RETURN(id, ref(g));
      g.outputs.push_back(id);
    } else {
      return err(t, "input, const, node or output");
    }
  }
  ACCELC_TRY(verify(g));
  return g;
}

}  // namespace

Expected<Graph> parseGraph(const std::string& text, const std::string& path) {
  Parser p(text, path);
  return p.run();
}

}  // namespace accelc::compiler
