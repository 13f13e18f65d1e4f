// tests/compiler/dse_test.cc — sweeps (compiler/dse): the file's validation
// with located errors, the points and their hwspecs, the records, the Pareto
// front and its plot; and one point evaluated in this process.
#include <gtest/gtest.h>

#include <filesystem>


#include "compiler/dse/front.h"
#include "compiler/dse/point.h"
#include "compiler/dse/sweep.h"
#include "compiler/dse/sweep_run.h"

namespace accelc::compiler::dse {
namespace {

const std::string kSrc = ACCELC_SOURCE_DIR;

/// The error of sweep `text`, printed.
std::string sweepError(const std::string& text) {
  support::Expected<Sweep> s = parseSweep(text, "s.yaml");
  EXPECT_FALSE(s.isOk()) << text;
  return s ? "" : s.diag().str();
}

TEST(DseTest, ASweepsPointsAreEveryCombinationTheLastKeyFastest) {
  auto s = parseSweep(
      "sweep: 1\nbase: vta-default\nvary:\n  timing.alu_ii: [1, 2]\n  dram.latency_cycles: {from: 16, to: 64, times: 2}\n",
      "s.yaml");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  ASSERT_EQ(s->points(), 6);
  EXPECT_EQ(describePoint(*s, 0), "timing.alu_ii=1, dram.latency_cycles=16");
  EXPECT_EQ(describePoint(*s, 2), "timing.alu_ii=1, dram.latency_cycles=64");
  EXPECT_EQ(describePoint(*s, 3), "timing.alu_ii=2, dram.latency_cycles=16");
  auto spec = pointHwSpec(*s, 4);
  ASSERT_TRUE(spec.isOk()) << spec.diag().str();
  EXPECT_EQ(spec->timing.aluIi, 2);
  EXPECT_EQ(spec->dramLatency, 32);
  EXPECT_EQ(spec->name, "vta-default");
  EXPECT_TRUE(spec->dramSplit4k);  // the rest is the base's
  auto steps = parseSweep("base: tiny\nvary: {clock_mhz: {from: 50, to: 200, step: 50}, dram.split_4k: [false]}\n", "s.yaml");
  ASSERT_TRUE(steps.isOk()) << steps.diag().str();
  EXPECT_EQ(steps->points(), 4);
  auto last = pointHwSpec(*steps, 3);
  ASSERT_TRUE(last.isOk()) << last.diag().str();
  EXPECT_EQ(last->clockMhz, 200);
  EXPECT_FALSE(last->dramSplit4k);
  auto none = parseSweep("base: tiny\n", "s.yaml");
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(none->points(), 1);
  EXPECT_EQ(describePoint(*none, 0), "base");
}

TEST(DseTest, APointTheSchemaRefusesNamesItselfAndTheRule) {
  auto s = parseSweep("base: vta-default\nvary:\n  buffers.acc: [128KiB, 32B]\n", "s.yaml");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  EXPECT_TRUE(pointHwSpec(*s, 0).isOk());
  auto bad = pointHwSpec(*s, 1);
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.diag().str(),
            "s.yaml point 1 (buffers.acc=32B): error: buffer 'buffers.acc' holds 32 bytes, less than one tile (64 bytes)");
}

TEST(DseTest, BadSweepsAreLocatedErrors) {
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  timing.alu: [1]\n").rfind(
                "s.yaml:3:3: error: 'timing.alu' is not a hwspec key a sweep can vary; expected one of: ", 0),
            0u);
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  timing.alu_ii: 2\n"),
            "s.yaml:3:18: error: key 'vary.timing.alu_ii': expected a non-empty list of values or a range {from, to, "
            "step or times}");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  timing.alu_ii: []\n"),
            "s.yaml:3:18: error: key 'vary.timing.alu_ii': expected a non-empty list of values or a range {from, to, "
            "step or times}");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  timing.alu_ii: [1, [2]]\n"),
            "s.yaml:3:22: error: key 'vary.timing.alu_ii': each value is a scalar");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  timing.alu_ii: [1, 1]\n"),
            "s.yaml:3:22: error: key 'vary.timing.alu_ii': value '1' twice");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  clock_mhz: {from: 9, to: 3, step: 1}\n"),
            "s.yaml:3:28: error: range 'vary.clock_mhz': 'to' is below 'from'");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  clock_mhz: {from: 1, to: 3}\n"),
            "s.yaml:3:14: error: range 'vary.clock_mhz': give exactly one of 'step' (added) and 'times' (multiplied)");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  clock_mhz: {from: 1, to: 3, step: 1, by: 2}\n").rfind(
                "s.yaml:3:40: error: unknown key 'vary.clock_mhz.by'", 0),
            0u);
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  clock_mhz: {from: 1, to: 100000, step: 1}\n"),
            "s.yaml:3:14: error: range 'vary.clock_mhz' has more than 10000 values");
  EXPECT_EQ(sweepError("base: vta-default\nvary:\n  clock_mhz: {from: 1, to: 1000, step: 1}\n"
                       "  timing.alu_ii: {from: 1, to: 1000, step: 1}\n"),
            "s.yaml:4:3: error: the sweep has more than 100000 points by key 'vary.timing.alu_ii'");
  EXPECT_EQ(sweepError("base: nowhere\n").rfind("s.yaml:1:7: error: base hwspec 'nowhere' cannot be read\n", 0), 0u);
  EXPECT_EQ(sweepError("base: tiny\nboard: nowhere\n").rfind("s.yaml:2:8: error: board 'nowhere' cannot be read\n", 0), 0u);
  EXPECT_EQ(sweepError("base: tiny\nvarry: {}\n").rfind("s.yaml:2:1: error: unknown key 'varry'", 0), 0u);
  EXPECT_EQ(sweepError("sweep: 2\nbase: tiny\n"), "s.yaml:1:8: error: sweep schema 2 is newer than this accelc reads (1)");
  EXPECT_EQ(sweepError("vary: {}\n"), "s.yaml:1:1: error: missing key 'base' (expected a string)");
}

/// Occurrences of `what` in `text`.
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

PointRecord record(int64_t point, uint64_t cycles, int64_t dsps, int64_t bram, int64_t luts, bool ok = true) {
  PointRecord r;
  r.point = point, r.key = "00000000000000" + std::to_string(10 + point), r.ok = ok;
  r.values = {{"timing.alu_ii", std::to_string(point)}};
  if (!ok) {
    r.error = "s.yaml point " + std::to_string(point) + ": error: refused";
    return r;
  }
  r.cycles = cycles, r.dsps = dsps, r.bram18 = bram, r.luts = luts, r.rooflineCycles = 100, r.macs = 7, r.accelLayers = 2;
  return r;
}

TEST(DseTest, TheFrontHoldsThePointsNoOtherBeatsOnEveryResource) {
  std::vector<PointRecord> r = {
      record(0, 1000, 10, 10, 100),  // beaten by 1
      record(1, 900, 10, 10, 100),   // on the front
      record(2, 800, 20, 10, 100),   // faster, more DSPs: on it
      record(3, 900, 10, 10, 100),   // equal to 1: on it too
      record(4, 1, 1, 1, 1, false),  // failed: never on it
      record(5, 2000, 5, 5, 50),     // cheapest: on it
      record(6, 10, 1, 1, 1),        // leaves a layer to the host: not comparable
      record(7, 10, 1, 1, 1),        // does not fit the board
  };
  r[6].accelLayers = 1, r[6].hostLayers = 1;
  r[7].fits = false;
  EXPECT_EQ(paretoFront(r), (std::vector<size_t>{1, 2, 3, 5}));
  const std::string svg = frontSvg(r, paretoFront(r), "s.yaml: 6 points");
  EXPECT_EQ(count(svg, "<circle class=\"point"), 7u);
  EXPECT_EQ(count(svg, "class=\"point front\""), 4u);
  EXPECT_NE(svg.find("<title>point 5: 2000 cycles, 50 LUTs, 5 DSPs, 5 BRAM18\ntiming.alu_ii=5</title>"), std::string::npos) << svg;
  const std::string csv = recordsCsv(r, {4, 1});
  EXPECT_EQ(csv,
            "point,timing.alu_ii,ok,cycles,roofline_cycles,datapath_cycles,roofline_pct,accel_layers,host_layers,dsp,bram18,"
            "uram,lut,ff,fits,error\n"
            "4,4,false,,,,,,,,,,,,,s.yaml point 4: error: refused\n"
            "1,1,true,900,100,0,11.1,2,0,10,10,0,100,0,true,\n");
  const nlohmann::ordered_json front = frontJson(r, paretoFront(r));
  ASSERT_EQ(front.size(), 4u);
  EXPECT_EQ(front[0]["point"], 2);  // by cycles
  EXPECT_EQ(front[3]["point"], 5);
}

TEST(DseTest, RecordsReadBackAsWritten) {
  for (const PointRecord& r : {record(3, 1234, 5, 6, 7), record(4, 0, 0, 0, 0, false)}) {
    const std::string text = recordJson(r).dump();
    auto back = parseRecord(text, "r.json");
    ASSERT_TRUE(back.isOk()) << back.diag().str();
    EXPECT_EQ(recordJson(*back).dump(), text);
  }
  auto bad = parseRecord("{\"point\": 1}", "r.json");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.diag().str().rfind("r.json: error: not a point record: ", 0), 0u);
}

TEST(DseTest, APointWhoseProcessCrashesIsRecordedAndTheOthersStillRun) {
  auto s = parseSweep("base: tiny\nvary: {timing.alu_ii: [1, 2, 3]}\n", "s.yaml");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  const std::string dir = std::string(ACCELC_TEMP_DIR) + "/dse-crash";
  std::filesystem::remove_all(dir);
  const ModelInput m{kSrc + "/models/digits/digits_int8.onnx", ""};
  // A stand-in for `accelc dse-point`: point 1's process dies of SIGSEGV, the others exit 3 without a record.
  const std::vector<std::string> command = {"/bin/sh", "-c", "if [ \"$2\" = 1 ]; then kill -SEGV $$; fi; exit 3", "sh"};
  std::vector<std::string> lines;
  ASSERT_TRUE(runLocal({0, 1, 2}, command, 2, *s, dir, [&](const std::string& l) { lines.push_back(l); }).isOk());
  EXPECT_EQ(lines.size(), 3u);
  auto results = writeResults(*s, dir);
  ASSERT_TRUE(results.isOk()) << results.diag().str();
  ASSERT_EQ(results->records.size(), 3u);
  EXPECT_EQ(results->records[1].error, "the point's process was killed by signal 11 (its output: " + dir + "/logs/1.log)");
  EXPECT_EQ(results->records[2].error,
            "the point's process ended with exit code 3 and no record (its output: " + dir + "/logs/2.log)");
  EXPECT_TRUE(results->front.empty());
  auto pending = pendingPoints(*s, dir, m);
  ASSERT_TRUE(pending.isOk());
  EXPECT_EQ(*pending, (std::vector<int64_t>{0, 1, 2}));  // lost points run again: a crash may not happen twice
}

TEST(DseTest, APointIsCompiledMeasuredAndEstimated) {
  // One cycle-model elaboration per process: this is the test's only point.
  auto s = parseSweep("base: vta-default\nboard: pynq-z1\nvary: {dram.bytes_per_cycle: [8, 16]}\n", kSrc + "/s.yaml");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  const ModelInput m{kSrc + "/models/digits/digits_int8.onnx", ""};
  auto r = evaluatePoint(*s, 1, m);
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  ASSERT_TRUE(r->ok) << r->error;
  EXPECT_GT(r->cycles, 0u);
  EXPECT_GT(r->cycles, static_cast<uint64_t>(r->rooflineCycles));  // no program beats its roofline
  EXPECT_EQ(r->macs, 80896);
  EXPECT_EQ(r->accelLayers, 4);
  EXPECT_GT(r->dsps, 0);
  EXPECT_GT(r->luts, 0);
  EXPECT_EQ(r->values, (std::vector<std::pair<std::string, std::string>>{{"dram.bytes_per_cycle", "16"}}));
  auto inputs = inputsHash(m), other = inputsHash(ModelInput{m.model, kSrc + "/models/digits/input.npy"});
  ASSERT_TRUE(inputs.isOk() && other.isOk());
  EXPECT_EQ(r->key, pointKey(*s, 1, *inputs));
  EXPECT_NE(pointKey(*s, 0, *inputs), r->key);  // another point's hardware
  EXPECT_NE(pointKey(*s, 1, *other), r->key);   // other calibration inputs
  EXPECT_FALSE(evaluatePoint(*s, 2, m).isOk());  // not a point of the sweep
}

// --tune: the point's layers tuned before it is measured (in worker processes: this process elaborates nothing).
TEST(DseTest, ATunedPointIsKeyedByItsTuning) {
  auto s = parseSweep("base: tiny\nvary: {dram.bytes_per_cycle: [4]}\n", kSrc + "/s.yaml");
  ASSERT_TRUE(s.isOk()) << s.diag().str();
  const ModelInput plain{kSrc + "/models/digits/digits_int8.onnx", "", 0}, tuned{plain.model, "", 3};
  EXPECT_EQ(pointOptions(tuned), (std::vector<std::string>{"--tune", "3"}));
  auto a = inputsHash(plain), b = inputsHash(tuned);
  ASSERT_TRUE(a.isOk() && b.isOk());
  EXPECT_NE(pointKey(*s, 0, *a), pointKey(*s, 0, *b));
  auto r = evaluatePoint(*s, 0, tuned);
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  ASSERT_TRUE(r->ok) << r->error;
  EXPECT_EQ(r->key, pointKey(*s, 0, *b));
  EXPECT_EQ(r->accelLayers, 4);
  EXPECT_GT(r->cycles, 0u);
}

}  // namespace
}  // namespace accelc::compiler::dse
