// compiler/report/svg.cc — shared pieces of plots and pages.
#include "compiler/report/svg.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace accelc::compiler {

std::string xmlText(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::vector<double> ticks(double lo, double hi) {
  const double span = std::max(hi - lo, 1.0), raw = span / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p < 2 ? p : raw / p < 5 ? 2 * p : 5 * p;
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9; v += step) t.push_back(v);
  return t;
}

std::vector<double> decades(double lo, double hi) {
  std::vector<double> t;
  for (double e = std::ceil(std::log10(lo) - 1e-9); e <= std::log10(hi) + 1e-9; e += 1) t.push_back(std::pow(10.0, e));
  return t;
}

std::string svgNumber(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

std::string htmlPage(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + xmlText(title) +
         "</title>\n<style>\n"
         "body{font-family:sans-serif;margin:24px;color:#1f2937}\n"
         "h1{font-size:20px}h2{font-size:16px;margin-top:28px}\n"
         "table{border-collapse:collapse;font-size:12px}\n"
         "th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:right}\n"
         "th{background:#f3f4f6}td.text{text-align:left}\n"
         "tr.host td{color:#6b7280}tr.failed td{color:#b91c1c}\n"
         ".note{font-size:12px;color:#4b5563}\n"
         "</style>\n</head>\n<body>\n" +
         body + "</body>\n</html>\n";
}

}  // namespace accelc::compiler
