// compiler/dse/front.h — the Pareto front of a sweep's points and the files
// that show it: which successful points no other beats on cycles, DSPs,
// 18 Kb block RAMs and LUTs at once, as CSV, JSON and an SVG plot.
#ifndef ACCELC_COMPILER_DSE_FRONT_H_
#define ACCELC_COMPILER_DSE_FRONT_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "compiler/dse/point.h"

namespace accelc::compiler::dse {

/// Indices of the records on the front, in record order. Eligible are the
/// successful records that fit the sweep's board and run the most layers on
/// the accelerator of those (a design that leaves layers to the host counts
/// fewer cycles for less work); on the front are those no other eligible
/// record dominates: at most as many cycles, DSPs, BRAM18 and LUTs, fewer
/// of one. Records equal on all four are all on it.
std::vector<size_t> paretoFront(const std::vector<PointRecord>& r);

/// `rows` (indices into `r`) by cycles, fewest first; ties keep their order.
std::vector<size_t> byCycles(const std::vector<PointRecord>& r, std::vector<size_t> rows);

/// A table of records, one row each (`rows`: indices into `r`), with each
/// varied key as a column.
std::string recordsCsv(const std::vector<PointRecord>& r, const std::vector<size_t>& rows);

/// The front as JSON: the records on it, by cycles.
nlohmann::ordered_json frontJson(const std::vector<PointRecord>& r, const std::vector<size_t>& front);

/// A self-contained SVG: LUTs against cycles, one circle per successful
/// point (class "point"; those on the front also class "front", joined by a
/// line), each with its point number and values as a title.
std::string frontSvg(const std::vector<PointRecord>& r, const std::vector<size_t>& front, const std::string& title);

/// The sweep as one self-contained HTML page (`accelc dse --html`): the
/// front's plot (frontSvg: one circle of class "point" per successful point)
/// and a table with one row of class "point" per point, failed ones with
/// their error.
std::string sweepHtml(const std::vector<PointRecord>& r, const std::vector<size_t>& front, const std::string& title);

}  // namespace accelc::compiler::dse

#endif  // ACCELC_COMPILER_DSE_FRONT_H_
