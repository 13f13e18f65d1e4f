// tests/boards/ice40_board_test.cc — the UP5K top level's files for a program,
// the board's refusals, and nextpnr-ice40's log read back (excerpts of real
// logs).
#include "boards/ice40/board.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "hls/synth_gen.h"
#include "isa/assembler.h"
#include "isa/builder.h"
#include "isa/instruction.h"
#include "tests/test_util.h"

namespace accelc::boards {
namespace {

isa::Program denseExample(const isa::Target& t) {
  const std::string path = std::string(ACCELC_SOURCE_DIR) + "/examples/ice40_dense.s";
  auto p = isa::assemble(testing::readFile(path), path, t);
  EXPECT_TRUE(p.isOk()) << p.diag().str();
  return *p;
}

TEST(Ice40BoardTest, WritesTheImageTheTextsPlaceAndTheTopLevel) {
  const isa::Target t = testing::presetTarget("ice40");
  const isa::Program p = denseExample(t);
  const std::string dir = testing::tempDir() + "/ice40-board-files";
  ASSERT_TRUE(writeIce40Board(t, p, "ice40_dense.bin", dir).isOk());
  // The image: every segment's bytes, as little-endian 16-bit words, up to the last segment.
  std::istringstream hex(testing::readFile(dir + "/accelc_image.hex"));
  std::vector<uint8_t> image;
  for (std::string w; hex >> w;) {
    const unsigned v = static_cast<unsigned>(std::stoul(w, nullptr, 16));
    image.push_back(static_cast<uint8_t>(v & 0xff)), image.push_back(static_cast<uint8_t>(v >> 8));
  }
  uint64_t end = 0;
  for (const isa::Segment& s : p.segments) {
    end = std::max<uint64_t>(end, s.addr + s.bytes.size());
    ASSERT_LE(s.addr + s.bytes.size(), image.size()) << s.name;
    EXPECT_TRUE(std::equal(s.bytes.begin(), s.bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(s.addr))) << s.name;
  }
  EXPECT_EQ(image.size(), (end + 1) / 2 * 2);
  const std::string pkg = testing::readFile(dir + "/accelc_image_pkg.sv");
  EXPECT_NE(pkg.find("IMAGE_WORDS = " + std::to_string((end + 1) / 2) + ";"), std::string::npos) << pkg;
  EXPECT_NE(pkg.find("WINDOW_WORDS = " + std::to_string(p.window / 2) + ";"), std::string::npos) << pkg;
  EXPECT_NE(pkg.find("INSN_COUNT = " + std::to_string(p.insnCount(t)) + ";"), std::string::npos) << pkg;
  EXPECT_NE(pkg.find("INSN_ADDR = " + std::to_string(p.text().addr) + ";"), std::string::npos) << pkg;
  EXPECT_NE(testing::readFile(dir + "/accelc_ice40_top.sv").find("module accelc_ice40_top"), std::string::npos);
  const std::string ys = testing::readFile(dir + "/synth_board.ys");
  EXPECT_NE(ys.find("synth_ice40 -dsp -spram -top accelc_ice40_top"), std::string::npos) << ys;
}

TEST(Ice40BoardTest, RefusesWhatTheBoardCannotHold) {
  const isa::Target vta = testing::presetTarget("vta-default");
  isa::ProgramBuilder b(vta);
  b.text(0);
  b.add(isa::makeInstruction(isa::Opcode::kFinish));
  auto p = b.finish("finish.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  support::Status st = checkIce40Board(vta, *p, "finish.bin");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.diag().str().find("dram.bytes_per_cycle 2"), std::string::npos) << st.diag().str();

  hwspec::HwSpec oneByteRows = testing::presetTarget("ice40").spec;
  oneByteRows.blockOut = 1;
  auto narrow = isa::loadTarget(oneByteRows);
  ASSERT_TRUE(narrow.isOk()) << narrow.diag().str();
  st = checkIce40Board(*narrow, *p, "finish.bin");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.diag().str().find("an output row (batch x block_out bytes) of at least 2 bytes"), std::string::npos)
      << st.diag().str();

  const isa::Target ice40 = testing::presetTarget("ice40");
  isa::ProgramBuilder big(ice40);
  big.text(0);
  big.add(isa::makeInstruction(isa::Opcode::kFinish));
  big.uops("uops", 8192, {{0, 0, 0}});  // past the ROM's block RAM
  auto q = big.finish("big.bin");
  ASSERT_TRUE(q.isOk()) << q.diag().str();
  st = checkIce40Board(ice40, *q, "big.bin");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.diag().str().find("big.bin"), std::string::npos) << st.diag().str();
  EXPECT_NE(st.diag().str().find("does not fit the " + std::to_string((kUp5kBrams - hls::estimateIce40(ice40).brams) * 512) +
                                 " bytes of block RAM"),
            std::string::npos)
      << st.diag().str();
}

// From real nextpnr-ice40 logs of designs that fit: the first utilization
// table, then the clock before and after routing (the last one counts), and a
// constant net nextpnr times as a clock (not the design's clock).
constexpr const char* kFitLog =
    "Info: Device utilisation:\n"
    "Info: \t         ICESTORM_LC:    28/ 5280     0%\n"
    "Info: \t        ICESTORM_RAM:     0/   30     0%\n"
    "Info: \t               SB_IO:     3/   96     3%\n"
    "Info: \t      ICESTORM_SPRAM:     0/    4     0%\n"
    "\n"
    "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 83.85 MHz (PASS at 24.00 MHz)\n"
    "Info: Device utilisation:\n"
    "Info: \t         ICESTORM_LC:    99/ 5280     1%\n"
    "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 79.76 MHz (PASS at 24.00 MHz)\n"
    "Info: Max frequency for clock '$PACKER_GND_NET': 256.08 MHz (PASS at 24.00 MHz)\n";

// From a real log of the ice40 preset's top level, which packing stopped.
constexpr const char* kOverLog =
    "Info: Device utilisation:\n"
    "Info: \t         ICESTORM_LC:  7833/ 5280   148%\n"
    "Info: \t        ICESTORM_RAM:    24/   30    80%\n"
    "Info: \t        ICESTORM_DSP:     8/    8   100%\n"
    "\n"
    "ERROR: Unable to place cell 'core.exec.fwi_SB_DFFESR_Q_1_DFFLC', no BELs remaining to implement cell type "
    "'ICESTORM_LC'\n";

TEST(Ice40BoardTest, ReadsNextpnrsUtilizationAndClock) {
  auto fit = pnrReportOf(kFitLog, "fit.log");
  ASSERT_TRUE(fit.isOk()) << fit.diag().str();
  ASSERT_EQ(fit->utilization.size(), 4u);
  ASSERT_NE(fit->find("ICESTORM_LC"), nullptr);
  EXPECT_EQ(fit->find("ICESTORM_LC")->used, 28);
  EXPECT_EQ(fit->find("ICESTORM_LC")->available, 5280);
  EXPECT_EQ(fit->find("ICESTORM_SPRAM")->available, 4);
  EXPECT_DOUBLE_EQ(fit->fmaxMhz, 79.76);
  EXPECT_TRUE(fit->fits);

  auto over = pnrReportOf(kOverLog, "over.log");
  ASSERT_TRUE(over.isOk()) << over.diag().str();
  EXPECT_FALSE(over->fits);
  EXPECT_EQ(over->find("ICESTORM_LC")->used, 7833);
  EXPECT_EQ(over->find("ICESTORM_DSP")->used, 8);
  EXPECT_EQ(over->fmaxMhz, 0.0);

  auto none = pnrReportOf("ERROR: Failed to load JSON\n", "bad.log");
  ASSERT_FALSE(none.isOk());
  EXPECT_NE(none.diag().str().find("bad.log"), std::string::npos);
}

}  // namespace
}  // namespace accelc::boards
