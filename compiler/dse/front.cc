// compiler/dse/front.cc — the Pareto front and its CSV, JSON and SVG forms.
#include "compiler/dse/front.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "compiler/report/svg.h"

namespace accelc::compiler::dse {

namespace {

std::array<double, 4> objectives(const PointRecord& r) {
  return {static_cast<double>(r.cycles), static_cast<double>(r.dsps), static_cast<double>(r.bram18),
          static_cast<double>(r.luts)};
}

bool dominates(const PointRecord& a, const PointRecord& b) {
  const auto x = objectives(a), y = objectives(b);
  bool better = false;
  for (size_t k = 0; k < x.size(); ++k) {
    if (x[k] > y[k]) return false;
    better |= x[k] < y[k];
  }
  return better;
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::vector<size_t> paretoFront(const std::vector<PointRecord>& r) {
  // A design that leaves layers to the host counts fewer accelerator cycles
  // for less work: only those that run the most layers compare.
  int most = 0;
  for (const PointRecord& p : r)
    if (p.ok && p.fits) most = std::max(most, p.accelLayers);
  auto eligible = [&](const PointRecord& p) { return p.ok && p.fits && p.accelLayers == most; };
  std::vector<size_t> front;
  for (size_t i = 0; i < r.size(); ++i) {
    if (!eligible(r[i])) continue;
    bool beaten = false;
    for (size_t j = 0; j < r.size() && !beaten; ++j) beaten = j != i && eligible(r[j]) && dominates(r[j], r[i]);
    if (!beaten) front.push_back(i);
  }
  return front;
}

std::string recordsCsv(const std::vector<PointRecord>& r, const std::vector<size_t>& rows) {
  std::ostringstream o;
  o << "point";
  if (!r.empty())
    for (const auto& kv : r.front().values) o << "," << field(kv.first);
  const bool synth = std::any_of(r.begin(), r.end(), [](const PointRecord& p) { return p.synthLuts >= 0; });
  o << ",ok,cycles,roofline_cycles,datapath_cycles,roofline_pct,accel_layers,host_layers,dsp,bram18,uram,lut,ff,fits,error"
    << (synth ? ",yosys_lut,yosys_ff,yosys_dsp,yosys_bram\n" : "\n");
  for (size_t i : rows) {
    const PointRecord& p = r[i];
    o << p.point;
    for (const auto& kv : p.values) o << "," << field(kv.second);
    o << "," << (p.ok ? "true" : "false");
    if (p.ok) {
      const double pct = p.cycles ? 100.0 * static_cast<double>(p.rooflineCycles) / static_cast<double>(p.cycles) : 0;
      o << "," << p.cycles << "," << p.rooflineCycles << "," << p.datapathCycles << "," << svgNumber(std::round(pct * 10) / 10)
        << "," << p.accelLayers << "," << p.hostLayers << "," << p.dsps << "," << p.bram18 << "," << p.urams << "," << p.luts << "," << p.ffs << ","
        << (p.fits ? "true" : "false") << ",";
    } else {
      o << ",,,,,,,,,,,,," << field(p.error);
    }
    if (synth && p.synthLuts >= 0) o << "," << p.synthLuts << "," << p.synthFfs << "," << p.synthDsps << "," << p.synthBrams;
    else if (synth) o << ",,,,";
    o << "\n";
  }
  return o.str();
}

std::vector<size_t> byCycles(const std::vector<PointRecord>& r, std::vector<size_t> rows) {
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) { return r[a].cycles < r[b].cycles; });
  return rows;
}

nlohmann::ordered_json frontJson(const std::vector<PointRecord>& r, const std::vector<size_t>& front) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (size_t i : byCycles(r, front)) j.push_back(recordJson(r[i]));
  return j;
}

std::string frontSvg(const std::vector<PointRecord>& r, const std::vector<size_t>& front, const std::string& title) {
  const double w = 720, h = 480, left = 90, right = 30, top = 50, bottom = 60;
  double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  bool any = false;
  for (const PointRecord& p : r) {
    if (!p.ok) continue;
    const double x = static_cast<double>(p.luts), y = static_cast<double>(p.cycles);
    xlo = any ? std::min(xlo, x) : x, xhi = any ? std::max(xhi, x) : x;
    ylo = any ? std::min(ylo, y) : y, yhi = any ? std::max(yhi, y) : y;
    any = true;
  }
  // A margin of a tenth around the points; one point alone gets a span of its own size.
  const double xm = std::max((xhi - xlo) / 10, std::max(1.0, xhi / 10)), ym = std::max((yhi - ylo) / 10, std::max(1.0, yhi / 10));
  xlo = std::max(0.0, xlo - xm), xhi += xm, ylo = std::max(0.0, ylo - ym), yhi += ym;
  auto px = [&](double x) { return left + (x - xlo) / (xhi - xlo) * (w - left - right); };
  auto py = [&](double y) { return h - bottom - (y - ylo) / (yhi - ylo) * (h - top - bottom); };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h << "\" viewBox=\"0 0 " << w
    << " " << h << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<style>.point{fill:#9aa5b1}.front{fill:#c2410c}.axis{stroke:#333}.grid{stroke:#e5e7eb}</style>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << w / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" << xmlText(title) << "</text>\n";
  for (double t : ticks(xlo, xhi))
    o << "<line class=\"grid\" x1=\"" << px(t) << "\" y1=\"" << top << "\" x2=\"" << px(t) << "\" y2=\"" << h - bottom
      << "\"/><text x=\"" << px(t) << "\" y=\"" << h - bottom + 16 << "\" text-anchor=\"middle\">" << svgNumber(t) << "</text>\n";
  for (double t : ticks(ylo, yhi))
    o << "<line class=\"grid\" x1=\"" << left << "\" y1=\"" << py(t) << "\" x2=\"" << w - right << "\" y2=\"" << py(t)
      << "\"/><text x=\"" << left - 6 << "\" y=\"" << py(t) + 4 << "\" text-anchor=\"end\">" << svgNumber(t) << "</text>\n";
  o << "<line class=\"axis\" x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - right << "\" y2=\"" << h - bottom
    << "\"/><line class=\"axis\" x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\"" << h - bottom << "\"/>\n"
    << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 18 << "\" text-anchor=\"middle\">LUTs (HLS estimate)</text>\n"
    << "<text transform=\"translate(18," << (top + h - bottom) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">cycles per inference (cycle model)</text>\n";
  std::vector<size_t> line = front;  // the front joined in LUT order
  std::stable_sort(line.begin(), line.end(), [&](size_t a, size_t b) { return r[a].luts < r[b].luts; });
  if (line.size() > 1) {
    o << "<polyline fill=\"none\" stroke=\"#c2410c\" stroke-width=\"1.5\" points=\"";
    for (size_t i : line) o << px(static_cast<double>(r[i].luts)) << "," << py(static_cast<double>(r[i].cycles)) << " ";
    o << "\"/>\n";
  }
  for (size_t i = 0; i < r.size(); ++i) {
    const PointRecord& p = r[i];
    if (!p.ok) continue;
    const bool onFront = std::find(front.begin(), front.end(), i) != front.end();
    std::string values;
    for (const auto& [k, v] : p.values) values += "\n" + k + "=" + v;
    o << "<circle class=\"point" << (onFront ? " front" : "") << "\" cx=\"" << px(static_cast<double>(p.luts)) << "\" cy=\""
      << py(static_cast<double>(p.cycles)) << "\" r=\"5\"><title>point " << p.point << ": " << p.cycles << " cycles, "
      << p.luts << " LUTs, " << p.dsps << " DSPs, " << p.bram18 << " BRAM18" << xmlText(values) << "</title></circle>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string sweepHtml(const std::vector<PointRecord>& r, const std::vector<size_t>& front, const std::string& title) {
  size_t ok = 0;
  for (const PointRecord& p : r) ok += p.ok;
  std::ostringstream o;
  o << "<h1>" << xmlText(title) << "</h1>\n<p>" << r.size() << " points: " << ok << " ok, " << r.size() - ok
    << " failed; " << front.size() << " on the Pareto front of cycles, DSPs, BRAM18 and LUTs.</p>\n<h2>Pareto front</h2>\n"
    << frontSvg(r, front, "cycles against LUTs (the front in orange)") << "<h2>Points</h2>\n<table>\n<thead><tr><th>point</th>";
  if (!r.empty())
    for (const auto& kv : r.front().values) o << "<th>" << xmlText(kv.first) << "</th>";
  o << "<th>cycles</th><th>% of roofline</th><th>DSP</th><th>BRAM18</th><th>URAM</th><th>LUT</th><th>FF</th>"
       "<th>front</th><th>error</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < r.size(); ++i) {
    const PointRecord& p = r[i];
    o << "<tr class=\"point" << (p.ok ? "" : " failed") << "\"><td>" << p.point << "</td>";
    for (const auto& kv : p.values) o << "<td>" << xmlText(kv.second) << "</td>";
    if (p.ok) {
      const double pct = p.cycles ? 100.0 * static_cast<double>(p.rooflineCycles) / static_cast<double>(p.cycles) : 0;
      o << "<td>" << p.cycles << "</td><td>" << svgNumber(std::round(pct * 10) / 10) << "</td><td>" << p.dsps
        << "</td><td>" << p.bram18 << "</td><td>" << p.urams << "</td><td>" << p.luts << "</td><td>" << p.ffs
        << "</td><td>" << (std::find(front.begin(), front.end(), i) != front.end() ? "yes" : "")
        << (p.fits ? "" : " (does not fit)") << "</td><td></td>";
    } else {
      o << "<td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td class=\"text\">"
        << xmlText(p.error) << "</td>";
    }
    o << "</tr>\n";
  }
  o << "</tbody>\n</table>\n";
  return htmlPage(title, o.str());
}

}  // namespace accelc::compiler::dse
