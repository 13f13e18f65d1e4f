// compiler/tune/tuner.cc — estimate, measure, choose.
#include "compiler/tune/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "compiler/lower/cost.h"
#include "compiler/tune/measure.h"

namespace accelc::compiler::tune {

namespace {

using Clock = std::chrono::steady_clock;

bool sameChoice(const ScheduleChoice& a, const ScheduleChoice& b) { return choiceJson(a) == choiceJson(b); }

/// One key's work: the layer it lowers, its tuning, and its candidates' programs until they are measured.
struct KeyWork {
  TunableLayer layer;
  LayerTuning tuning;
  std::vector<isa::Program> programs;  ///< per candidate
};

/// A candidate's program and estimate, or nothing when it does not encode.
std::optional<std::pair<isa::Program, std::pair<int64_t, int64_t>>> estimated(const TunableLayer& l, const ScheduleChoice& c,
                                                          const isa::Target& t, bool serialize) {
  auto p = choiceProgram(l, c, t, serialize);
  if (!p) return std::nullopt;
  auto cycles = lower::programCycles(*p, t);  // decoded once for both estimates
  if (!cycles) return std::nullopt;
  return std::make_pair(std::move(*p),
                        std::make_pair(lower::contendedEstimate(*cycles, t), lower::aloneEstimate(*cycles, t)));
}

/// Phase 1 for one key: its untuned choice and the legal choices the budget allows, replayed with the cost
/// model and sorted by estimate.
support::Status estimateKey(KeyWork& w, const isa::Target& t, const TuneOptions& o, Clock::time_point until) {
  ACCELC_ASSIGN_OR_RETURN(ScheduleChoice untuned, untunedChoice(w.layer, t, o.serialize));
  ACCELC_ASSIGN_OR_RETURN(std::vector<ScheduleChoice> legal, legalChoices(w.layer, t.spec));
  w.tuning.legal = legal.size();
  const bool conv = std::holds_alternative<lower::ConvSchedule>(untuned);
  if (conv && legal.size() > 2 * o.estimated) legal.resize(2 * o.estimated);  // two ALU forms per tiling
  std::vector<std::pair<Candidate, isa::Program>> tried;
  auto attempt = [&](const ScheduleChoice& c) {
    if (std::any_of(tried.begin(), tried.end(), [&](const auto& e) { return sameChoice(e.first.choice, c); })) return;
    if (auto e = estimated(w.layer, c, t, o.serialize))
      tried.push_back({Candidate{c, e->second.first, e->second.second, -1, ""}, std::move(e->first)});
  };
  attempt(untuned);
  if (tried.empty())
    return support::error(support::Location::node(layerName(w.layer), layerName(w.layer)),
                          "the untuned schedule (" + describeChoice(untuned) + ") does not encode");
  for (const ScheduleChoice& c : legal) {
    if (Clock::now() >= until) break;
    attempt(c);
  }
  std::stable_sort(tried.begin(), tried.end(),
                   [](const auto& a, const auto& b) { return a.first.estimate < b.first.estimate; });
  for (auto& [cand, program] : tried) {
    if (sameChoice(cand.choice, untuned)) w.tuning.untuned = w.tuning.candidates.size();
    w.tuning.candidates.push_back(std::move(cand));
    w.programs.push_back(std::move(program));
  }
  return support::Status::ok();
}

/// The measuring order: every key's untuned choice, then round by round each key's next best estimate.
std::vector<std::pair<size_t, size_t>> measuringOrder(const std::vector<KeyWork>& keys, size_t perKey) {
  std::vector<std::pair<size_t, size_t>> order;
  for (size_t k = 0; k < keys.size(); ++k) order.emplace_back(k, keys[k].tuning.untuned);
  for (size_t round = 0; round < perKey; ++round)
    for (size_t k = 0; k < keys.size(); ++k) {
      const LayerTuning& l = keys[k].tuning;
      // The round-th candidate other than the untuned one.
      const size_t c = round + (round >= l.untuned ? 1 : 0);
      if (c < l.candidates.size()) order.emplace_back(k, c);
    }
  return order;
}

std::string cyclesText(int64_t c) { return std::to_string(c) + " cycles"; }

/// Picks the fastest measured candidate and says why in one line.
void choose(LayerTuning& l) {
  std::vector<size_t> measured;
  for (size_t i = 0; i < l.candidates.size(); ++i)
    if (l.candidates[i].measured >= 0) measured.push_back(i);
  // Fastest first; a tie goes to the untuned choice, then to the better estimate.
  std::stable_sort(measured.begin(), measured.end(), [&](size_t a, size_t b) {
    const Candidate &ca = l.candidates[a], &cb = l.candidates[b];
    if (ca.measured != cb.measured) return ca.measured < cb.measured;
    return (a == l.untuned) > (b == l.untuned);
  });
  l.chosen = measured.empty() ? l.untuned : measured.front();
  l.runnerUp = measured.size() > 1 ? static_cast<int64_t>(measured[1]) : -1;
  const Candidate& c = l.candidates[l.chosen];
  const size_t rank = l.chosen + 1;
  l.why = std::to_string(measured.size()) + " of " + std::to_string(l.legal) + " legal schedules measured; " +
          cyclesText(c.measured) + ", ranked " + std::to_string(rank) + " by the cost model";
  if (l.runnerUp >= 0) {
    const Candidate& r = l.candidates[static_cast<size_t>(l.runnerUp)];
    l.why += ", " + std::to_string(r.measured - c.measured) + " fewer than the runner-up (" + describeChoice(r.choice) +
             ": " + cyclesText(r.measured) + ")";
  }
  const Candidate& u = l.candidates[l.untuned];
  l.why += l.chosen == l.untuned ? "; the untuned choice"
                                 : "; the untuned choice took " + std::to_string(u.measured - c.measured) + " more";
}

}  // namespace

double estimateErrorPct(const LayerTuning& l, bool alone) {
  const Candidate& c = l.candidates[l.chosen];
  const int64_t e = alone ? c.alone : c.estimate;
  return c.measured > 0 ? 100.0 * std::abs(static_cast<double>(e - c.measured)) / static_cast<double>(c.measured) : 0.0;
}

support::Expected<std::vector<LayerTuning>> tuneLayers(const std::vector<TunableLayer>& layers, const isa::Target& t,
                                                       const TuneOptions& o) {
  const Clock::time_point start = Clock::now();
  // A point in time `seconds` after the start; past a year it is "no limit" (dse --tune measures by count).
  auto after = [&](double seconds) {
    if (!(seconds < 365.0 * 24 * 3600)) return Clock::time_point::max();
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  };
  std::vector<KeyWork> keys;
  std::map<std::string, size_t> byKey;
  for (const TunableLayer& l : layers) {
    const std::string key = layerKey(l, t.spec);
    auto [it, fresh] = byKey.emplace(key, keys.size());
    if (fresh) keys.push_back({l, LayerTuning{key, layerKind(l), {}, 0, {}, 0, 0, -1, ""}, {}});
    std::vector<std::string>& names = keys[it->second].tuning.names;
    if (std::find(names.begin(), names.end(), layerName(l)) == names.end()) names.push_back(layerName(l));
  }
  // Phase 1: half the budget at most, every key its share of it.
  for (size_t k = 0; k < keys.size(); ++k) {
    if (o.progress) o.progress("estimate", k, keys.size());
    const Clock::time_point until = after(o.budgetSeconds / 2 * static_cast<double>(k + 1) / static_cast<double>(keys.size()));
    ACCELC_TRY(estimateKey(keys[k], t, o, until));
  }
  if (o.progress) o.progress("estimate", keys.size(), keys.size());
  // Phase 2: the cycle model, until the budget's end.
  const std::vector<std::pair<size_t, size_t>> order = measuringOrder(keys, o.measured);
  std::vector<MeasureJob> programs;
  programs.reserve(order.size());
  for (const auto& [k, c] : order) {
    // Four times the estimate (which never exceeds the count) bounds a candidate the model misjudges badly.
    const uint64_t limit = 4 * static_cast<uint64_t>(keys[k].tuning.candidates[c].estimate) + 100000;
    programs.push_back({std::move(keys[k].programs[c]), limit});
  }
  for (KeyWork& k : keys) k.programs.clear();
  auto progress = [&](size_t n) {
    if (o.progress) o.progress("measure", n, order.size());
  };
  ACCELC_ASSIGN_OR_RETURN(std::vector<Measurement> m, measurePrograms(programs, keys.size(), t, o.jobs, after(o.budgetSeconds), progress));
  std::vector<LayerTuning> out;
  for (size_t i = 0; i < order.size(); ++i) {
    Candidate& c = keys[order[i].first].tuning.candidates[order[i].second];
    c.measured = m[i].cycles, c.error = m[i].error;
  }
  for (KeyWork& k : keys) {
    const Candidate& u = k.tuning.candidates[k.tuning.untuned];
    if (u.measured < 0)
      return support::error(support::Location::node(layerName(k.layer), layerName(k.layer)),
                            "the untuned schedule could not be measured: " + u.error);
    choose(k.tuning);
    out.push_back(std::move(k.tuning));
  }
  return out;
}

}  // namespace accelc::compiler::tune
