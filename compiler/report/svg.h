// compiler/report/svg.h — what the plots and pages accelc writes share:
// escaping text for XML and HTML, round axis ticks, numbers as SVG writes
// them, and the frame of a self-contained HTML page (inline CSS, no scripts,
// no fonts or files from elsewhere).
#ifndef ACCELC_COMPILER_REPORT_SVG_H_
#define ACCELC_COMPILER_REPORT_SVG_H_

#include <string>
#include <vector>

namespace accelc::compiler {

/// `s` with <, > and & escaped (text of XML or HTML elements and attributes in double quotes: " too).
std::string xmlText(const std::string& s);
/// Round tick values spanning [lo, hi] on a linear axis: 1, 2 or 5 times a power of ten apart.
std::vector<double> ticks(double lo, double hi);
/// Powers of ten spanning [lo, hi] (both positive) on a logarithmic axis.
std::vector<double> decades(double lo, double hi);
/// `v` with at most 6 significant digits.
std::string svgNumber(double v);
/// A whole HTML page: `title`, the shared style sheet, and `body`.
std::string htmlPage(const std::string& title, const std::string& body);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_REPORT_SVG_H_
