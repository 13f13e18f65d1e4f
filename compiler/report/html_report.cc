// compiler/report/html_report.cc — the bundle report's page, plots drawn as inline SVG.
#include "compiler/report/html_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "compiler/report/svg.h"

namespace accelc::compiler {

namespace {

std::string fixed(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

/// Cycles a layer took: measured when it was, else estimated.
int64_t layerCycles(const LayerRow& l) {
  return l.measuredCycles ? static_cast<int64_t>(*l.measuredCycles) : l.estCycles;
}

std::string table(const BundleReport& r) {
  const bool measured = r.accelMeasuredCycles.has_value();
  std::ostringstream o;
  o << "<table>\n<thead><tr><th>layer</th><th>where</th><th>MACs</th><th>est. cycles</th>"
    << (measured ? "<th>measured cycles</th><th>host ms</th>" : "")
    << "<th>roofline</th><th>datapath bound</th><th>util. %</th><th>why</th></tr></thead>\n<tbody>\n";
  for (const LayerRow& l : r.layers) {
    const bool accel = l.where == "accelerator";
    o << "<tr class=\"layer" << (accel ? "" : " host") << "\"><td class=\"text\">" << xmlText(l.layer) << "</td><td class=\"text\">"
      << l.where << "</td><td>" << l.macs << "</td><td>" << l.estCycles << "</td>";
    if (measured)
      o << "<td>" << (l.measuredCycles ? std::to_string(*l.measuredCycles) : "") << "</td><td>"
        << (l.hostMs ? fixed(*l.hostMs, 3) : "") << "</td>";
    o << "<td>" << l.rooflineCycles << "</td><td>"
      << (l.gemmAluCycles ? std::to_string(std::max(l.rooflineCycles, *l.gemmAluCycles)) : "") << "</td><td>"
      << fixed(l.utilizationPct, 1) << "</td><td class=\"text\">" << xmlText(l.why) << "</td></tr>\n";
  }
  o << "</tbody>\n</table>\n";
  return o.str();
}

/// The roofline plot: log-log, intensity against attained MACs per cycle.
std::string roofline(const BundleReport& r, const hwspec::HwSpec& hw) {
  const double peak = static_cast<double>(hw.peakMacsPerCycle()), bw = static_cast<double>(hw.dramBytesPerCycle);
  struct Mark {
    const LayerRow* l;
    double x, y;
  };
  std::vector<Mark> marks;
  for (const LayerRow& l : r.layers)
    if (l.where == "accelerator" && l.macs > 0 && l.dramBytes > 0 && layerCycles(l) > 0)
      marks.push_back({&l, static_cast<double>(l.macs) / static_cast<double>(l.dramBytes),
                       static_cast<double>(l.macs) / static_cast<double>(layerCycles(l))});
  const double ridge = peak / bw;
  double xlo = ridge / 10, xhi = ridge * 10, ylo = peak / 100, yhi = peak * 2;
  for (const Mark& m : marks) xlo = std::min(xlo, m.x / 2), xhi = std::max(xhi, m.x * 2), ylo = std::min(ylo, m.y / 2);
  const double w = 720, h = 440, left = 80, right = 30, top = 40, bottom = 60;
  auto px = [&](double x) { return left + std::log10(x / xlo) / std::log10(xhi / xlo) * (w - left - right); };
  auto py = [&](double y) { return h - bottom - std::log10(y / ylo) / std::log10(yhi / ylo) * (h - top - bottom); };
  std::ostringstream o;
  o << "<svg class=\"roofline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<style>.mark{fill:#2563eb;fill-opacity:0.75}.roof{stroke:#c2410c;stroke-width:2;fill:none}"
       ".axis{stroke:#333}.grid{stroke:#e5e7eb}</style>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (double t : decades(xlo, xhi))
    o << "<line class=\"grid\" x1=\"" << px(t) << "\" y1=\"" << top << "\" x2=\"" << px(t) << "\" y2=\"" << h - bottom
      << "\"/><text x=\"" << px(t) << "\" y=\"" << h - bottom + 16 << "\" text-anchor=\"middle\">" << svgNumber(t)
      << "</text>\n";
  for (double t : decades(ylo, yhi))
    o << "<line class=\"grid\" x1=\"" << left << "\" y1=\"" << py(t) << "\" x2=\"" << w - right << "\" y2=\"" << py(t)
      << "\"/><text x=\"" << left - 6 << "\" y=\"" << py(t) + 4 << "\" text-anchor=\"end\">" << svgNumber(t)
      << "</text>\n";
  o << "<line class=\"axis\" x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - right << "\" y2=\""
    << h - bottom << "\"/><line class=\"axis\" x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\""
    << h - bottom << "\"/>\n"
    << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 18
    << "\" text-anchor=\"middle\">arithmetic intensity (MACs per DRAM byte)</text>\n"
    << "<text transform=\"translate(18," << (top + h - bottom) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">attained MACs per cycle</text>\n";
  // The roof: DRAM-bound up to the ridge, then the GEMM core's peak.
  o << "<polyline class=\"roof\" points=\"" << px(xlo) << "," << py(std::max(ylo, bw * xlo)) << " " << px(ridge) << ","
    << py(peak) << " " << px(xhi) << "," << py(peak) << "\"><title>roof: " << svgNumber(peak) << " MACs per cycle, "
    << svgNumber(bw) << " DRAM bytes per cycle</title></polyline>\n";
  for (const Mark& m : marks)
    o << "<circle class=\"mark\" cx=\"" << px(m.x) << "\" cy=\"" << py(m.y) << "\" r=\"5\"><title>" << xmlText(m.l->layer)
      << ": " << svgNumber(m.x) << " MACs per byte, " << svgNumber(m.y) << " MACs per cycle ("
      << fixed(100.0 * m.y / peak, 1) << "% of peak)</title></circle>\n";
  o << "</svg>\n";
  return o.str();
}

/// Busy intervals merged where they lie closer than `gap` cycles, so that a lane draws at most one rectangle a pixel.
std::vector<std::pair<uint64_t, uint64_t>> merged(std::vector<std::pair<uint64_t, uint64_t>> v, uint64_t gap) {
  std::sort(v.begin(), v.end());
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& s : v) {
    if (!out.empty() && s.first <= out.back().second + gap) out.back().second = std::max(out.back().second, s.second);
    else out.push_back(s);
  }
  return out;
}

std::string timeline(const Timeline& t) {
  const double w = 1000, left = 90, right = 20, lane = 28, top = 20;
  const double h = top + 4 * lane + 40, span = static_cast<double>(std::max<uint64_t>(t.cycles, 1));
  auto px = [&](uint64_t c) { return left + static_cast<double>(c) / span * (w - left - right); };
  const uint64_t gap = static_cast<uint64_t>(span / (w - left - right));
  std::ostringstream o;
  o << "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<style>.span{stroke:white;stroke-width:1}.busy{fill:#2563eb}</style>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  const char* names[] = {"layers", "load", "compute", "store"};
  for (int i = 0; i < 4; ++i)
    o << "<text x=\"" << left - 8 << "\" y=\"" << top + i * lane + lane / 2 + 4 << "\" text-anchor=\"end\">" << names[i]
      << "</text>\n";
  for (size_t i = 0; i < t.layers.size(); ++i) {
    const Timeline::Span& s = t.layers[i];
    o << "<rect class=\"span\" x=\"" << px(s.start) << "\" y=\"" << top + 2 << "\" width=\""
      << std::max(0.5, px(s.end) - px(s.start)) << "\" height=\"" << lane - 4 << "\" fill=\""
      << (i % 2 ? "#93c5fd" : "#fdba74") << "\"><title>" << xmlText(s.name) << ": cycles " << s.start << " to " << s.end
      << "</title></rect>\n";
  }
  for (int u = 0; u < 3; ++u)
    for (const auto& [a, b] : merged(t.busy[static_cast<size_t>(u)], gap))
      o << "<rect class=\"busy\" x=\"" << px(a) << "\" y=\"" << top + (u + 1) * lane + 4 << "\" width=\""
        << std::max(0.5, px(b) - px(a)) << "\" height=\"" << lane - 8 << "\"/>\n";
  for (double c : ticks(0, span))
    o << "<text x=\"" << px(static_cast<uint64_t>(c)) << "\" y=\"" << h - 14 << "\" text-anchor=\"middle\">"
      << svgNumber(c) << "</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace

support::Expected<Timeline> timelineOf(const std::string& traceJson, size_t layers) {
  const nlohmann::json j = nlohmann::json::parse(traceJson, nullptr, false);
  if (j.is_discarded() || !j.contains("traceEvents") || !j["traceEvents"].is_array())
    return support::error(support::Location(), "the cycle model's trace does not parse");
  std::vector<const nlohmann::json*> spans;
  for (const auto& e : j["traceEvents"])
    if (e.value("ph", "") == "X" && e.value("tid", -1) == 0) spans.push_back(&e);
  if (spans.size() < layers || layers == 0)
    return support::error(support::Location(), "the trace holds " + std::to_string(spans.size()) +
                                                    " layer spans, fewer than the bundle's " + std::to_string(layers));
  // The last inference: its layers are the trace's last spans; times are cycles since the first run.
  const uint64_t start = (*spans[spans.size() - layers])["ts"].get<uint64_t>();
  Timeline t;
  for (size_t i = spans.size() - layers; i < spans.size(); ++i) {
    const auto& e = *spans[i];
    const uint64_t s = e["ts"].get<uint64_t>() - start, d = e["dur"].get<uint64_t>();
    std::string name = e.value("name", "");
    name = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
    t.layers.push_back({name, s, s + d});
    t.cycles = std::max(t.cycles, s + d);
  }
  for (const auto& e : j["traceEvents"]) {
    const int tid = e.value("tid", -1);
    if (e.value("ph", "") != "X" || tid < 1 || tid > 3 || e["ts"].get<uint64_t>() < start) continue;
    const uint64_t s = e["ts"].get<uint64_t>() - start;
    t.busy[static_cast<size_t>(tid - 1)].emplace_back(s, s + e["dur"].get<uint64_t>());
  }
  return t;
}

std::string bundleHtml(const BundleReport& r, const hwspec::HwSpec& hw, const std::optional<Timeline>& t,
                       const std::string& title) {
  std::ostringstream o;
  o << "<h1>" << xmlText(title) << "</h1>\n<p>hwspec " << xmlText(r.hwspec) << ", " << r.clockMhz << " MHz, peak "
    << hw.peakMacsPerCycle() << " MACs and " << hw.dramBytesPerCycle << " DRAM bytes per cycle. Accelerator layers: "
    << r.accelEstCycles << " estimated cycles";
  if (r.accelMeasuredCycles) o << ", " << *r.accelMeasuredCycles << " measured on the cycle model";
  o << "; roofline bound " << r.accelRooflineCycles << ", datapath bound " << r.accelDatapathBoundCycles << ". "
    << fixed(r.coverage.accelMacSharePct, 2) << "% of the MACs on the accelerator.</p>\n";
  o << "<h2>Layers</h2>\n" << table(r);
  o << "<h2>Roofline</h2>\n<p class=\"note\">One mark per accelerator layer with MACs, at its "
    << (r.accelMeasuredCycles ? "measured" : "estimated")
    << " cycles; pools and additions have no MACs and are not drawn.</p>\n"
    << roofline(r, hw);
  if (t)
    o << "<h2>Timeline</h2>\n<p class=\"note\">One inference on the cycle model: each accelerator layer's span, and when "
         "each unit was busy.</p>\n"
      << timeline(*t);
  return htmlPage(title, o.str());
}

}  // namespace accelc::compiler
