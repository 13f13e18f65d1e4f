// hwspec/hwspec.cc — the hwspec YAML schema (docs/hwspec.md) and its checks.
#include "hwspec/hwspec.h"

#include <sstream>

#include "support/yaml.h"

namespace accelc::hwspec {

using support::Diagnostic;
using support::error;
using support::Expected;
using support::Location;
using support::Status;
using support::YamlMap;

const char* bufferKindName(BufferKind b) {
  switch (b) {
#define ACCELC_BUFFER_NAME(e, n) \
  case BufferKind::e:            \
    return n;
    ACCELC_BUFFERS(ACCELC_BUFFER_NAME)
#undef ACCELC_BUFFER_NAME
  }
  return "?";
}

int64_t HwSpec::entryBytes(BufferKind b) const {
  switch (b) {
    case BufferKind::kUop:
      return uopBits / 8;
    case BufferKind::kInput:
      return batch * blockIn * elemBits(inputType) / 8;
    case BufferKind::kWeight:
      return blockOut * blockIn * elemBits(weightType) / 8;
    case BufferKind::kAcc:
      return batch * blockOut * elemBits(accType) / 8;
    case BufferKind::kOutput:
      return batch * blockOut * elemBits(outputType) / 8;
  }
  return 1;
}

static int64_t log2Exact(int64_t v) {
  int64_t n = 0;
  while ((int64_t{1} << n) < v) ++n;
  return n;
}

int64_t HwSpec::indexBits(BufferKind b) const { return log2Exact(depth(b)); }

Location HwSpec::locOf(const std::string& key) const {
  auto it = keyLocs.find(key);
  return it != keyLocs.end() ? it->second : Location::file(sourcePath);
}

bool HwSpec::hasAluOp(const std::string& op) const {
  for (const std::string& o : aluOps)
    if (o == op) return true;
  return false;
}

namespace {

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// Reads keys of one mapping into a HwSpec, recording where each is written.
class Reader {
 public:
  Reader(YamlMap map, HwSpec& spec) : map_(std::move(map)), spec_(spec) {}

  Expected<int64_t> integer(const std::string& key, int64_t lo, int64_t hi) {
    record(key);
    return map_.integer(key, lo, hi);
  }
  Expected<int64_t> integerOr(const std::string& key, int64_t def, int64_t lo, int64_t hi) {
    record(key);
    return map_.integerOr(key, def, lo, hi);
  }
  Expected<bool> booleanOr(const std::string& key, bool def) {
    record(key);
    return map_.booleanOr(key, def);
  }
  /// An integer that must be a power of two.
  Expected<int64_t> pow2(const std::string& key, int64_t lo, int64_t hi) {
    ACCELC_ASSIGN_OR_RETURN(int64_t v, integer(key, lo, hi));
    if (!isPow2(v)) return notPow2(key, std::to_string(v));
    return v;
  }
  /// A byte size that must be a power of two.
  Expected<int64_t> pow2Bytes(const std::string& key) {
    record(key);
    ACCELC_ASSIGN_OR_RETURN(int64_t v, map_.bytes(key));
    if (!isPow2(v)) return notPow2(key, std::to_string(v) + " bytes");
    return v;
  }
  Expected<std::string> string(const std::string& key) {
    record(key);
    return map_.string(key);
  }
  Expected<std::vector<std::string>> stringList(const std::string& key) {
    record(key);
    return map_.stringList(key);
  }
  Expected<YamlMap> map(const std::string& key) {
    record(key);
    return map_.map(key);
  }
  bool has(const std::string& key) const { return map_.has(key); }
  Status finish() const { return map_.finish(); }
  Location valueLoc(const std::string& key) const { return map_.valueLoc(key); }

 private:
  void record(const std::string& key) { spec_.keyLocs[map_.dotted(key)] = map_.valueLoc(key); }
  Diagnostic notPow2(const std::string& key, const std::string& found) const {
    return error(map_.valueLoc(key), "key '" + map_.dotted(key) + "': expected a power of two, found " + found);
  }

  YamlMap map_;    ///< the mapping being read
  HwSpec& spec_;   ///< receives the key locations
};

Status readGemm(Reader r, HwSpec& s) {
  ACCELC_ASSIGN_OR_RETURN(s.batch, r.pow2("batch", 1, 256));
  ACCELC_ASSIGN_OR_RETURN(s.blockIn, r.pow2("block_in", 1, 256));
  ACCELC_ASSIGN_OR_RETURN(s.blockOut, r.pow2("block_out", 1, 256));
  return r.finish();
}

Expected<ElemType> readType(Reader& r, const std::string& key, ElemType v1) {
  ACCELC_ASSIGN_OR_RETURN(std::string t, r.string(key));
  const char* want = v1 == ElemType::kInt8 ? "int8" : "int32";
  if (t != want)
    return error(r.valueLoc(key), "dtypes." + key + ": '" + t + "' is unsupported in v1; expected " + want);
  return v1;
}

Status readDtypes(Reader r, HwSpec& s) {
  ACCELC_ASSIGN_OR_RETURN(s.inputType, readType(r, "input", ElemType::kInt8));
  ACCELC_ASSIGN_OR_RETURN(s.weightType, readType(r, "weight", ElemType::kInt8));
  ACCELC_ASSIGN_OR_RETURN(s.accType, readType(r, "acc", ElemType::kInt32));
  ACCELC_ASSIGN_OR_RETURN(s.outputType, readType(r, "output", ElemType::kInt8));
  return r.finish();
}

Status readBuffers(Reader r, HwSpec& s) {
  for (int b = 0; b < kNumBuffers; ++b) {
    ACCELC_ASSIGN_OR_RETURN(s.bufferBytes[b], r.pow2Bytes(bufferKindName(BufferKind(b))));
  }
  return r.finish();
}

Status readDram(Reader r, HwSpec& s) {
  ACCELC_ASSIGN_OR_RETURN(s.dramBytesPerCycle, r.pow2("bytes_per_cycle", 1, 4096));
  ACCELC_ASSIGN_OR_RETURN(s.dramLatency, r.integer("latency_cycles", 1, 100000));
  ACCELC_ASSIGN_OR_RETURN(s.dramAddrBits, r.integer("addr_bits", 8, 48));
  ACCELC_ASSIGN_OR_RETURN(s.dramWindowBytes, r.pow2Bytes("window"));
  ACCELC_ASSIGN_OR_RETURN(s.dramSplit4k, r.booleanOr("split_4k", false));
  return r.finish();
}

Status readQueues(Reader r, HwSpec& s) {
  ACCELC_ASSIGN_OR_RETURN(s.commandDepth, r.integer("command_depth", 1, 1 << 20));
  ACCELC_ASSIGN_OR_RETURN(s.tokenDepth, r.integer("token_depth", 1, 1 << 20));
  return r.finish();
}

Status readTiming(Reader r, HwSpec& s) {
  Timing& t = s.timing;
  ACCELC_ASSIGN_OR_RETURN(t.gemmIi, r.integerOr("gemm_ii", t.gemmIi, 1, 64));
  ACCELC_ASSIGN_OR_RETURN(t.aluIi, r.integerOr("alu_ii", t.aluIi, 1, 64));
  ACCELC_ASSIGN_OR_RETURN(t.pipelineDepth, r.integerOr("pipeline_depth", t.pipelineDepth, 1, 64));
  ACCELC_ASSIGN_OR_RETURN(t.accHazard, r.integerOr("acc_hazard", t.accHazard, 1, 64));
  ACCELC_ASSIGN_OR_RETURN(t.maxBurst, r.integerOr("max_burst", t.maxBurst, 1, 1 << 16));
  ACCELC_ASSIGN_OR_RETURN(t.outstanding, r.integerOr("outstanding", t.outstanding, 1, 1024));
  if (!isPow2(t.maxBurst))
    return error(r.valueLoc("max_burst"), "key 'timing.max_burst': expected a power of two, found " +
                                              std::to_string(t.maxBurst));
  return r.finish();
}

Status readIsa(Reader r, HwSpec& s) {
  ACCELC_ASSIGN_OR_RETURN(s.isaFile, r.string("file"));
  if (s.isaFile.empty() || s.isaFile.find_first_of(" #:{}[],'\"\n") != std::string::npos)
    return error(r.valueLoc("file"), "key 'isa.file': expected a file name without spaces or YAML punctuation");
  ACCELC_ASSIGN_OR_RETURN(s.insnBits, r.integer("insn_bits", 0, 1 << 16));
  if (s.insnBits != 128 && s.insnBits != 256)
    return error(r.valueLoc("insn_bits"), "key 'isa.insn_bits': expected 128 or 256, found " + std::to_string(s.insnBits));
  ACCELC_ASSIGN_OR_RETURN(s.uopBits, r.integer("uop_bits", 0, 1 << 16));
  if (s.uopBits != 32 && s.uopBits != 64)
    return error(r.valueLoc("uop_bits"), "key 'isa.uop_bits': expected 32 or 64, found " + std::to_string(s.uopBits));
  return r.finish();
}

/// Reads the nested mapping `key` with `fn` (timing may be absent).
template <typename Fn>
Status section(Reader& root, HwSpec& s, const std::string& key, Fn fn, bool optional = false) {
  if (optional && !root.has(key)) {
    (void)root.map(key);  // records the key as known
    return Status::ok();
  }
  ACCELC_ASSIGN_OR_RETURN(YamlMap m, root.map(key));
  return fn(Reader(std::move(m), s), s);
}

/// Checks that every buffer holds at least one tile and acc/output pair up.
Status checkCapacities(const HwSpec& s) {
  for (int b = 0; b < kNumBuffers; ++b) {
    BufferKind k = BufferKind(b);
    std::string key = std::string("buffers.") + bufferKindName(k);
    if (s.bufferBytes[b] < s.entryBytes(k))
      return error(s.locOf(key), "buffer '" + key + "' holds " + std::to_string(s.bufferBytes[b]) +
                                     " bytes, less than one tile (" + std::to_string(s.entryBytes(k)) + " bytes)");
  }
  for (int b = 0; b < kNumBuffers; ++b) {
    std::string key = std::string("buffers.") + bufferKindName(BufferKind(b));
    if (s.bufferBytes[b] > (int64_t{1} << 28)) return error(s.locOf(key), "key '" + key + "': at most 256MiB is supported");
  }
  if (s.timing.maxBurst < s.insnBits / 8)  // fetch reads whole instructions in each burst
    return error(s.locOf("timing.max_burst"), "key 'timing.max_burst': a burst must hold one instruction (" +
                                                  std::to_string(s.insnBits / 8) + " bytes), found " +
                                                  std::to_string(s.timing.maxBurst));
  if (s.dramSplit4k && s.timing.maxBurst > 4096)  // fetch's bursts then never cross 4 KiB either (isa/program.h)
    return error(s.locOf("timing.max_burst"), "key 'timing.max_burst': with dram.split_4k a burst is at most 4096 bytes, found " +
                                                  std::to_string(s.timing.maxBurst));
  if (s.dramWindowBytes > (int64_t{1} << 32))
    return error(s.locOf("dram.window"), "key 'dram.window': at most 4GiB is supported");
  if (s.aluOps.empty()) return error(s.locOf("alu.ops"), "key 'alu.ops': expected at least one ALU operation");
  return Status::ok();
}

Status readRoot(Reader& r, HwSpec& s) {
  ACCELC_ASSIGN_OR_RETURN(int64_t schema, r.integerOr("schema", kSchemaVersion, 1, 1 << 20));
  if (schema > kSchemaVersion)
    return error(r.valueLoc("schema"), "schema version " + std::to_string(schema) +
                                           " is newer than this accelc reads (" + std::to_string(kSchemaVersion) + ")");
  s.schema = static_cast<int>(schema);
  ACCELC_ASSIGN_OR_RETURN(s.name, r.string("name"));
  if (s.name.empty() || s.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos)
    return error(r.valueLoc("name"), "key 'name': expected letters, digits, '_', '.' or '-', found '" + support::printable(s.name) + "'");
  ACCELC_ASSIGN_OR_RETURN(s.clockMhz, r.integer("clock_mhz", 1, 100000));
  ACCELC_TRY(section(r, s, "gemm", readGemm));
  ACCELC_TRY(section(r, s, "dtypes", readDtypes));
  ACCELC_TRY(section(r, s, "buffers", readBuffers));
  ACCELC_TRY(section(r, s, "dram", readDram));
  ACCELC_TRY(section(r, s, "queues", readQueues));
  ACCELC_TRY(section(r, s, "alu", [](Reader a, HwSpec& h) -> Status {
    ACCELC_ASSIGN_OR_RETURN(h.aluOps, a.stringList("ops"));
    // Names only: which names the ISA defines is the target's check (isa/).
    for (const std::string& op : h.aluOps)
      if (op.empty() || op.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
        return error(a.valueLoc("ops"), "key 'alu.ops': expected operation names (lower-case letters, digits, '_'), "
                                        "found '" + support::printable(op) + "'");
    return a.finish();
  }));
  ACCELC_TRY(section(r, s, "timing", readTiming, /*optional=*/true));
  ACCELC_TRY(section(r, s, "isa", readIsa));
  return r.finish();
}

}  // namespace

Expected<HwSpec> parseHwSpec(const std::string& text, const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(YAML::Node doc, support::parseYaml(text, path));
  ACCELC_ASSIGN_OR_RETURN(YamlMap root, YamlMap::of(doc, path, ""));
  HwSpec s;
  s.sourcePath = path;
  Reader r(std::move(root), s);
  ACCELC_TRY(readRoot(r, s));
  ACCELC_TRY(checkCapacities(s));
  return s;
}

static std::string typeName(ElemType t) { return t == ElemType::kInt8 ? "int8" : "int32"; }

std::string HwSpec::canonicalYaml() const {
  std::ostringstream o;
  o << "schema: " << schema << "\nname: " << name << "\nclock_mhz: " << clockMhz << "\n";
  o << "gemm: {batch: " << batch << ", block_in: " << blockIn << ", block_out: " << blockOut << "}\n";
  o << "dtypes: {input: " << typeName(inputType) << ", weight: " << typeName(weightType)
    << ", acc: " << typeName(accType) << ", output: " << typeName(outputType) << "}\n";
  o << "buffers: {";
  for (int b = 0; b < kNumBuffers; ++b) o << (b ? ", " : "") << bufferKindName(BufferKind(b)) << ": " << bufferBytes[b];
  o << "}\n";
  o << "dram: {bytes_per_cycle: " << dramBytesPerCycle << ", latency_cycles: " << dramLatency
    << ", addr_bits: " << dramAddrBits << ", window: " << dramWindowBytes << (dramSplit4k ? ", split_4k: true" : "")
    << "}\n";
  o << "queues: {command_depth: " << commandDepth << ", token_depth: " << tokenDepth << "}\n";
  o << "alu: {ops: [";
  for (size_t i = 0; i < aluOps.size(); ++i) o << (i ? ", " : "") << aluOps[i];
  o << "]}\n";
  o << "timing: {gemm_ii: " << timing.gemmIi << ", alu_ii: " << timing.aluIi
    << ", pipeline_depth: " << timing.pipelineDepth << ", acc_hazard: " << timing.accHazard
    << ", max_burst: " << timing.maxBurst << ", outstanding: " << timing.outstanding << "}\n";
  o << "isa: {file: " << isaFile << ", insn_bits: " << insnBits << ", uop_bits: " << uopBits << "}\n";
  return o.str();
}

}  // namespace accelc::hwspec
