// compiler/tune/tune_log.cc — reading, merging and writing tuning logs.
#include "compiler/tune/tune_log.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "compiler/build_identity.h"
#include "support/hash.h"
#include "support/yaml.h"

namespace accelc::compiler::tune {

using support::Expected;
using support::Location;
using support::Status;

namespace {

nlohmann::ordered_json entryJson(const TuneEntry& e) {
  return {{"key", e.key},           {"kind", e.kind},     {"layers", e.layers},
          {"hwspec", e.hwspec},     {"build", e.build},   {"schedule", choiceJson(e.choice)},
          {"cycles", e.cycles},     {"untuned_cycles", e.untunedCycles},
          {"estimate", e.estimate}, {"why", e.why}};
}

/// Line `line` of the log at `path` as an entry, or what is wrong with it.
Expected<TuneEntry> parseEntry(const std::string& text, const std::string& path, int line) {
  const Location at = Location::file(path, line);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return support::error(at, "expected one JSON object per line");
  TuneEntry e;
  auto string = [&](const char* key, std::string& out) -> Status {
    if (!j.contains(key) || !j[key].is_string())
      return support::error(at, std::string("expected a string \"") + key + "\"");
    out = j[key].get<std::string>();
    return Status::ok();
  };
  auto integer = [&](const char* key, int64_t& out) -> Status {
    if (!j.contains(key) || !j[key].is_number_integer())
      return support::error(at, std::string("expected an integer \"") + key + "\"");
    out = j[key].get<int64_t>();
    return Status::ok();
  };
  ACCELC_TRY(string("key", e.key));
  ACCELC_TRY(string("kind", e.kind));
  ACCELC_TRY(string("hwspec", e.hwspec));
  ACCELC_TRY(string("build", e.build));
  ACCELC_TRY(integer("cycles", e.cycles));
  ACCELC_TRY(integer("untuned_cycles", e.untunedCycles));
  ACCELC_TRY(integer("estimate", e.estimate));
  if (j.contains("why") && j["why"].is_string()) e.why = j["why"].get<std::string>();
  if (j.contains("layers") && j["layers"].is_array())
    for (const auto& n : j["layers"])
      if (n.is_string()) e.layers.push_back(n.get<std::string>());
  if (!j.contains("schedule")) return support::error(at, "expected a \"schedule\"");
  Expected<ScheduleChoice> c = parseChoice(j["schedule"], e.kind);
  if (!c) return support::error(at, c.diag().message);
  e.choice = *c;
  return e;
}

bool sameSlot(const TuneEntry& a, const TuneEntry& b) {
  return a.key == b.key && a.hwspec == b.hwspec && a.build == b.build;
}

}  // namespace

std::string hwspecHash(const hwspec::HwSpec& hw) { return support::hex64(support::fnv1a64(hw.canonicalYaml())); }

std::string buildIdentity() { return ACCELC_BUILD_IDENTITY; }

std::vector<TuneEntry> entriesOf(const std::vector<LayerTuning>& tuned, const hwspec::HwSpec& hw) {
  std::vector<TuneEntry> out;
  for (const LayerTuning& l : tuned) {
    const Candidate &c = l.candidates[l.chosen], &u = l.candidates[l.untuned];
    out.push_back({l.key, l.kind, l.names, hwspecHash(hw), buildIdentity(), c.choice, c.measured, u.measured,
                   c.estimate, l.why});
  }
  return out;
}

Expected<std::vector<TuneEntry>> readTuneLog(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(std::string text, support::readTextFile(path));
  std::vector<TuneEntry> out;
  std::istringstream in(text);
  int line = 0;
  for (std::string s; std::getline(in, s);) {
    ++line;
    if (s.find_first_not_of(" \t\r") == std::string::npos) continue;
    ACCELC_ASSIGN_OR_RETURN(TuneEntry e, parseEntry(s, path, line));
    out.push_back(std::move(e));
  }
  return out;
}

Status writeTuneLog(const std::string& path, const std::vector<TuneEntry>& entries) {
  std::vector<TuneEntry> kept;
  if (std::filesystem::exists(path)) {
    ACCELC_ASSIGN_OR_RETURN(kept, readTuneLog(path));
    kept.erase(std::remove_if(kept.begin(), kept.end(),
                              [&](const TuneEntry& old) {
                                return std::any_of(entries.begin(), entries.end(),
                                                   [&](const TuneEntry& e) { return sameSlot(e, old); });
                              }),
               kept.end());
  }
  std::string text;
  for (const std::vector<TuneEntry>* part : {static_cast<const std::vector<TuneEntry>*>(&kept), &entries})
    for (const TuneEntry& e : *part)  // names that are not UTF-8 (ONNX does not check them) written as U+FFFD
      text += entryJson(e).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  const std::string work = path + ".part." + std::to_string(::getpid());
  ACCELC_TRY(support::writeTextFile(work, text));
  if (std::rename(work.c_str(), path.c_str()) != 0) {
    std::remove(work.c_str());
    return support::error(Location::file(path), "cannot write the tuning log");
  }
  return Status::ok();
}

TunedSchedules applicable(const std::vector<TuneEntry>& entries, const hwspec::HwSpec& hw,
                          std::vector<std::string>* notes) {
  const std::string hash = hwspecHash(hw), build = buildIdentity();
  TunedSchedules out;
  for (const TuneEntry& e : entries) {
    const std::string layer = e.layers.empty() ? e.key : e.layers.front();
    if (e.hwspec != hash || e.build != build) {
      if (notes)
        notes->push_back("tuning log: " + layer + ": ignored, tuned " +
                         (e.hwspec != hash ? "for another hwspec (" + e.hwspec + ", this one is " + hash + ")"
                                           : "by another compiler build (" + e.build + ", this one is " + build + ")"));
      continue;
    }
    out[e.key] = TunedChoice{e.choice, e.why};
  }
  return out;
}

}  // namespace accelc::compiler::tune
