// tests/tools/html_report_test.cc — the HTML reports opened in headless
// Chromium (heavy): the page renders (a screenshot, kept under the test
// folder as an artefact), its table has one row per layer or point, and its
// plots one mark per plotted layer or successful point. Without Chromium the
// tests fail and say so: the bootstrap installs it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/tools/cli_util.h"

namespace accelc {
namespace {

/// Runs `command` in a shell; its stdout and stderr, and whether it exited 0.
Result shell(const std::string& command) {
  Result r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Headless Chromium on `page`: `mode` is "--dump-dom" or "--screenshot=PATH".
Result chromium(const std::string& page, const std::string& mode) {
  const std::string profile = kTmp + "/chromium-profile";
  return shell("timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir=" +
               profile + " --window-size=1280,2400 " + mode + " file://" + page);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The DOM Chromium made of `page`, and its screenshot at `png` (at least `minBytes`: something was drawn).
std::string rendered(const std::string& page, const std::string& png) {
  EXPECT_EQ(shell("command -v chromium").rc, 0) << "no chromium on PATH: scripts/bootstrap.sh installs Debian's chromium";
  const Result dom = chromium(page, "--dump-dom");
  EXPECT_EQ(dom.rc, 0) << dom.out;
  std::filesystem::remove(png);
  const Result shot = chromium(page, "--screenshot=" + png);
  EXPECT_EQ(shot.rc, 0) << shot.out;
  EXPECT_TRUE(std::filesystem::exists(png)) << shot.out;
  if (std::filesystem::exists(png)) {
    EXPECT_GT(std::filesystem::file_size(png), 20000u) << "a blank page: " << png;
  }
  return dom.out;
}

TEST(HtmlReportTest, TheBundleReportRendersOneRowPerLayerAndOneMarkPerPlottedLayer) {
  const std::string acx = kTmp + "/html-digits.acx", page = kTmp + "/html-digits.html";
  Result r = sh("compile " + kSrc + "/models/digits/digits_int8.onnx --hw vta-default -o " + acx);
  ASSERT_EQ(r.rc, 0) << r.out;
  r = sh("report " + acx + " --measure --html " + page);
  ASSERT_EQ(r.rc, 0) << r.out;
  r = sh("report " + acx + " --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  size_t layers = 0, accel = 0, withMacs = 0;
  for (const auto& l : report["layers"]) {
    ++layers;
    const bool onAccel = l["where"] == "accelerator";
    accel += onAccel;
    withMacs += onAccel && l["macs"].get<int64_t>() > 0;
  }
  ASSERT_GT(withMacs, 0u);
  const std::string dom = rendered(page, kTmp + "/html-digits.png");
  EXPECT_EQ(count(dom, "<tr class=\"layer"), layers) << "one table row per layer";
  EXPECT_EQ(count(dom, "class=\"mark\""), withMacs) << "one roofline mark per accelerator layer with MACs";
  EXPECT_EQ(count(dom, "class=\"span\""), accel) << "one timeline span per accelerator layer";
  EXPECT_NE(dom.find("<svg class=\"roofline\""), std::string::npos);
}

TEST(HtmlReportTest, TheSweepReportRendersOneRowPerPointAndOneMarkPerSuccessfulPoint) {
  const std::string dir = kTmp + "/html-dse", sweep = kTmp + "/html-dse.yaml", page = kTmp + "/html-dse.html";
  std::filesystem::remove_all(dir);
  std::ofstream(sweep) << "base: vta-default\nvary:\n  timing.alu_ii: [1, 2]\n  buffers.acc: [32B, 128KiB]\n";
  Result r = sh("dse " + kSrc + "/models/digits/digits_int8.onnx --sweep " + sweep + " -o " + dir + " --jobs 2 --html " + page);
  ASSERT_EQ(r.rc, 0) << r.out;
  const std::string dom = rendered(page, kTmp + "/html-dse.png");
  EXPECT_EQ(count(dom, "<tr class=\"point"), 4u) << "one row per point";
  EXPECT_EQ(count(dom, "<tr class=\"point failed"), 2u) << "the points whose accumulator is too small";
  EXPECT_EQ(count(dom, "<circle class=\"point"), 2u) << "one mark per successful point";
}

}  // namespace
}  // namespace accelc
