// tests/compiler/tune_test.cc — the schedule tuner: legal choices only, tuned
// bundles bit-exact and never slower, the tuning log's keys and errors, and
// the measuring pool's deadline.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "compiler/frontend/compile_model.h"
#include "compiler/lower/cost.h"
#include "compiler/report/report.h"
#include "compiler/tune/measure.h"
#include "compiler/tune/tune_log.h"
#include "compiler/tune/tuner.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"
#include "support/npy.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

using runtime::Tensor;

const std::string kModel = testing::sourceDir() + "/models/digits/digits_int8.onnx";

Tensor digitsInput() {
  auto a = support::readNpy(testing::sourceDir() + "/models/digits/input.npy");
  EXPECT_TRUE(a.isOk());
  Tensor t(a->dtype, a->shape);
  t.bytes() = a->data;
  return t;
}

/// Digits compiled for `t` with `hooks`.
runtime::Bundle compileDigits(const isa::Target& t, const TuneHooks& hooks) {
  CompileOptions o;
  o.tune = &hooks;
  auto b = compileModel(kModel, t, o);
  EXPECT_TRUE(b.isOk()) << (b ? "" : b.diag().str());
  return std::move(*b);
}

/// The bundle's outputs on the functional simulator.
std::vector<Tensor> onFsim(const runtime::Bundle& b, const isa::Target& t) {
  auto d = runtime::makeDevice(runtime::Engine::kFsim, t);
  EXPECT_TRUE(d.isOk());
  auto e = runtime::Executor::create(b, **d, "digits.acx");
  EXPECT_TRUE(e.isOk()) << (e ? "" : e.diag().str());
  auto out = (*e)->runBatched({digitsInput()});
  EXPECT_TRUE(out.isOk()) << (out ? "" : out.diag().str());
  return out ? *out : std::vector<Tensor>{};
}

std::vector<TunableLayer> digitsLayers(const isa::Target& t) {
  std::vector<TunableLayer> seen;
  compileDigits(t, TuneHooks{nullptr, &seen});
  return seen;
}

TEST(TuneTest, EveryLegalChoicePassesItsCheck) {
  const isa::Target t = testing::presetTarget("tiny");
  const std::vector<TunableLayer> layers = digitsLayers(t);
  ASSERT_GE(layers.size(), 3u);
  for (const TunableLayer& l : layers) {
    auto choices = legalChoices(l, t.spec);
    ASSERT_TRUE(choices.isOk()) << choices.diag().str();
    EXPECT_FALSE(choices->empty()) << layerName(l);
    for (const ScheduleChoice& c : *choices) EXPECT_TRUE(checkChoice(l, c, t.spec).isOk()) << describeChoice(c);
    auto untuned = untunedChoice(l, t, false);
    ASSERT_TRUE(untuned.isOk());
    EXPECT_TRUE(checkChoice(l, *untuned, t.spec).isOk()) << layerName(l);
  }
}

// Every layer forced onto the legal choice the formulas rank last (the
// schedules the search never takes) still computes digits bit-exactly.
TEST(TuneTest, TheLeastFavouredLegalChoicesStayBitExact) {
  const isa::Target t = testing::presetTarget("tiny");
  TunedSchedules last;
  for (const TunableLayer& l : digitsLayers(t)) {
    auto choices = legalChoices(l, t.spec);
    ASSERT_TRUE(choices.isOk());
    for (auto it = choices->rbegin(); it != choices->rend(); ++it)
      if (choiceProgram(l, *it, t, false).isOk()) {
        last[layerKey(l, t.spec)] = TunedChoice{*it, "the last legal choice"};
        break;
      }
  }
  const runtime::Bundle untuned = compileDigits(t, TuneHooks{});
  const runtime::Bundle forced = compileDigits(t, TuneHooks{&last, nullptr});
  size_t tuned = 0;
  for (const runtime::LayerInfo& l : forced.layers) tuned += l.why.find("tuned: the last legal choice") != std::string::npos;
  EXPECT_EQ(tuned, last.size());
  const std::vector<Tensor> a = onFsim(untuned, t), b = onFsim(forced, t);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].bytes(), b[i].bytes()) << "output " << i;
}

// The tuner measures every key's untuned choice and picks nothing slower;
// its bundle gives the untuned bundle's bits.
TEST(TuneTest, TunedSchedulesAreMeasuredNoSlowerAndBitExact) {
  const isa::Target t = testing::presetTarget("tiny");
  tune::TuneOptions o;
  o.budgetSeconds = 30, o.jobs = 2, o.estimated = 8, o.measured = 4;
  size_t reports = 0;
  o.progress = [&](const std::string&, size_t, size_t) { ++reports; };
  auto tuned = tune::tuneLayers(digitsLayers(t), t, o);
  ASSERT_TRUE(tuned.isOk()) << tuned.diag().str();
  EXPECT_GT(reports, 0u);
  for (const tune::LayerTuning& l : *tuned) {
    const tune::Candidate &c = l.candidates[l.chosen], &u = l.candidates[l.untuned];
    EXPECT_GT(u.measured, 0) << l.key;
    EXPECT_GT(c.measured, 0) << l.key;
    EXPECT_LE(c.measured, u.measured) << l.key;
    for (const tune::Candidate& m : l.candidates) {
      if (m.measured >= 0) {
        EXPECT_LE(m.alone, m.measured) << "each DMA alone on the port: never above the count " << l.key;
        EXPECT_GE(m.estimate, m.alone) << "sharing the channel only delays " << l.key;
      }
    }
    EXPECT_FALSE(l.why.empty());
  }
  const TunedSchedules choices = tune::applicable(tune::entriesOf(*tuned, t.spec), t.spec, nullptr);
  EXPECT_EQ(choices.size(), tuned->size());
  const runtime::Bundle untuned = compileDigits(t, TuneHooks{});
  const runtime::Bundle withLog = compileDigits(t, TuneHooks{&choices, nullptr});
  const std::vector<Tensor> a = onFsim(untuned, t), b = onFsim(withLog, t);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].bytes(), b[i].bytes()) << "output " << i;
}

tune::TuneEntry entry(const std::string& key, int64_t rows, const std::string& hw, const std::string& build) {
  return {key, "pool", {"/pool"}, hw, build, PoolChoice{rows}, 100, 120, 90, "why"};
}

TEST(TuneLogTest, EntriesRoundTripMergeAndApplyOnlyToTheirHwspecAndBuild) {
  const isa::Target tiny = testing::presetTarget("tiny");
  const std::string hw = tune::hwspecHash(tiny.spec), build = tune::buildIdentity();
  EXPECT_NE(hw, tune::hwspecHash(testing::presetTarget("vta-default").spec));
  const std::string path = testing::tempDir() + "/tune-merge.jsonl";
  std::remove(path.c_str());
  ASSERT_TRUE(tune::writeTuneLog(path, {entry("a", 2, hw, build), entry("b", 3, hw, build)}).isOk());
  ASSERT_TRUE(tune::writeTuneLog(path, {entry("b", 4, hw, build), entry("c", 5, "0000000000000000", build),
                                        entry("d", 6, hw, "ffffffffffffffff")})
                  .isOk());
  auto read = tune::readTuneLog(path);
  ASSERT_TRUE(read.isOk()) << read.diag().str();
  ASSERT_EQ(read->size(), 4u);  // a kept, b replaced, c and d added
  std::vector<std::string> notes;
  const TunedSchedules s = tune::applicable(*read, tiny.spec, &notes);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(std::get<PoolChoice>(s.at("a").choice).rows, 2);
  EXPECT_EQ(std::get<PoolChoice>(s.at("b").choice).rows, 4);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("for another hwspec"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("by another compiler build"), std::string::npos) << notes[1];
}

TEST(TuneLogTest, BadLinesAreLocated) {
  const std::string path = testing::tempDir() + "/tune-bad.jsonl";
  const std::string good = R"({"key":"k","kind":"pool","hwspec":"h","build":"b","schedule":{"rows":2},)"
                           R"("cycles":1,"untuned_cycles":2,"estimate":1})";
  auto check = [&](const std::string& second, const std::string& expected) {
    std::ofstream(path) << good << "\n" << second << "\n";
    auto r = tune::readTuneLog(path);
    ASSERT_FALSE(r.isOk()) << second;
    EXPECT_NE(r.diag().str().find(path + ":2:"), std::string::npos) << r.diag().str();
    EXPECT_NE(r.diag().str().find(expected), std::string::npos) << r.diag().str();
  };
  check("{not json", "expected one JSON object per line");
  check(R"({"key":"k","kind":"pool","hwspec":"h","build":"b","schedule":{"rows":"2"},"cycles":1,)"
        R"("untuned_cycles":2,"estimate":1})",
        "expected an integer \"rows\"");
  check(R"({"key":"k","kind":"fold","hwspec":"h","build":"b","schedule":{},"cycles":1,"untuned_cycles":2,)"
        R"("estimate":1})",
        "expected the kind conv, pool or add");
  check(R"({"kind":"pool"})", "expected a string \"key\"");
}

/// The program of digits' first tunable layer under its untuned schedule.
support::Expected<isa::Program> firstLayersProgram(const isa::Target& t) {
  const std::vector<TunableLayer> layers = digitsLayers(t);
  ACCELC_ASSIGN_OR_RETURN(ScheduleChoice c, untunedChoice(layers.front(), t, false));
  return choiceProgram(layers.front(), c, t, false);
}

// Past the deadline only the programs that must be measured are.
TEST(MeasureTest, TheDeadlineStopsAllButTheProgramsThatMustRun) {
  const isa::Target t = testing::presetTarget("tiny");
  const support::Expected<isa::Program> p = firstLayersProgram(t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  const std::vector<tune::MeasureJob> programs(4, tune::MeasureJob{*p, 0});
  size_t heard = 0;
  auto m = tune::measurePrograms(programs, 1, t, 2, std::chrono::steady_clock::now() - std::chrono::seconds(1),
                                 [&](size_t) { ++heard; });
  ASSERT_TRUE(m.isOk()) << m.diag().str();
  ASSERT_EQ(m->size(), 4u);
  auto estimate = lower::estimateProgram(*p, t);
  ASSERT_TRUE(estimate.isOk());
  EXPECT_GE((*m)[0].cycles, *estimate);
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ((*m)[i].cycles, -1) << i;
  EXPECT_EQ(heard, 1u);
  // With time, every copy is measured, each in the same count.
  m = tune::measurePrograms(programs, 0, t, 2, std::chrono::steady_clock::now() + std::chrono::minutes(5), nullptr);
  ASSERT_TRUE(m.isOk());
  for (const tune::Measurement& r : *m) EXPECT_EQ(r.cycles, (*m)[0].cycles) << r.error;
  // A program past its cycle limit is a failed measurement with the model's reason; the next is measured.
  m = tune::measurePrograms({tune::MeasureJob{*p, 10}, tune::MeasureJob{*p, 0}}, 0, t, 1,
                            std::chrono::steady_clock::now() + std::chrono::minutes(5), nullptr);
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ((*m)[0].cycles, -1);
  EXPECT_NE((*m)[0].error.find("cycle"), std::string::npos) << (*m)[0].error;
  EXPECT_GT((*m)[1].cycles, 0) << (*m)[1].error;
}

// A worker killed halfway: the program it measured says how its process ended, and a new worker measures the rest.
TEST(MeasureTest, AWorkerThatDiesIsReplacedAndItsProgramSaysHow) {
  const isa::Target t = testing::presetTarget("tiny");
  const support::Expected<isa::Program> p = firstLayersProgram(t);
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  const std::vector<tune::MeasureJob> programs(64, tune::MeasureJob{*p, 0});
  bool killed = false;
  size_t killedAt = 0;
  auto killWorkers = [&](size_t done) {
    if (killed) return;
    killed = true, killedAt = done;  // the first results are in: the worker is on to the next program
    const std::string self = std::to_string(::getpid());
    std::ifstream children("/proc/" + self + "/task/" + self + "/children");
    for (pid_t child; children >> child;) ::kill(child, SIGKILL);
  };
  auto m = tune::measurePrograms(programs, 0, t, 1, std::chrono::steady_clock::now() + std::chrono::minutes(5), killWorkers);
  ASSERT_TRUE(m.isOk()) << m.diag().str();
  size_t measured = 0, signalled = 0;
  for (const tune::Measurement& r : *m) {
    measured += r.cycles > 0;
    signalled += r.error.find("ended with signal 9") != std::string::npos;
    if (r.cycles < 0 && !r.error.empty()) {
      EXPECT_NE(r.error.find("signal 9"), std::string::npos) << r.error;
    }
  }
  EXPECT_TRUE(killed);
  ASSERT_LT(killedAt, 32u) << "the worker died with most of the work left";
  // The program it measured is lost (and says so), and at most one other: taken from the counter, not yet begun.
  EXPECT_GE(measured, 62u) << "a new worker measures what the killed one left";
  EXPECT_LE(signalled, 1u);
}

}  // namespace
}  // namespace accelc::compiler
