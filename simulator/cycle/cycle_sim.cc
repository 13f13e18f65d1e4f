// simulator/cycle/cycle_sim.cc — fetch and the three units as SystemC threads.
#include "simulator/cycle/cycle_sim.h"

#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <systemc>
#include <vector>

#include "isa/encoding.h"
#include "isa/semantics.h"
#include "isa/tokens.h"
#include "simulator/functional/datapath.h"
#include "simulator/functional/race.h"
#include "simulator/functional/state.h"
#include "simulator/timing/dram_port.h"
#include "simulator/timing/timing.h"

// The binaries that link the model bring their own main(); SystemC's library
// still needs this symbol to link.
extern "C" int sc_main(int, char**) { return 0; }

namespace accelc::simulator {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

const sc_core::sc_time kCycle(1, sc_core::SC_NS);

/// A command in a unit's queue.
struct Cmd {
  uint64_t pc;               ///< instruction
  sc_core::sc_time visible;  ///< first time its unit sees it
};

/// A dependency token.
struct Token {
  sc_core::sc_time visible;  ///< first time its consumer sees it
  VClock clock;              ///< the pusher's vector clock (race checking)
};

/// One execution unit during a run: what its thread alone changes (its
/// queue's head is popped by it and pushed by fetch).
struct UnitState {
  std::deque<Cmd> cmd;       ///< its command queue
  VClock vc{};               ///< its vector clock
  sc_core::sc_time lastPop;  ///< when its command queue last gave up an entry
  bool popped = false;       ///< whether it ever did this run
  bool busy = false;         ///< executing an instruction
  uint64_t pc = 0;           ///< the instruction it executes, while busy
};

/// Instruction fetch during a run.
struct FetchState {
  uint64_t textAddr = 0, count = 0;     ///< the instruction stream
  std::vector<isa::Instruction> insns;  ///< decoded, by pc
  uint64_t pc = 0;                      ///< next instruction to fetch
};

/// One run of one program: its inputs, the state of fetch and of each unit,
/// the token queues and the DRAM port they share, and what the run measured.
struct RunCtx {
  const isa::Target* t = nullptr;
  std::string name;                                ///< program name for locations
  isa::DramImage* dram = nullptr;                  ///< DRAM
  std::unique_ptr<Datapath> dp;                    ///< executes instructions
  FetchState fetch;                                ///< fetch
  std::array<UnitState, isa::kNumUnits> units;     ///< load, compute, store
  std::optional<isa::TokenMachine<Token>> tokens;  ///< token queues
  std::unique_ptr<RaceTracker> races;              ///< shared-buffer race checker
  std::unique_ptr<DramPort> port;                  ///< the DRAM port's arbitration and channel
  std::vector<int> labelOf;                        ///< per pc: its label's index in stats.labels, or -1
  bool active = false;                             ///< running
  bool trace = false;                              ///< record slices
  bool finishing = false;                          ///< FINISH started, waiting for the other units
  std::optional<support::Diagnostic> error;  ///< why the run stopped early
  sc_core::sc_time start;                    ///< when the run began
  CycleStats stats;                          ///< what it measured
  Location at(uint64_t pc) const { return Location::pc(name, pc); }
};

/// One unit of the accelerator (fetch, load, compute, store) as its own
/// module: a thread that runs the unit's loop.
class UnitModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(UnitModule);
  UnitModule(const sc_core::sc_module_name& n, std::function<void()> loop) : sc_core::sc_module(n), loop_(std::move(loop)) {
    SC_THREAD(main);
  }

 private:
  void main() { loop_(); }
  std::function<void()> loop_;
};

/// The DRAM port as a module: the units submit DMAs to its arbitration
/// (simulator/timing/dram_port.h) and wait for their completion, which moves
/// whenever another DMA is submitted.
class DramPortModule : public sc_core::sc_module {
 public:
  DramPortModule(const sc_core::sc_module_name& n, sc_core::sc_event& abort) : sc_core::sc_module(n), abort_(abort) {}
  /// Starts a run's port at time `start`; `active` turns false when the run stops.
  void begin(DramPort* port, sc_core::sc_time start, const bool* active) { port_ = port, start_ = start, active_ = active; }
  /// Queues DMA `d` of `r`, its first request visible in cycle `from`; returns its number.
  uint64_t submit(Requester r, const DmaShape& d, uint64_t from) {
    const uint64_t id = port_->submit(r, d, from);
    changed_.notify(sc_core::SC_ZERO_TIME);
    return id;
  }
  /// Waits until DMA `id` of `r` completes; false when the run stopped.
  bool await(Requester r, uint64_t id) {
    for (;;) {
      const uint64_t now = static_cast<uint64_t>((sc_core::sc_time_stamp() - start_) / kCycle);
      port_->advance(now);
      const uint64_t done = port_->projectedDone(r, id);
      if (done <= now) {
        port_->release(r, id);
        return true;
      }
      wait(static_cast<double>(done - now) * kCycle, changed_ | abort_);
      if (!*active_) return false;
    }
  }

 private:
  sc_core::sc_event& abort_;
  sc_core::sc_event changed_;  ///< a DMA was submitted: projected completions may move
  DramPort* port_ = nullptr;
  sc_core::sc_time start_;
  const bool* active_ = nullptr;
};

/// The accelerator: the fetch, load, compute and store modules and the DRAM
/// port module over one RunCtx, with the command and token queues between them.
class Model : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Model);
  explicit Model(const sc_core::sc_module_name& n)
      : sc_core::sc_module(n),
        port("dram_port", abort),
        fetch_("fetch", [this] { fetch(); }),
        load_("load", [this] { unit(0); }),
        compute_("compute", [this] { unit(1); }),
        store_("store", [this] { unit(2); }) {}
  RunCtx* run = nullptr;             ///< the run in progress
  sc_core::sc_event start, abort;    ///< begin a run; leave every wait
  DramPortModule port;               ///< the DRAM port

 private:
  void fetch();
  /// Decodes instruction `pc` into the run's instruction list; false when it cannot.
  bool decode(uint64_t pc);
  /// Runs DMA `d` for `r` through the DRAM port from the next cycle; false when the run stopped.
  bool dma(Requester r, const DmaShape& d);
  /// The current cycle, counted from the run's start.
  uint64_t now() const { return static_cast<uint64_t>((sc_core::sc_time_stamp() - run->start) / kCycle); }
  void unit(int u);
  /// Starts, executes and retires the instruction at the head of `u`; false when the run stopped.
  bool execute(int u, const isa::Instruction& insn, uint64_t pc);
  /// Widens the span of the label holding `pc` by an instruction that ran from `began` to now.
  void span(uint64_t pc, uint64_t began) {
    if (pc >= run->labelOf.size() || run->labelOf[pc] < 0) return;
    LabelCycles& l = run->stats.labels[static_cast<size_t>(run->labelOf[pc])];
    if (l.first == l.last) l.first = began;
    l.first = std::min(l.first, began), l.last = std::max(l.last, now());
  }
  /// Keeps unit `u` busy with `insn` (`n` cycles alone on the DRAM port); false when the run stopped.
  bool occupy(int u, const isa::Instruction& insn, uint64_t n);
  /// FINISH: waits for the load and store units, retires, ends the run.
  bool finish(const isa::Instruction& insn);
  /// Pushes the tokens of `insn` on unit `u`, visible next cycle.
  void pushTokens(int u, const isa::Instruction& insn);
  /// Waits until what `w` names changes; false when the run stopped.
  bool waitFor(const isa::TokenWait& w);
  void fail(support::Diagnostic d) {
    if (!run->error) run->error = std::move(d);
    stop();
  }
  void stop() {
    run->active = false;
    abort.notify();
  }
  bool cycles(uint64_t n) {
    if (n) wait(static_cast<double>(n) * kCycle, abort);
    return run->active;
  }
  bool until(const sc_core::sc_time& t) { return t <= sc_core::sc_time_stamp() || cycles(static_cast<uint64_t>((t - sc_core::sc_time_stamp()) / kCycle)); }
  bool on(const sc_core::sc_event& e) {
    wait(e | abort);
    return run->active;
  }
  bool idle(int u) const { return !run->units[u].busy && run->units[u].cmd.empty(); }

  sc_core::sc_event cmdPush_[isa::kNumUnits], cmdPop_[isa::kNumUnits];
  sc_core::sc_event tokPush_[isa::kNumTokenQueues], tokPop_[isa::kNumTokenQueues], unitDone_;
  UnitModule fetch_, load_, compute_, store_;  ///< the units' threads
};

void Model::fetch() {
  for (;;) {
    wait(start);
    const isa::Target& t = *run->t;
    const uint64_t ib = t.insnBytes(), textBytes = run->fetch.count * ib,
                   burst = static_cast<uint64_t>(t.spec.timing.maxBurst);
    std::vector<uint64_t> ids((textBytes + burst - 1) / burst);
    auto burstOf = [&](uint64_t pc) { return (pc * ib + ib - 1) / burst; };
    auto request = [&](uint64_t k, uint64_t from) {
      if (k >= ids.size()) return;
      ids[k] = port.submit(Requester::kFetch, {1, static_cast<int64_t>(std::min(burst, textBytes - k * burst)), false}, from);
    };
    request(0, 0), request(1, 0);
    uint64_t arrived = 0;  // text bursts whose data is in the fetch buffer
    while (run->active) {
      const uint64_t pc = run->fetch.pc;
      if (pc >= run->fetch.count) {
        fail(error(run->at(pc),
                   "the program ends without FINISH (" + std::to_string(run->fetch.count) + " instructions)"));
        break;
      }
      const uint64_t k = burstOf(pc), waitFrom = now();
      while (arrived <= k && port.await(Requester::kFetch, ids[arrived])) ++arrived;
      if (!run->active) break;
      run->stats.fetchWait += now() - waitFrom;
      if (run->fetch.insns.size() == pc && !decode(pc)) break;
      const int u = static_cast<int>(isa::unitOf(run->fetch.insns[pc]));
      const bool poppedNow = run->units[u].popped && run->units[u].lastPop == sc_core::sc_time_stamp();
      if (run->units[u].cmd.size() + (poppedNow ? 1 : 0) >= static_cast<size_t>(t.spec.commandDepth)) {
        // A slot freed in cycle t is refilled in t + 1, whichever process ran first in t.
        if (!(poppedNow || on(cmdPop_[u])) || !cycles(1)) break;
        continue;
      }
      run->units[u].cmd.push_back({pc, sc_core::sc_time_stamp() + kCycle});
      cmdPush_[u].notify();
      ++run->fetch.pc;
      if (pc + 1 == run->fetch.count || burstOf(pc + 1) != k) request(k + 2, now() + 1);  // half the buffer is free
      if (run->fetch.insns[pc].opcode == isa::Opcode::kFinish || !cycles(1)) break;
    }
  }
}

bool Model::decode(uint64_t pc) {
  const isa::Target& t = *run->t;
  const uint64_t addr = run->fetch.textAddr + pc * t.insnBytes();
  if (!run->dram->contains(addr, t.insnBytes())) {
    fail(error(run->at(pc), "instruction fetch outside the DRAM window (byte " + std::to_string(addr) + ")"));
    return false;
  }
  auto insn = isa::decodeInstruction(t, run->dram->at(addr), run->at(pc));
  if (!insn) {
    fail(insn.diag());
    return false;
  }
  if (std::string why = isa::flagError(*insn); !why.empty()) {
    fail(error(run->at(pc), why));
    return false;
  }
  run->fetch.insns.push_back(*insn);
  run->stats.counters.fetchBytes += t.insnBytes();
  run->stats.counters.dramReadBytes += t.insnBytes();
  return true;
}

bool Model::dma(Requester r, const DmaShape& d) { return port.await(r, port.submit(r, d, now() + 1)); }

void Model::unit(int u) {
  for (;;) {
    wait(start);
    while (run->active) {
      if (run->units[u].cmd.empty()) {
        if (!on(cmdPush_[u])) break;
        continue;
      }
      const Cmd c = run->units[u].cmd.front();
      if (!until(c.visible)) break;
      const isa::Instruction insn = run->fetch.insns[c.pc];  // a copy: fetch may grow the vector meanwhile
      // Tokens: each popped one visible, each pushed queue with room.
      const sc_core::sc_time waitFrom = sc_core::sc_time_stamp();
      auto visible = [](const Token& k) { return k.visible <= sc_core::sc_time_stamp(); };
      bool ok = true;
      for (isa::TokenWait w = run->tokens->wait(insn, visible); ok && w; w = run->tokens->wait(insn, visible))
        ok = waitFor(w);
      if (!ok) break;
      run->stats.tokenWait[u] += static_cast<uint64_t>((sc_core::sc_time_stamp() - waitFrom) / kCycle);
      if (!execute(u, insn, c.pc)) break;
    }
  }
}

void Model::pushTokens(int u, const isa::Instruction& insn) {
  run->stats.counters.tokens +=
      static_cast<uint64_t>(run->tokens->push(insn, {sc_core::sc_time_stamp() + kCycle, run->units[u].vc}));
  for (int q : isa::pushQueues(insn))
    if (q != isa::kNoQueue) tokPush_[q].notify();
}

bool Model::waitFor(const isa::TokenWait& w) {
  switch (w.kind) {
    case isa::TokenWait::kEmpty:
      return on(tokPush_[w.queue]);
    case isa::TokenWait::kNotVisible:
      return until(run->tokens->queue(w.queue).front().visible);
    case isa::TokenWait::kFull:
      return on(tokPop_[w.queue]);
    case isa::TokenWait::kReady:
      return true;
  }
  return true;
}

bool Model::execute(int u, const isa::Instruction& insn, uint64_t pc) {
  run->units[u].cmd.pop_front();
  run->units[u].lastPop = sc_core::sc_time_stamp(), run->units[u].popped = true;
  cmdPop_[u].notify();
  run->tokens->pop(insn, [&](const Token& k) {
    for (int i = 0; i < isa::kNumUnits; ++i) run->units[u].vc[i] = std::max(run->units[u].vc[i], k.clock[i]);
  });
  for (int q : isa::popQueues(insn))
    if (q != isa::kNoQueue) tokPop_[q].notify();
  ++run->units[u].vc[u];
  if (insn.opcode == isa::Opcode::kFinish) return finish(insn);
  const int64_t cost = instructionCycles(insn, run->t->spec);
  if (cost < 1) {  // malformed loops: the datapath names what is wrong
    Status st = run->dp->execute(insn, pc, run->name, nullptr);
    fail(st ? error(run->at(pc), "the instruction takes no cycles") : st.diag());
    return false;
  }
  run->units[u].busy = true, run->units[u].pc = pc;
  const uint64_t n = static_cast<uint64_t>(cost), began = now();
  run->stats.busy[u] += n;
  if (!occupy(u, insn, n)) return false;
  run->stats.dramStall[u] += now() - began - n;
  if (run->trace) run->stats.slices.push_back({u, pc, insn.opcode, began, now()});
  span(pc, began);
  run->races->begin(isa::Unit(u), run->units[u].vc, pc);
  if (Status st = run->dp->execute(insn, pc, run->name, run->races.get()); !st) {
    fail(st.diag());
    return false;
  }
  if (run->races->race()) {
    fail(*run->races->race());
    return false;
  }
  pushTokens(u, insn);
  ++run->stats.counters.insns[static_cast<int>(insn.opcode)];
  run->units[u].busy = false;
  unitDone_.notify();
  return true;
}

bool Model::occupy(int u, const isa::Instruction& insn, uint64_t n) {
  if (insn.opcode != isa::Opcode::kLoad && insn.opcode != isa::Opcode::kStore) return cycles(n);
  const Requester r = u == 0 ? Requester::kLoad : u == 1 ? Requester::kCompute : Requester::kStore;
  return dma(r, dmaShapeOf(insn, run->t->spec)) && cycles(static_cast<uint64_t>(padCycles(insn)));
}

bool Model::finish(const isa::Instruction& insn) {
  run->finishing = true;
  while (!(idle(0) && idle(2)))
    if (!on(unitDone_)) return false;
  run->finishing = false;
  run->units[1].busy = true;
  const uint64_t began = static_cast<uint64_t>((sc_core::sc_time_stamp() - run->start) / kCycle);
  if (!cycles(1)) return false;
  if (run->trace) run->stats.slices.push_back({1, run->fetch.pc - 1, isa::Opcode::kFinish, began, began + 1});
  span(run->fetch.pc - 1, began);
  run->units[1].busy = false;
  pushTokens(1, insn);
  ++run->stats.counters.insns[static_cast<int>(isa::Opcode::kFinish)];
  if (std::optional<std::string> left = run->tokens->leftover()) {
    fail(error(run->at(run->fetch.pc - 1), *left));
    return false;
  }
  run->stats.cycles = static_cast<uint64_t>((sc_core::sc_time_stamp() - run->start) / kCycle);
  stop();
  return false;
}

/// The process's one elaboration. SystemC elaborates a design once per
/// process (no module may be made after sc_start), so the model is made by
/// the first CycleSim::create and serves every CycleSim of the process after
/// it, one run at a time, until the process ends.
class Elaboration {
 public:
  /// The model, made for `t` on first use; an error when it holds another hwspec.
  static Expected<Model*> modelFor(const isa::Target& t) {
    static Elaboration e;
    if (e.model_ && e.hash_ != t.hash)
      return error(Location(), "the cycle model is elaborated once per process and this one holds hwspec '" + e.spec_ +
                                   "'; run hwspec '" + t.spec.name + "' in another process");
    if (!e.model_) {
      ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
      e.model_ = std::make_unique<Model>("accel");
      e.hash_ = t.hash, e.spec_ = t.spec.name;
      sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate; every thread now waits for a run
    }
    return e.model_.get();
  }

 private:
  std::unique_ptr<Model> model_;  ///< the model
  uint64_t hash_ = 0;             ///< the hwspec it was made for
  std::string spec_;              ///< that hwspec's name
};

bool fetchedFinish(const RunCtx& r) {
  return r.fetch.pc > 0 && r.fetch.pc <= r.fetch.insns.size() &&
         r.fetch.insns[r.fetch.pc - 1].opcode == isa::Opcode::kFinish;
}

support::Diagnostic deadlock(const RunCtx& r) {
  isa::StallView v;
  v.program = r.name;
  for (int u = 0; u < isa::kNumUnits; ++u) {
    v.units[u].busy = r.units[u].busy;
    if (!r.units[u].cmd.empty())
      v.units[u].head = &r.fetch.insns[r.units[u].cmd.front().pc], v.units[u].pc = r.units[u].cmd.front().pc;
  }
  v.fetchPc = r.fetch.pc;
  v.finishFetched = fetchedFinish(r);
  if (r.fetch.pc < r.fetch.insns.size()) v.fetchNext = &r.fetch.insns[r.fetch.pc];
  v.finishing = r.finishing;
  v.cycle = static_cast<uint64_t>((sc_core::sc_time_stamp() - r.start) / kCycle);
  return r.tokens->deadlock(v);
}

/// The oldest instruction a unit executes or holds: where a stopped run is.
uint64_t oldestPc(const RunCtx& r) {
  uint64_t pc = r.fetch.pc;
  for (const UnitState& u : r.units) {
    if (u.busy) pc = std::min(pc, u.pc);
    if (!u.cmd.empty()) pc = std::min(pc, u.cmd.front().pc);
  }
  return pc;
}

/// Runs the started run `r` in slices of `limits.progressStep` cycles, reporting
/// progress between them, until it ends (nullopt), starves before FINISH
/// (the deadlock diagnostic) or reaches the cycle limit.
std::optional<support::Diagnostic> simulate(RunCtx& r, const isa::RunLimits& limits) {
  const double step = static_cast<double>(std::max<uint64_t>(limits.progressStep, 1));
  while (true) {
    const uint64_t now = static_cast<uint64_t>((sc_core::sc_time_stamp() - r.start) / kCycle);
    if (now >= limits.maxCycles) return isa::limitReached(r.name, oldestPc(r), "max-cycles", limits.maxCycles, "cycles");
    const double slice = std::min(step, static_cast<double>(limits.maxCycles - now));
    // To the slice's end: a unit may wait past it in one wait, which
    // SC_EXIT_ON_STARVATION would take for starvation without moving time.
    sc_core::sc_start(slice * kCycle, sc_core::SC_RUN_TO_TIME);
    if (!r.active) return std::nullopt;
    if (!sc_core::sc_pending_activity()) return deadlock(r);
    if (limits.progress) {
      uint64_t insns = 0;
      for (uint64_t n : r.stats.counters.insns) insns += n;
      limits.progress({insns, 0, static_cast<uint64_t>((sc_core::sc_time_stamp() - r.start) / kCycle), r.fetch.pc});
    }
  }
}

}  // namespace

struct CycleSim::State {
  explicit State(const hwspec::HwSpec& s) : dram(static_cast<uint64_t>(s.dramWindowBytes)), srams(s) {}
  isa::DramImage dram;
  Srams srams;
};

CycleSim::CycleSim(const isa::Target& t) : t_(t), state_(std::make_unique<State>(t.spec)) {}
CycleSim::~CycleSim() = default;

Expected<std::unique_ptr<CycleSim>> CycleSim::create(const isa::Target& t) {
  ACCELC_TRY(Elaboration::modelFor(t).status());
  return std::unique_ptr<CycleSim>(new CycleSim(t));
}

Status CycleSim::write(uint64_t addr, const void* data, uint64_t n) { return state_->dram.write(addr, data, n); }

Expected<uint8_t*> CycleSim::writable(uint64_t addr, uint64_t n) { return state_->dram.writable(addr, n); }

Expected<const uint8_t*> CycleSim::readable(uint64_t addr, uint64_t n) const { return state_->dram.readable(addr, n); }

Status CycleSim::read(uint64_t addr, void* out, uint64_t n) const { return state_->dram.read(addr, out, n); }

Status CycleSim::loadProgram(const isa::Program& p) { return state_->dram.loadProgram(p); }

void CycleSim::checkDefined() { state_->srams.trackDefined(); }

Expected<CycleStats> CycleSim::run(const isa::Program& p, const std::string& name) {
  if (p.hash != t_.hash)
    return error(Location::file(name), "the program was built for another hwspec than this device's ('" +
                                           t_.spec.name + "')");
  ACCELC_ASSIGN_OR_RETURN(Model * model, Elaboration::modelFor(t_));
  Model& m = *model;
  RunCtx r;
  r.t = &t_, r.name = name, r.dram = &state_->dram;
  r.dp = std::make_unique<Datapath>(t_, state_->dram, p.window, state_->srams, r.stats.counters);
  r.fetch.textAddr = p.text().addr, r.fetch.count = p.text().bytes.size() / t_.insnBytes();
  r.races = std::make_unique<RaceTracker>(t_.spec.depth(hwspec::BufferKind::kInput), t_.spec.depth(hwspec::BufferKind::kWeight),
                                          t_.spec.depth(hwspec::BufferKind::kOutput), name);
  r.port = std::make_unique<DramPort>(t_.spec);
  r.tokens.emplace(static_cast<uint64_t>(t_.spec.tokenDepth));
  r.labelOf.assign(r.fetch.count, -1);
  for (const isa::Label& l : p.labels) {
    for (uint64_t pc = l.begin; pc < std::min<uint64_t>(l.end, r.fetch.count); ++pc)
      r.labelOf[pc] = static_cast<int>(r.stats.labels.size());
    r.stats.labels.push_back({l.name, 0, 0});
  }
  r.active = true, r.trace = trace_, r.start = sc_core::sc_time_stamp();
  m.port.begin(r.port.get(), r.start, &r.active);
  m.run = &r;
  m.start.notify(sc_core::SC_ZERO_TIME);
  if (std::optional<support::Diagnostic> stop = simulate(r, limits_)) {
    r.error = std::move(stop);
    r.active = false;
    m.abort.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();
  }
  m.run = nullptr;
  if (r.error) return *r.error;
  return r.stats;
}

}  // namespace accelc::simulator
