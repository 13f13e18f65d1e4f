// compiler/schedule/tunable.cc — legal choices, keys and programs of tunable layers.
#include "compiler/schedule/tunable.h"

#include <sstream>

#include "compiler/lower/codegen.h"
#include "compiler/schedule/search.h"
#include "isa/builder.h"

namespace accelc::compiler {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

/// "NxCxHxW+top,left,bottom,right/pitch": what of a layout decides a program (its fill does not).
std::string layoutKey(const runtime::BlockedLayout& b) {
  std::ostringstream o;
  o << b.n << "x" << b.c << "x" << b.h << "x" << b.w << "+" << b.top << "," << b.left << "," << b.bottom << ","
    << b.right << "/" << b.rowBlocks();
  return o.str();
}

std::string convKey(const lower::ConvLayer& l) {
  std::ostringstream o;
  o << "conv " << layoutKey(l.x) << " -> " << layoutKey(l.y) << " m" << l.m << " k" << l.kh << "x" << l.kw << " s"
    << l.sh << "x" << l.sw << " p" << l.pt << "," << l.pl << " o" << l.oh << "x" << l.ow << " g" << l.group
    << (l.imageWeights ? " image-weights" : "") << " [" << lower::requantForm(l) << "]";
  return o.str();
}

std::string poolKey(const lower::PoolLayer& l) {
  std::ostringstream o;
  o << (l.average ? "average " : "max ") << layoutKey(l.x) << " -> " << layoutKey(l.y) << " k" << l.kh << "x" << l.kw
    << " s" << l.sh << "x" << l.sw << " p" << l.pt << "," << l.pl << " o" << l.oh << "x" << l.ow;
  if (l.average)
    o << " [" << (l.avg.zeroX ? "zero_x " : "") << (l.avg.zeroPoint ? "zero " : "") << (l.avg.lo > -128 ? "max " : "")
      << (l.avg.hi < 127 ? "min" : "") << "]";
  else if (l.lo > -128)
    o << " [max]";
  return o.str();
}

std::string addKey(const lower::AddLayer& l, const hwspec::HwSpec& hw) {
  const runtime::QAddAttrs& q = l.attrs;
  const bool gemm = lower::addOnGemm(l, hw);
  std::ostringstream o;
  o << "add " << layoutKey(l.a) << " + " << layoutKey(l.b) << " -> " << layoutKey(l.y) << " ["
    << (q.zeroA ? "zero_a " : "") << (q.zeroB ? "zero_b " : "") << (q.zeroPoint ? "zero " : "")
    << (q.lo > -128 ? "max " : "") << (q.hi < 127 ? "min " : "") << (gemm ? "gemm" : "alu") << "]";
  return o.str();
}

support::Status kindMismatch(const TunableLayer& l) {
  return support::error(support::Location::node(layerName(l), layerName(l)),
                        "a schedule of another kind of layer than " + layerKind(l));
}

/// Bytes of DRAM from `cursor`, which moves past them to the DRAM plan's 64-byte alignment.
uint64_t take(uint64_t& cursor, uint64_t bytes) {
  const uint64_t at = cursor;
  cursor = (cursor + bytes + 63) / 64 * 64;
  return at;
}

/// A convolution's weight bytes, at most: its output blocks by every input block, per image when each has its
/// own (a grouped layer packs fewer; the region only has to hold them).
uint64_t convWeightBytes(const lower::ConvLayer& l, const hwspec::HwSpec& hw) {
  const int64_t mb = (l.m + hw.blockOut - 1) / hw.blockOut, cb = (l.x.c + hw.blockIn - 1) / hw.blockIn;
  return static_cast<uint64_t>((l.imageWeights ? l.x.n : 1) * mb * l.kh * cb * l.kw *
                               hw.entryBytes(hwspec::BufferKind::kWeight));
}

/// `l`'s kernel under `c` with its tensors and constants from address 0 on; `cursor` ends past them.
support::Expected<lower::Kernel> placedKernel(const TunableLayer& l, const ScheduleChoice& c, const hwspec::HwSpec& hw,
                                              uint64_t& cursor) {
  if (l.index() != c.index()) return kindMismatch(l);
  return std::visit(
      Overloaded{
          [&](const lower::ConvLayer& v) {
            lower::ConvAddrs a;
            a.x = take(cursor, static_cast<uint64_t>(v.x.bytes()));
            a.y = take(cursor, static_cast<uint64_t>(v.y.bytes()));
            a.weights = take(cursor, convWeightBytes(v, hw));
            a.params = take(cursor, lower::packConvParams(v, hw).size());
            return lower::lowerConv(v, std::get<lower::ConvSchedule>(c), hw, a);
          },
          [&](const lower::PoolLayer& v) {
            const uint64_t x = take(cursor, static_cast<uint64_t>(v.x.bytes()));
            const uint64_t y = take(cursor, static_cast<uint64_t>(v.y.bytes()));
            const uint64_t params = v.average ? take(cursor, lower::packPoolParams(v, hw).size()) : 0;
            return lower::lowerPool(v, std::get<PoolChoice>(c).rows, hw, x, y, params);
          },
          [&](const lower::AddLayer& v) {
            lower::AddLayer with = v;
            with.loops = std::get<AddChoice>(c).loops;
            const uint64_t a = take(cursor, static_cast<uint64_t>(v.a.bytes()));
            const uint64_t b = take(cursor, static_cast<uint64_t>(v.b.bytes()));
            const uint64_t y = take(cursor, static_cast<uint64_t>(v.y.bytes()));
            const uint64_t params = take(cursor, lower::packAddParams(with, hw).size());
            return lower::lowerAdd(with, std::get<AddChoice>(c).rows, hw, a, b, y, params);
          }},
      l);
}

}  // namespace

const std::string& layerName(const TunableLayer& l) {
  return std::visit([](const auto& v) -> const std::string& { return v.name; }, l);
}

std::string layerKind(const TunableLayer& l) {
  return std::visit(Overloaded{[](const lower::ConvLayer&) { return std::string("conv"); },
                               [](const lower::PoolLayer&) { return std::string("pool"); },
                               [](const lower::AddLayer&) { return std::string("add"); }},
                    l);
}

std::string layerKey(const TunableLayer& l, const hwspec::HwSpec& hw) {
  return std::visit(Overloaded{[](const lower::ConvLayer& v) { return convKey(v); },
                               [](const lower::PoolLayer& v) { return poolKey(v); },
                               [&](const lower::AddLayer& v) { return addKey(v, hw); }},
                    l);
}

support::Expected<std::vector<ScheduleChoice>> legalChoices(const TunableLayer& l, const hwspec::HwSpec& hw) {
  std::vector<ScheduleChoice> out;
  if (const auto* conv = std::get_if<lower::ConvLayer>(&l)) {
    ACCELC_ASSIGN_OR_RETURN(std::vector<lower::ConvSchedule> ranked, lower::rankSchedules(*conv, hw));
    for (lower::ConvSchedule& s : ranked)
      for (bool loops : {true, false}) s.aluLoops = loops, out.push_back(s);
    return out;
  }
  if (const auto* pool = std::get_if<lower::PoolLayer>(&l)) {
    ACCELC_ASSIGN_OR_RETURN(int64_t most, lower::choosePoolRows(*pool, hw));
    for (int64_t rows = most; rows >= 1; --rows)
      if (lower::checkPoolRows(*pool, rows, hw)) out.push_back(PoolChoice{rows});
    return out;
  }
  const auto& add = std::get<lower::AddLayer>(l);
  ACCELC_ASSIGN_OR_RETURN(int64_t most, lower::chooseAddRows(add, hw));
  const bool gemm = lower::addOnGemm(add, hw);
  for (int64_t rows = most; rows >= 1; --rows) {
    if (!lower::checkAddRows(add, rows, hw)) continue;
    if (gemm) out.push_back(AddChoice{rows, true});
    out.push_back(AddChoice{rows, false});
  }
  return out;
}

support::Expected<ScheduleChoice> untunedChoice(const TunableLayer& l, const isa::Target& t, bool serialize) {
  if (const auto* conv = std::get_if<lower::ConvLayer>(&l)) {
    ACCELC_ASSIGN_OR_RETURN(lower::ConvSchedule s, searchConvSchedule(*conv, t, serialize));
    return ScheduleChoice(s);
  }
  if (const auto* pool = std::get_if<lower::PoolLayer>(&l)) {
    ACCELC_ASSIGN_OR_RETURN(int64_t rows, lower::choosePoolRows(*pool, t.spec));
    return ScheduleChoice(PoolChoice{rows});
  }
  const auto& add = std::get<lower::AddLayer>(l);
  ACCELC_ASSIGN_OR_RETURN(int64_t rows, lower::chooseAddRows(add, t.spec));
  const ScheduleChoice loops = AddChoice{rows, lower::addOnGemm(add, t.spec)};
  return choiceProgram(l, loops, t, serialize) ? loops : ScheduleChoice(AddChoice{rows, false});
}

support::Status checkChoice(const TunableLayer& l, const ScheduleChoice& c, const hwspec::HwSpec& hw) {
  if (l.index() != c.index()) return kindMismatch(l);
  if (const auto* conv = std::get_if<lower::ConvLayer>(&l))
    return lower::checkSchedule(*conv, std::get<lower::ConvSchedule>(c), hw);
  if (const auto* pool = std::get_if<lower::PoolLayer>(&l))
    return lower::checkPoolRows(*pool, std::get<PoolChoice>(c).rows, hw);
  const auto& add = std::get<lower::AddLayer>(l);
  const AddChoice& a = std::get<AddChoice>(c);
  if (a.loops && !lower::addOnGemm(add, hw))
    return support::error(support::Location::node(add.name, add.name), "ALU loops need the GEMM form of the addition");
  return lower::checkAddRows(add, a.rows, hw);
}

std::string describeChoice(const ScheduleChoice& c) {
  return std::visit(
      Overloaded{[](const lower::ConvSchedule& s) {
                   return lower::describe(s) + (s.aluLoops ? ", ALU loops" : ", ALU micro-ops per pixel") +
                          (s.rowLoads ? ", a DMA per input row" : "");
                 },
                 [](const PoolChoice& p) { return std::to_string(p.rows) + "-row tiles"; },
                 [](const AddChoice& a) {
                   return std::to_string(a.rows) + "-row tiles" + (a.loops ? ", loops" : ", micro-ops per pixel");
                 }},
      c);
}

support::Expected<isa::Program> choiceProgram(const TunableLayer& l, const ScheduleChoice& c, const isa::Target& t,
                                              bool serialize) {
  uint64_t cursor = 0;
  ACCELC_ASSIGN_OR_RETURN(lower::Kernel k, placedKernel(l, c, t.spec, cursor));
  lower::CodegenPlacement at{take(cursor, k.uops.size() * t.uopBytes()), 0};
  isa::ProgramBuilder scratch(t);  // to learn the instruction count
  ACCELC_TRY(lower::emitKernel(k, t, {0, 0}, serialize, scratch));
  cursor = isa::textStart(t, cursor);
  at.text = take(cursor, scratch.size() * t.insnBytes());
  isa::ProgramBuilder b(t);
  ACCELC_TRY(lower::emitKernel(k, t, at, serialize, b));
  return b.finish(layerName(l));
}

nlohmann::ordered_json choiceJson(const ScheduleChoice& c) {
  return std::visit(Overloaded{[](const lower::ConvSchedule& s) {
                                 return nlohmann::ordered_json{{"rows", s.tileRows},         {"cols", s.tileCols},
                                                               {"out_blocks", s.outBlocks},  {"chunk_blocks", s.chunkBlocks},
                                                               {"alu_loops", s.aluLoops}, {"row_loads", s.rowLoads}};
                               },
                               [](const PoolChoice& p) { return nlohmann::ordered_json{{"rows", p.rows}}; },
                               [](const AddChoice& a) {
                                 return nlohmann::ordered_json{{"rows", a.rows}, {"loops", a.loops}};
                               }},
                    c);
}

support::Expected<ScheduleChoice> parseChoice(const nlohmann::json& j, const std::string& kind) {
  auto integer = [&](const char* key, int64_t& out) -> support::Status {
    if (!j.contains(key) || !j[key].is_number_integer())
      return support::error(support::Location{}, std::string("expected an integer \"") + key + "\" in the schedule");
    out = j[key].get<int64_t>();
    return support::Status::ok();
  };
  auto flag = [&](const char* key, bool& out) -> support::Status {
    if (!j.contains(key) || !j[key].is_boolean())
      return support::error(support::Location{}, std::string("expected true or false for \"") + key + "\" in the schedule");
    out = j[key].get<bool>();
    return support::Status::ok();
  };
  if (!j.is_object()) return support::error(support::Location{}, "expected the schedule as an object");
  if (kind == "conv") {
    lower::ConvSchedule s;
    ACCELC_TRY(integer("rows", s.tileRows));
    ACCELC_TRY(integer("cols", s.tileCols));
    ACCELC_TRY(integer("out_blocks", s.outBlocks));
    ACCELC_TRY(integer("chunk_blocks", s.chunkBlocks));
    ACCELC_TRY(flag("alu_loops", s.aluLoops));
    if (j.contains("row_loads")) ACCELC_TRY(flag("row_loads", s.rowLoads));
    return ScheduleChoice(s);
  }
  if (kind == "pool") {
    PoolChoice p;
    ACCELC_TRY(integer("rows", p.rows));
    return ScheduleChoice(p);
  }
  if (kind == "add") {
    AddChoice a;
    ACCELC_TRY(integer("rows", a.rows));
    ACCELC_TRY(flag("loops", a.loops));
    return ScheduleChoice(a);
  }
  return support::error(support::Location{}, "expected the kind conv, pool or add, not \"" + kind + "\"");
}

}  // namespace accelc::compiler
