// tests/tools/cli_test.cc — the accelc binary end to end: exit codes and output.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>

#include "isa/program.h"
#include "tests/test_util.h"
#include "tests/tools/cli_util.h"

namespace accelc {
namespace {



TEST(CliTest, MainJobAssemblesAndSimulatesTheExample) {
  Result a = sh("asm " + kSrc + "/examples/dense_relu.s -o " + kTmp + "/dense.bin");
  ASSERT_EQ(a.rc, 0) << a.out;
  Result s = sh("sim " + kTmp + "/dense.bin --engine fsim --input x=" + kSrc + "/examples/dense_relu_input.npy --output " +
                kTmp + "/dense-out --json");
  ASSERT_EQ(s.rc, 0) << s.out;
  EXPECT_NE(s.out.find("\"macs\": 2048"), std::string::npos) << s.out;
  EXPECT_EQ(testing::readFile(kTmp + "/dense-out/y.npy").size(), 128u + 64u);
  Result c = sh("sim " + kTmp + "/dense.bin --engine cycle --input x=" + kSrc + "/examples/dense_relu_input.npy --output " +
                kTmp + "/dense-cycle --trace " + kTmp + "/dense.trace.json");
  ASSERT_EQ(c.rc, 0) << c.out;
  EXPECT_NE(c.out.find(")\ncounters (cycle, vta-default):\n  cycles "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("  store_idle_cycles "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("  load_dram_stall_cycles "), std::string::npos) << c.out;
  // Cycles per label: the two layers of the example, one after the other, inside the run.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("\n(\\d+) cycles\n  setup: (\\d+) cycles \\((\\d+) to (\\d+)\\)\n"
                                                      "  dense: (\\d+) cycles \\((\\d+) to (\\d+)\\)\n")))
      << c.out;
  const long total = std::stol(m[1]), setupEnd = std::stol(m[4]), denseBegin = std::stol(m[6]), denseEnd = std::stol(m[7]);
  EXPECT_EQ(std::stol(m[2]), setupEnd - std::stol(m[3]));
  EXPECT_LE(setupEnd, denseEnd);
  EXPECT_LE(denseBegin, denseEnd);
  EXPECT_LT(denseEnd, total);
  EXPECT_EQ(testing::readFile(kTmp + "/dense-cycle/y.npy"), testing::readFile(kTmp + "/dense-out/y.npy"));
  EXPECT_NE(testing::readFile(kTmp + "/dense.trace.json").find("\"name\":\"FINISH\""), std::string::npos);
}

// The verilated RTL as an engine: verilated on first use into a cache keyed by
// the hwspec (progress on stderr), reused after; the cycle model's count and
// outputs, bit for bit.
TEST(CliTest, RtlEngineMatchesTheCycleModel) {
  // A cache of this test's own, empty at its start.
  ASSERT_EQ(std::system(("rm -rf " + kTmp + "/rtl-cache").c_str()), 0);
  ::setenv("ACCELC_RTL_CACHE", (kTmp + "/rtl-cache").c_str(), 1);
  const std::string bin = kTmp + "/dense-r.bin", in = " --input x=" + kSrc + "/examples/dense_relu_input.npy";
  ASSERT_EQ(sh("asm " + kSrc + "/examples/dense_relu.s -o " + bin).rc, 0);
  Result c = sh("sim " + bin + " --engine cycle" + in + " --output " + kTmp + "/dense-rc");
  ASSERT_EQ(c.rc, 0) << c.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("\n(\\d+) cycles\n"))) << c.out;
  const std::string cycles = m[1];
  Result r = sh("sim " + bin + " --engine rtl" + in + " --output " + kTmp + "/dense-rr");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(r.out.rfind("accelc: verilating the RTL for hwspec 'vta-default' into " + kTmp + "/rtl-cache/", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n" + cycles + " cycles\n"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(kTmp + "/dense-rr/y.npy"), testing::readFile(kTmp + "/dense-rc/y.npy"));
  // The second use finds the model in the cache: no verilating.
  Result again = sh("sim " + bin + " --engine rtl" + in + " --json");
  ASSERT_EQ(again.rc, 0) << again.out;
  EXPECT_EQ(again.out.find("verilating"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("\"cycles\": " + cycles), std::string::npos) << again.out;
  // A waveform comes from a model verilated with tracing, cached beside the first.
  Result w = sh("sim " + bin + " --engine rtl" + in + " --vcd " + kTmp + "/dense.vcd");
  ASSERT_EQ(w.rc, 0) << w.out;
  EXPECT_NE(w.out.find("\n" + cycles + " cycles\nwaveform -> " + kTmp + "/dense.vcd\n"), std::string::npos) << w.out;
  EXPECT_EQ(testing::readFile(kTmp + "/dense.vcd").rfind("$version", 0), 0u);
  Result noVcd = sh("sim " + bin + " --engine fsim" + in + " --vcd w.vcd");
  EXPECT_EQ(noVcd.rc, 1);
  EXPECT_EQ(noVcd.out, "error: --vcd needs --engine rtl\n");
}

TEST(CliTest, DisasmThenAsmGivesTheSameFile) {
  ASSERT_EQ(sh("asm " + kSrc + "/examples/dense_relu.s -o " + kTmp + "/d1.bin").rc, 0);
  Result d = sh("disasm " + kTmp + "/d1.bin");
  ASSERT_EQ(d.rc, 0) << d.out;
  std::ofstream(kTmp + "/d1.s") << d.out;
  ASSERT_EQ(sh("asm " + kTmp + "/d1.s -o " + kTmp + "/d2.bin").rc, 0);
  EXPECT_EQ(testing::readFile(kTmp + "/d1.bin"), testing::readFile(kTmp + "/d2.bin"));
}

TEST(CliTest, DisasmAndSimRefuseTheSameInvalidContainers) {
  // One validator for every command that reads a program: disasm printed
  // containers that sim refused.
  ASSERT_EQ(sh("asm " + kSrc + "/examples/dense_relu.s -o " + kTmp + "/valid.bin").rc, 0);
  auto p = isa::loadProgramFile(kTmp + "/valid.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  auto broken = [&](const std::string& name, const std::function<void(isa::Program&)>& edit) {
    isa::Program q = *p;
    edit(q);
    EXPECT_TRUE(isa::saveProgramFile(kTmp + "/" + name, q).isOk());
    return kTmp + "/" + name;
  };
  const std::string zero = broken("zero.bin", [](isa::Program& q) { q.window = 0; });
  const std::string twoTexts = broken("two.bin", [](isa::Program& q) {
    isa::Segment text = q.text();
    text.addr = (text.addr + text.bytes.size() + 255) / 256 * 256;  // right after the first, on a burst
    q.segments.push_back(text);
  });
  // vta-default sets dram.split_4k: the text starts on a max_burst boundary.
  const std::string offPage = broken("off_page.bin", [](isa::Program& q) {
    for (isa::Segment& s : q.segments)
      if (s.role == isa::SegmentRole::kText) s.addr += 16;
  });
  for (const std::string& f : {zero, twoTexts, offPage}) {
    Result d = sh("disasm " + f), s = sh("sim " + f + " --input x=" + kTmp + "/none.npy");
    EXPECT_EQ(d.rc, 1) << d.out;
    EXPECT_EQ(s.rc, 1) << s.out;
    EXPECT_EQ(d.out, s.out);
    EXPECT_EQ(d.out.rfind(f + ": error: ", 0), 0u) << d.out;  // located at the file
  }
  EXPECT_NE(sh("disasm " + zero).out.find("window of 0 bytes is not in [1, "), std::string::npos);
  EXPECT_NE(sh("disasm " + twoTexts).out.find("expected exactly one text segment, found 2"), std::string::npos);
  const Result r = sh("disasm " + offPage);
  EXPECT_NE(r.out.find("does not start on a 256-byte boundary (timing.max_burst): with dram.split_4k fetch's bursts "
                       "must not cross 4 KiB"),
            std::string::npos)
      << r.out;
}

TEST(CliTest, BoardsListsDescribesAndChecksTheFit) {
  Result r = sh("boards");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("pynq-z1      xc7z020clg400-1"), std::string::npos) << r.out;
  r = sh("boards ultra96-v2 --hw vta-default");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("  DSP                                       320 of       360  ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nfits\n"), std::string::npos) << r.out;
  r = sh("boards pynq-z1 --hw vta-default --json");
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("\"fits\": true"), std::string::npos) << r.out;
  r = sh("boards pynq-z1 --hw " + kSrc + "/hwspec/presets/wide.yaml --json");
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("\"fits\": false"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error: the accelerator of 'wide' does not fit pynq-z1: "), std::string::npos) << r.out;
  r = sh("boards --hw vta-default");
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "error: --hw needs a board: accelc boards NAME --hw F\n");
}

TEST(CliTest, RtlAxiAddsTheZynqIpAndItsTargetPackage) {
  Result r = sh("rtl --axi --hw tiny -o " + kTmp + "/rtl-axi");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find(kTmp + "/rtl-axi/accelc_target_pkg.sv\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(kTmp + "/rtl-axi/accelc_axi_port.sv\n" + kTmp + "/rtl-axi/accelc_axi.sv\n"), std::string::npos);
  const isa::Target t = testing::presetTarget("tiny");
  std::ostringstream hash;
  hash << "TARGET_HASH = 64'h" << std::hex << t.hash << ";";
  EXPECT_NE(testing::readFile(kTmp + "/rtl-axi/accelc_target_pkg.sv").find(hash.str()), std::string::npos);
  // The packaging script adds every file written and makes accelc_axi the top.
  EXPECT_NE(r.out.find(kTmp + "/rtl-axi/package_ip.tcl\n"), std::string::npos);
  const std::string tcl = testing::readFile(kTmp + "/rtl-axi/package_ip.tcl");
  for (const char* f : {"accelc_target_pkg.sv", "accelc_engine.sv", "accelc_axi_port.sv", "accelc_axi.sv"})
    EXPECT_NE(tcl.find(std::string(" $here/") + f), std::string::npos) << f;
  EXPECT_NE(tcl.find("set_property top accelc_axi [current_fileset]"), std::string::npos);
}

TEST(CliTest, RunOnAVirtualBoardGivesTheRtlsOutputsAndCycles) {
  const std::string acx = kTmp + "/digits-virtual.acx";
  ASSERT_EQ(sh("compile " + kSrc + "/models/digits/digits_int8.onnx --hw vta-default -o " + acx).rc, 0);
  const std::string in = " --input input=" + kSrc + "/models/digits/input.npy --output ";
  Result rtl = sh("run " + acx + " --engine rtl" + in + kTmp + "/digits-virtual-rtl");
  ASSERT_EQ(rtl.rc, 0) << rtl.out;
  Result vb = sh("run " + acx + " --engine virtual:pynq-z1" + in + kTmp + "/digits-virtual-vb");
  ASSERT_EQ(vb.rc, 0) << vb.out;
  EXPECT_EQ(testing::readFile(kTmp + "/digits-virtual-rtl/logits.npy"),
            testing::readFile(kTmp + "/digits-virtual-vb/logits.npy"));
  auto cyclesLine = [](const std::string& out) {
    const size_t at = out.find(" cycles on the accelerator");
    const size_t from = out.rfind('\n', at);
    return at == std::string::npos ? std::string() : out.substr(from + 1, at - from - 1);
  };
  EXPECT_FALSE(cyclesLine(rtl.out).empty()) << rtl.out;
  EXPECT_EQ(cyclesLine(vb.out), cyclesLine(rtl.out)) << vb.out;
  Result tiny = sh("run " + acx + " --engine virtual:pynq-z1:tiny" + in + kTmp + "/digits-virtual-tiny");
  EXPECT_EQ(tiny.rc, 1);
  EXPECT_NE(tiny.out.find("virtual board pynq-z1: error: the accelerator was built for target 0x"), std::string::npos)
      << tiny.out;
  Result none = sh("run " + acx + " --engine virtual:nope" + in + kTmp + "/digits-virtual-none");
  EXPECT_EQ(none.rc, 1);
  EXPECT_NE(none.out.find("nope: error: no such board or board file"), std::string::npos) << none.out;
}

TEST(CliTest, RtlWritesThePackageAndTheSources) {
  Result r = sh("rtl --hw tiny -o " + kTmp + "/rtl-tiny");
  ASSERT_EQ(r.rc, 0) << r.out;
  std::string listed;
  for (const char* f : {"accelc_hw_pkg.sv", "accelc_isa_pkg.sv", "accelc_port_pick.sv", "accelc_dram_port.sv",
                        "accelc_mem_decode.sv", "accelc_dma.sv", "accelc_sram.sv", "accelc_buffer.sv", "accelc_exec.sv",
                        "accelc_cmd_queue.sv", "accelc_store_path.sv", "accelc_token_issue.sv", "accelc_fetch.sv",
                        "accelc_transfer.sv", "accelc_engine.sv", "accelc_core.sv"})
    listed += kTmp + "/rtl-tiny/" + f + "\n";
  EXPECT_EQ(r.out, listed);
  const std::string isa = testing::readFile(kTmp + "/rtl-tiny/accelc_isa_pkg.sv");
  EXPECT_NE(isa.find("  localparam int OPCODE_FINISH = 4;\n"), std::string::npos) << isa;
  EXPECT_NE(isa.find("  localparam int MEM_POP_PREV_LO = 3;\n"), std::string::npos) << isa;  // after the 3-bit opcode
  // The routing isa/ defines: LOADs to inp run on the load unit, which pushes into load->compute.
  EXPECT_NE(isa.find("  localparam int UNIT_OF_LOAD_INP = 0;\n"), std::string::npos) << isa;
  EXPECT_NE(isa.find("  localparam int LOAD_PUSH_NEXT_Q = 0;\n"), std::string::npos) << isa;
  const std::string pkg = testing::readFile(kTmp + "/rtl-tiny/accelc_hw_pkg.sv");
  EXPECT_NE(pkg.find("package accelc_hw_pkg;"), std::string::npos);
  EXPECT_NE(pkg.find("  localparam int OUTSTANDING = 2;\n"), std::string::npos) << pkg;  // tiny's timing.outstanding
  EXPECT_NE(pkg.find("  localparam int DRAM_LATENCY = 8;\n"), std::string::npos) << pkg;
  EXPECT_EQ(testing::readFile(kTmp + "/rtl-tiny/accelc_dram_port.sv"), testing::readFile(kSrc + "/hls/rtl/accelc_dram_port.sv"));
  Result bad = sh("rtl --hw no-such-preset -o " + kTmp + "/rtl-bad");
  EXPECT_EQ(bad.rc, 1);
  EXPECT_NE(bad.out.find("no-such-preset"), std::string::npos) << bad.out;
}

TEST(CliTest, SynthRunsYosysAndReportsTheResources) {
  Result r = sh("synth --hw tiny --target ice40 -o " + kTmp + "/synth-tiny --json");
  ASSERT_EQ(r.rc, 0) << r.out;
  auto number = [&](const std::string& key) {
    std::smatch v;
    return std::regex_search(r.out, v, std::regex("\"" + key + "\": (\\d+)")) ? std::stol(v[1]) : -1L;
  };
  EXPECT_GT(number("luts"), 0) << r.out;
  EXPECT_GT(number("ffs"), 0) << r.out;
  EXPECT_EQ(number("dsps"), 0) << r.out;  // the DRAM port multiplies nothing
  EXPECT_NE(testing::readFile(kTmp + "/synth-tiny/synth_ice40.ys").find("synth_ice40 -dsp -top accelc_dram_port"),
            std::string::npos);
  Result bad = sh("synth --hw tiny --top no_such_module -o " + kTmp + "/synth-bad");
  EXPECT_EQ(bad.rc, 1);
  EXPECT_NE(bad.out.find("yosys failed; its log is "), std::string::npos) << bad.out;
}

TEST(CliTest, IsaManualForVtaDefault) {
  Result r = sh("isa --hw vta-default");
  ASSERT_EQ(r.rc, 0);
  EXPECT_EQ(r.out, testing::readFile(kSrc + "/docs/isa-vta-default.md"));
  Result j = sh("isa --hw wide --format json");
  ASSERT_EQ(j.rc, 0);
  EXPECT_NE(j.out.find("\"insn_bits\": 256"), std::string::npos);
}

TEST(CliTest, ErrorsExitNonZeroWithTheDiagnostic) {
  std::ofstream(kTmp + "/bad.yaml") << "name: x\nclock_mhz: [\n";
  Result r = sh("isa --hw " + kTmp + "/bad.yaml");
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.out.find(kTmp + "/bad.yaml:3:1: error: malformed YAML"), std::string::npos) << r.out;
  Result m = sh("sim " + kTmp + "/missing.bin");
  EXPECT_EQ(m.rc, 1);
  EXPECT_EQ(m.out, kTmp + "/missing.bin: error: cannot open file for reading\n");
  ASSERT_EQ(sh("asm " + kSrc + "/examples/dense_relu.s -o " + kTmp + "/d3.bin").rc, 0);
  Result h = sh("sim " + kTmp + "/d3.bin --hw tiny --input x=" + kSrc + "/examples/dense_relu_input.npy");
  EXPECT_EQ(h.rc, 1);
  EXPECT_NE(h.out.find("error: hwspec hash mismatch: the program was built for 'vta-default'"), std::string::npos)
      << h.out;
  Result n = sh("sim " + kTmp + "/d3.bin");
  EXPECT_EQ(n.rc, 1);
  EXPECT_EQ(n.out, kTmp + "/d3.bin: error: input symbol 'x' (int8 1x32) was not given; pass --input x=FILE.npy\n");
  Result c = sh("sim " + kTmp + "/d3.bin --input bias=" + kSrc + "/examples/dense_relu_input.npy");
  EXPECT_EQ(c.out, kTmp + "/d3.bin: error: --input: symbol 'bias' is const, not an input\n");
  Result i = sh("sim " + kTmp + "/d3.bin --input x=" + kTmp + "/d3.bin");
  EXPECT_EQ(i.rc, 1);
  EXPECT_NE(i.out.find("malformed .npy file"), std::string::npos) << i.out;
}

TEST(CliTest, IllegalOpcodeInABinaryIsReportedWithItsPc) {
  ASSERT_EQ(sh("asm " + kSrc + "/examples/dense_relu.s -o " + kTmp + "/d4.bin").rc, 0);
  auto p = isa::loadProgramFile(kTmp + "/d4.bin");
  ASSERT_TRUE(p.isOk()) << p.diag().str();
  // The 4th instruction starts 16 * 3 bytes into the text; its opcode is the low 3 bits.
  for (isa::Segment& s : p->segments)
    if (s.role == isa::SegmentRole::kText) s.bytes[48] = static_cast<uint8_t>((s.bytes[48] & ~7) | 7);
  ASSERT_TRUE(isa::saveProgramFile(kTmp + "/d5.bin", *p).isOk());
  Result r = sh("disasm " + kTmp + "/d5.bin");
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, kTmp + "/d5.bin:pc 3: error: illegal opcode 7 (the ISA defines 5 opcodes)\n");
}

TEST(CliTest, ModelsImportRunAndOptimize) {
  Result l = sh("import --list-ops");
  ASSERT_EQ(l.rc, 0);
  EXPECT_NE(l.out.find("\nQLinearConv\n"), std::string::npos);
  const std::string digits = kSrc + "/models/digits/digits_fp32.onnx";
  Result r = sh("run " + digits + " --engine ref --input input=" + kSrc + "/models/digits/test_x.npy --output " + kTmp +
                "/digits-out");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_EQ(r.out, "output logits float32 360x10 -> " + kTmp + "/digits-out/logits.npy\n");
  Result o = sh("opt " + digits + " --passes=remove-identity --dump-after=remove-identity");
  ASSERT_EQ(o.rc, 0) << o.out;
  EXPECT_EQ(o.out.rfind("# after remove-identity\ngraph \"" + digits + "\"\n", 0), 0u) << o.out;
}

TEST(CliTest, ModelErrorsExitNonZeroWithLocations) {
  const std::string digits = kSrc + "/models/digits/digits_fp32.onnx";
  Result w = sh("run " + digits + " --input input=" + kSrc + "/models/digits/test_y.npy");
  EXPECT_EQ(w.rc, 1);
  EXPECT_EQ(w.out, digits + ":input: error: input expects float32 1x1x8x8, found int64 360\n");
  Result m = sh("run " + digits);
  EXPECT_EQ(m.rc, 1);
  EXPECT_EQ(m.out, digits + ":input: error: input 'input' (float32 1x1x8x8) was not given; pass --input input=FILE.npy\n");
  std::string bytes = testing::readFile(digits);
  std::ofstream(kTmp + "/cut.onnx", std::ios::binary) << bytes.substr(0, bytes.size() / 3);
  Result c = sh("import " + kTmp + "/cut.onnx");
  EXPECT_EQ(c.rc, 1);
  EXPECT_EQ(c.out, kTmp + "/cut.onnx: error: not a valid ONNX model: the file does not parse as a ModelProto (truncated "
                          "or corrupt)\n");
  Result p = sh("opt " + digits + " --passes=fold-everything");
  EXPECT_EQ(p.rc, 1);
  EXPECT_NE(p.out.find("unknown pass 'fold-everything'"), std::string::npos);
}

TEST(CliTest, CompileListsItsPassesAndDumpsAnyOfThem) {
  Result list = sh("compile --list-passes");
  ASSERT_EQ(list.rc, 0) << list.out;
  EXPECT_EQ(list.out.rfind("fold-constants ", 0), 0u) << list.out;
  EXPECT_NE(list.out.find("\nfold-channel-shuffles  a channel shuffle"), std::string::npos) << list.out;
  const size_t partition = list.out.find("\npartition "), finish = list.out.find("\nfinish-bundle ");
  ASSERT_NE(partition, std::string::npos) << list.out;
  ASSERT_NE(finish, std::string::npos) << list.out;
  EXPECT_LT(partition, finish);
  const std::string digits = kSrc + "/models/digits/digits_int8.onnx";
  Result plan = sh("compile " + digits + " -o " + kTmp + "/plan.acx --dump-after=plan-dram");
  ASSERT_EQ(plan.rc, 0) << plan.out;
  EXPECT_EQ(plan.out.rfind("# after plan-dram\nslot input float32 1x1x8x8 @0x0 256 bytes\n", 0), 0u) << plan.out;
  Result bad = sh("compile " + digits + " -o " + kTmp + "/plan.acx --dump-after=plan");
  EXPECT_EQ(bad.rc, 1);
  EXPECT_EQ(bad.out.rfind("error: --dump-after 'plan': no such pass; the passes are: fold-constants, ", 0), 0u)
      << bad.out;
}

TEST(CliTest, DigitsRunOnTheHlsEngineAsOnFsim) {
  const std::string model = kSrc + "/models/digits/digits_int8.onnx", acx = kTmp + "/digits-hls.acx";
  Result c = sh("compile " + model + " --hw vta-default -o " + acx);
  ASSERT_EQ(c.rc, 0) << c.out;
  ::setenv("ACCELC_HLS_CACHE", (kTmp + "/hls-cache").c_str(), 1);
  const std::string in = " --input input=" + kSrc + "/models/digits/test_x.npy --labels " + kSrc +
                         "/models/digits/test_y.npy --output ";
  Result f = sh("run " + acx + " --engine fsim" + in + kTmp + "/digits-hls-f");
  Result h = sh("run " + acx + " --engine hls" + in + kTmp + "/digits-hls-h");
  ASSERT_EQ(f.rc, 0) << f.out;
  ASSERT_EQ(h.rc, 0) << h.out;
  std::smatch fm, hm;
  ASSERT_TRUE(std::regex_search(f.out, fm, std::regex("top-1 accuracy \\(fsim\\): ([0-9.]+)% of (\\d+)"))) << f.out;
  ASSERT_TRUE(std::regex_search(h.out, hm, std::regex("top-1 accuracy \\(hls\\): ([0-9.]+)% of (\\d+)"))) << h.out;
  EXPECT_EQ(hm[1].str(), fm[1].str());
  EXPECT_GT(std::stoi(hm[2].str()), 100);
  EXPECT_EQ(testing::readFile(kTmp + "/digits-hls-h/logits.npy"), testing::readFile(kTmp + "/digits-hls-f/logits.npy"));
  EXPECT_NE(h.out.find("hls: "), std::string::npos) << h.out;
  // digits' four host steps (quantize, im2col, flatten, dequantize) run on the bundle's generated kernels.
  EXPECT_NE(h.out.find(" host steps (kernels: 4 bundle x86_64"), std::string::npos) << h.out;
  EXPECT_EQ(h.out.find("cycles on the accelerator"), std::string::npos) << h.out;  // C-simulation is untimed
  Result w = sh("hls --hw tiny -o " + kTmp + "/hls-tiny");
  ASSERT_EQ(w.rc, 0) << w.out;
  EXPECT_EQ(w.out, kTmp + "/hls-tiny/accelc_params.h\n" + kTmp + "/hls-tiny/accelc_accel.h\n" + kTmp +
                       "/hls-tiny/accelc_accel.cpp\n" + kTmp + "/hls-tiny/accelc_arith_ops.h\n");
}

TEST(CliTest, CompileRunAndReportABundle) {
  const std::string model = kSrc + "/models/digits/digits_int8.onnx", acx = kTmp + "/digits-cli.acx";
  Result c = sh("compile " + model + " --hw vta-default -o " + acx);
  ASSERT_EQ(c.rc, 0) << c.out;
  EXPECT_NE(c.out.find("wrote " + acx + ": "), std::string::npos) << c.out;
  Result r = sh("run " + acx + " --engine fsim --check-defined --input input=" + kSrc +
                "/models/digits/test_x.npy --labels " + kSrc + "/models/digits/test_y.npy");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("top-1 accuracy (fsim): "), std::string::npos) << r.out;
  Result cyc = sh("run " + acx + " --engine cycle --check-defined --input input=" + kSrc +
                  "/models/digits/input.npy --trace " + kTmp + "/digits.trace.json");
  ASSERT_EQ(cyc.rc, 0) << cyc.out;
  EXPECT_NE(cyc.out.find(" cycles on the accelerator, "), std::string::npos) << cyc.out;
  const std::string trace = testing::readFile(kTmp + "/digits.trace.json");
  EXPECT_EQ(trace.rfind("{\"traceEvents\":[", 0), 0u);
  EXPECT_NE(trace.find("\"args\":{\"name\":\"compute\"}"), std::string::npos);
  EXPECT_NE(trace.find("\"name\":\"GEMM\",\"ph\":\"X\""), std::string::npos);
  EXPECT_NE(trace.find(":/c1/Conv\",\"ph\":\"X\",\"pid\":1,\"tid\":0,\"ts\":0,"), std::string::npos);
  std::smatch cm;
  ASSERT_TRUE(std::regex_search(cyc.out, cm, std::regex("\n(\\d+) cycles on the accelerator, "))) << cyc.out;
  ::setenv("ACCELC_RTL_CACHE", (kTmp + "/rtl-cache-run").c_str(), 1);
  Result rtl = sh("run " + acx + " --engine rtl --input input=" + kSrc + "/models/digits/input.npy");
  ASSERT_EQ(rtl.rc, 0) << rtl.out;
  EXPECT_NE(rtl.out.find("\n" + cm[1].str() + " cycles on the accelerator (RTL)"), std::string::npos) << rtl.out;
  // A board's device on a machine without one (no UIO node named accelc): the driver's error, not a crash.
  Result board = sh("run " + acx + " --engine board:pynq-z1 --input input=" + kSrc + "/models/digits/input.npy");
  EXPECT_EQ(board.rc, 1);
  EXPECT_EQ(board.out,
            "device 'board:pynq-z1': error: no accelerator on this machine: no UIO device named 'accelc' in "
            "/sys/class/uio (docs/deploy.md says how a board shows it)\n");
  Result noTrace = sh("run " + acx + " --engine fsim --input input=" + kSrc + "/models/digits/input.npy --trace t.json");
  EXPECT_EQ(noTrace.rc, 1);
  EXPECT_EQ(noTrace.out, "error: --trace needs --engine cycle\n");
  Result plain = sh("report " + acx);
  ASSERT_EQ(plain.rc, 0) << plain.out;
  EXPECT_EQ(plain.out.find("host ms"), std::string::npos);
  EXPECT_NE(plain.out.find("\nall layers: roofline bound "), std::string::npos) << plain.out;
  Result m = sh("report " + acx + " --measure");
  ASSERT_EQ(m.rc, 0) << m.out;
  EXPECT_NE(m.out.find("host ms"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find(" cycles measured on the cycle model: "), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("% of their datapath bound ("), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("\nhost layers: "), std::string::npos) << m.out;
  Result j = sh("report " + acx + " --json --measure");
  ASSERT_EQ(j.rc, 0) << j.out;
  EXPECT_NE(j.out.find("\"host_ms\": "), std::string::npos) << j.out;
  // Each host layer's reason ends with what runs it.
  EXPECT_NE(j.out.find("\"why\": \"host: not an accelerator operator; generated kernel (x86_64-pc-linux-gnu)\""),
            std::string::npos)
      << j.out;
  EXPECT_NE(j.out.find("\"total_roofline_cycles\": "), std::string::npos) << j.out;
  // Bounds below the measured cycles: the roofline, then the datapath (it adds the ALU's cycles).
  auto number = [&](const std::string& key) {
    std::smatch v;
    return std::regex_search(j.out, v, std::regex("\"" + key + "\": (\\d+)")) ? std::stol(v[1]) : -1L;
  };
  const long roofline = number("accelerator_roofline_cycles"), datapath = number("accelerator_datapath_bound_cycles");
  EXPECT_GT(roofline, 0);
  EXPECT_LE(roofline, datapath);
  EXPECT_LE(datapath, number("accelerator_measured_cycles"));
}

// --window: the DRAM a bundle may use (a board's DMA pool), checked when compiling; the window a bundle
// gets is still its model's footprint.
TEST(CliTest, CompileRefusesAModelThatNeedsMoreDramThanTheWindow) {
  const std::string model = kSrc + "/models/digits/digits_int8.onnx", acx = kTmp + "/digits-window.acx";
  Result small = sh("compile " + model + " -o " + acx + " --window 16KiB");
  EXPECT_EQ(small.rc, 1);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(small.out, m,
                                std::regex("error: the model needs (\\d+) bytes of DRAM but --window "
                                           "allows 16384\n$")))
      << small.out;
  const std::string needs = m[1].str();
  Result fits = sh("compile " + model + " -o " + acx + " --window " + needs);
  ASSERT_EQ(fits.rc, 0) << fits.out;
  EXPECT_NE(fits.out.find("(4 on the accelerator), " + needs + " bytes of DRAM\n"), std::string::npos) << fits.out;
  Result bad = sh("compile " + model + " -o " + acx + " --window 12parsecs");
  EXPECT_EQ(bad.rc, 1);
  EXPECT_EQ(bad.out, "error: --window '12parsecs': expected a positive byte count such as 134217728 or 128MiB\n");
  Result host = sh("compile " + model + " -o " + acx + " --window 1MiB --target x86");
  EXPECT_EQ(host.rc, 1);
  EXPECT_EQ(host.out, "error: --window limits the accelerator's DRAM: --target puts every layer on the host\n");
}

// --placement cost: against PYNQ-Z1's Cortex-A9 the convolutions stay on the accelerator, against this
// machine's x86-64 they move to the host; each weighed layer says both estimates, and both bundles classify the
// test digits as the capability placement's bundle does.
TEST(CliTest, PlacementByCostWeighsTheAcceleratorAgainstTheHost) {
  const std::string model = kSrc + "/models/digits/digits_int8.onnx";
  const std::string in = " --input input=" + kSrc + "/models/digits/test_x.npy --labels " + kSrc + "/models/digits/test_y.npy";
  auto top1 = [](const std::string& out) {
    std::smatch m;
    return std::regex_search(out, m, std::regex("top-1 accuracy \\([a-z]+\\): ([0-9.]+)%")) ? m[1].str() : "none";
  };
  Result base = sh("compile " + model + " --hw vta-default -o " + kTmp + "/digits-capability.acx");
  ASSERT_EQ(base.rc, 0) << base.out;
  Result baseRun = sh("run " + kTmp + "/digits-capability.acx --engine fsim" + in);
  ASSERT_EQ(baseRun.rc, 0) << baseRun.out;
  ASSERT_NE(top1(baseRun.out), "none") << baseRun.out;
  for (const std::string host : {"armv7", "x86"}) {
    const std::string acx = kTmp + "/digits-cost-" + host + ".acx";
    Result c = sh("compile " + model + " --hw vta-default --placement cost --host " + host + " -o " + acx);
    ASSERT_EQ(c.rc, 0) << c.out;
    EXPECT_NE(c.out.find(host == "x86" ? "(0 on the accelerator)" : "(4 on the accelerator)"), std::string::npos) << c.out;
    Result j = sh("report " + acx + " --json");
    ASSERT_EQ(j.rc, 0) << j.out;
    const std::string weighed = host == "x86" ? "\"host: by cost: its region of 3 layers takes about "
                                              : "; by cost: its region of 3 layers takes about ";
    EXPECT_NE(j.out.find(weighed), std::string::npos) << j.out;
    EXPECT_NE(j.out.find(host == "x86" ? " on the x86-64 host against " : " on the ARMv7 Cortex-A9 host against "),
              std::string::npos)
        << j.out;
    Result r = sh("run " + acx + " --engine fsim --host-code jit" + in);  // the armv7 bundle's code is ARM's
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(top1(r.out), top1(baseRun.out)) << r.out;
  }
  Result bad = sh("compile " + model + " --placement fastest -o " + kTmp + "/x.acx");
  EXPECT_NE(bad.rc, 0);
  EXPECT_NE(bad.out.find("--placement: fastest not in {accelerator,cost}"), std::string::npos) << bad.out;
}

TEST(CliTest, TargetX86CompilesTheWholeModelForTheHost) {
  const std::string fp32 = kSrc + "/models/digits/digits_fp32.onnx", acx = kTmp + "/digits-x86.acx";
  const std::string in = " --input input=" + kSrc + "/models/digits/test_x.npy --labels " + kSrc + "/models/digits/test_y.npy";
  Result c = sh("compile " + fp32 + " --target x86 -o " + acx);  // a float model: no calibration
  ASSERT_EQ(c.rc, 0) << c.out;
  EXPECT_NE(c.out.find("(0 on the accelerator)"), std::string::npos) << c.out;
  Result r = sh("run " + acx + " --threads 2" + in);  // no --engine: the host runs it
  ASSERT_EQ(r.rc, 0) << r.out;
  std::smatch hm, fm;
  // Its seven steps: the convolutions with their ReLUs fused, the pool, the Flatten (a copy) and the Gemm
  // generated; none on a reference kernel.
  ASSERT_TRUE(std::regex_search(r.out, hm, std::regex("host: 0 accelerator steps, \\d+ host steps \\(kernels: (\\d+) bundle x86_64[^,]*, (\\d+) bundle[^,]*\\(fused\\)\\)"))) << r.out;
  EXPECT_EQ(hm[1].str(), "5") << r.out;
  EXPECT_EQ(hm[2].str(), "2") << r.out;
  Result f = sh("run " + acx + " --engine ref" + in);
  ASSERT_EQ(f.rc, 0) << f.out;
  std::smatch ha, fa;
  ASSERT_TRUE(std::regex_search(r.out, ha, std::regex("top-1 accuracy \\(host\\): ([0-9.]+)%"))) << r.out;
  ASSERT_TRUE(std::regex_search(f.out, fa, std::regex("top-1 accuracy[^:]*: ([0-9.]+)%"))) << f.out;
  EXPECT_EQ(ha[1].str(), fa[1].str());
  // Host code for a baseline CPU needs none of this machine's newer extensions, and runs as the JIT's does.
  const std::string v2 = kTmp + "/digits-x86-v2.acx";
  Result base = sh("compile " + fp32 + " --target x86 --cpu x86-64-v2 -o " + v2);
  ASSERT_EQ(base.rc, 0) << base.out;
  EXPECT_NE(base.out.find("kernels for x86_64-pc-linux-gnu x86-64-v2 ("), std::string::npos) << base.out;
  EXPECT_EQ(base.out.find("avx2"), std::string::npos) << base.out;
  Result j = sh("run " + v2 + " --host-code jit" + in);
  ASSERT_EQ(j.rc, 0) << j.out;
  EXPECT_NE(j.out.find("kernels: 5 jit x86-64"), std::string::npos) << j.out;
  std::smatch ja;
  ASSERT_TRUE(std::regex_search(j.out, ja, std::regex("top-1 accuracy \\(host\\): ([0-9.]+)%"))) << j.out;
  EXPECT_EQ(ja[1].str(), ha[1].str());
  Result cpu = sh("compile " + fp32 + " --target x86 --cpu pentium-nine -o " + v2);
  EXPECT_EQ(cpu.rc, 1);
  EXPECT_NE(cpu.out.find("--cpu 'pentium-nine': LLVM 14 knows no such x86-64 CPU"), std::string::npos) << cpu.out;
  // Code for the boards' ARM cores: built here, refused by this x86-64 runtime, naming the architecture.
  const std::string armAcx = kTmp + "/digits-armv7.acx";
  Result arm = sh("compile " + fp32 + " --target armv7 -o " + armAcx);
  ASSERT_EQ(arm.rc, 0) << arm.out;
  EXPECT_NE(arm.out.find("kernels for armv7-unknown-linux-gnueabihf cortex-a9 ("), std::string::npos) << arm.out;
  EXPECT_NE(arm.out.find("needs neon vfpv3)"), std::string::npos) << arm.out;
  Result armRun = sh("run " + armAcx + in);
  EXPECT_EQ(armRun.rc, 1);
  EXPECT_NE(armRun.out.find("the host code was built for armv7-unknown-linux-gnueabihf; this runtime runs x86_64 code"),
            std::string::npos)
      << armRun.out;
  // PTX for a GPU: where no CUDA driver exists, the run fails naming the first step the GPU would run.
  const std::string cudaAcx = kTmp + "/digits-cuda.acx";
  Result cuda = sh("compile " + fp32 + " --target cuda -o " + cudaAcx);
  ASSERT_EQ(cuda.rc, 0) << cuda.out;
  EXPECT_NE(cuda.out.find("kernels for nvptx64-nvidia-cuda sm_80 ("), std::string::npos) << cuda.out;
  struct stat st;
  const bool driver = ::stat("/usr/lib/x86_64-linux-gnu/libcuda.so.1", &st) == 0;
  Result cudaRun = sh("run " + cudaAcx + in);
  if (!driver) {
    EXPECT_EQ(cudaRun.rc, 1);
    EXPECT_NE(cudaRun.out.find("digits-cuda.acx[host]: error: step '/c1/Conv' runs on a CUDA GPU (its code is PTX for "
                               "sm_80), and this machine has no CUDA driver (libcuda.so.1)"),
              std::string::npos)
        << cudaRun.out;
  }
  Result bad = sh("compile " + fp32 + " --target sparc -o " + acx);
  EXPECT_EQ(bad.out, "error: --target 'sparc': expected x86, aarch64, armv7 or cuda\n");
  Result q = sh("compile " + fp32 + " --quantize -o " + acx);
  EXPECT_EQ(q.out, "error: --quantize asks for int8 on the host: it needs --target\n");
}

TEST(CliTest, RunLimitsEndARunSayingWhichAndWhereAndInputsAreCheckedFirst) {
  ASSERT_EQ(sh("asm " + kSrc + "/examples/dense_relu.s -o " + kTmp + "/lim.bin").rc, 0);
  const std::string x = kSrc + "/examples/dense_relu_input.npy";
  Result i = sh("sim " + kTmp + "/lim.bin --input x=" + x + " --max-insns 2");
  EXPECT_EQ(i.rc, 1);
  EXPECT_EQ(i.out, kTmp + "/lim.bin:pc 0: error: the run reached --max-insns (2 instructions) at this instruction; "
                          "raise --max-insns if the program is meant to run longer\n");
  Result c = sh("sim " + kTmp + "/lim.bin --engine cycle --input x=" + x + " --max-cycles 50");
  EXPECT_EQ(c.rc, 1);
  EXPECT_NE(c.out.find("error: the run reached --max-cycles (50 cycles) at this instruction"), std::string::npos) << c.out;
  // The RTL engine would verilate first: a missing input is reported before that.
  const std::string cache = kTmp + "/rtl-cache-unused";
  ::setenv("ACCELC_RTL_CACHE", cache.c_str(), 1);
  Result r = sh("sim " + kTmp + "/lim.bin --engine rtl");
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, kTmp + "/lim.bin: error: input symbol 'x' (int8 1x32) was not given; pass --input x=FILE.npy\n");
  EXPECT_FALSE(std::ifstream(cache).good()) << "the RTL cache was touched before the inputs were checked";
}

TEST(CliTest, RunAndReportRefuseACorruptBundleNamingTheSection) {
  const std::string acx = kTmp + "/digits-flip.acx";
  ASSERT_EQ(sh("compile " + kSrc + "/models/digits/digits_int8.onnx --hw vta-default -o " + acx).rc, 0);
  std::string bytes = testing::readFile(acx);
  bytes[bytes.size() - 3] ^= 4;  // inside the last section, the host code
  std::ofstream(kTmp + "/flipped.acx", std::ios::binary) << bytes;
  const std::string want = kTmp + "/flipped.acx: error: bundle section 'host' is corrupt (checksum mismatch)\n";
  for (const std::string& cmd : {"run " + kTmp + "/flipped.acx --engine fsim --input input=" + kSrc +
                                     "/models/digits/input.npy",
                                 "report " + kTmp + "/flipped.acx", "disasm " + kTmp + "/flipped.acx"}) {
    Result r = sh(cmd);
    EXPECT_EQ(r.rc, 1) << cmd;
    EXPECT_EQ(r.out, want) << cmd;
  }
}

}  // namespace
}  // namespace accelc

namespace accelc {
namespace {

TEST(CliTest, ASweepEvaluatesEachPointOnceAndRecordsThoseThatFail) {
  const std::string dir = kTmp + "/dse", sweep = kTmp + "/dse-sweep.yaml";
  std::filesystem::remove_all(dir);
  std::ofstream(sweep) << "base: vta-default\nvary:\n  timing.alu_ii: [1, 2]\n  buffers.acc: [32B, 128KiB]\n";
  const std::string cmd = "dse " + kSrc + "/models/digits/digits_int8.onnx --sweep " + sweep + " -o " + dir + " --jobs 2";
  Result r = sh(cmd);
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("4 points, 4 to evaluate"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 points: 2 ok, 2 failed; 4 evaluated now, 0 from earlier runs; 2 on the Pareto front"),
            std::string::npos)
      << r.out;
  const std::string results = testing::readFile(dir + "/results.jsonl");
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = results.find('\n', at)) != std::string::npos; at = nl + 1) lines.push_back(results.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 4u) << results;
  EXPECT_EQ(lines[0].rfind("{\"point\":0,", 0), 0u);
  EXPECT_NE(lines[0].find("\"ok\":false,\"error\":\"" + sweep +
                          " point 0 (timing.alu_ii=1, buffers.acc=32B): error: buffer 'buffers.acc' holds 32 bytes, less "
                          "than one tile (64 bytes)\""),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[1].find("\"ok\":true,\"cycles\":"), std::string::npos) << lines[1];
  const std::string svg = testing::readFile(dir + "/front.svg");
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++circles;
  EXPECT_EQ(circles, 2u);
  // Run again: every record is current, nothing is evaluated, the results are the same bytes.
  r = sh(cmd);
  EXPECT_NE(r.out.find("4 points, 0 to evaluate"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(dir + "/results.jsonl"), results);
  // Stopped halfway: the points without a record run, and only they.
  std::filesystem::remove(dir + "/points/1.json");
  std::filesystem::remove(dir + "/points/2.json");
  r = sh(cmd);
  EXPECT_NE(r.out.find("4 points, 2 to evaluate"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 evaluated now, 2 from earlier runs"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(dir + "/results.jsonl"), results);
  // A record made for other hardware or another build (its key) is evaluated again.
  std::string stale = testing::readFile(dir + "/points/3.json");
  stale.replace(stale.find("\"key\":\"") + 7, 4, "ffff");
  std::ofstream(dir + "/points/3.json") << stale;
  r = sh(cmd);
  EXPECT_NE(r.out.find("4 points, 1 to evaluate"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(dir + "/results.jsonl"), results);
  // The MPI engine (mpirun, rank 0 handing points to two worker ranks) writes the same results.
  std::filesystem::remove_all(dir + "-mpi");
  r = sh("dse " + kSrc + "/models/digits/digits_int8.onnx --sweep " + sweep + " -o " + dir + "-mpi --engine mpi --jobs 2");
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("4 points: 2 ok, 2 failed; 4 evaluated now"), std::string::npos) << r.out;
  EXPECT_EQ(testing::readFile(dir + "-mpi/results.jsonl"), results);
  // A bad sweep stops before any point runs.
  std::ofstream(sweep) << "base: vta-default\nvary:\n  timing.alu: [1]\n";
  r = sh(cmd);
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out.rfind(sweep + ":3:3: error: 'timing.alu' is not a hwspec key a sweep can vary", 0), 0u) << r.out;
}

// accelc tune writes a log that compile --tune-log takes; bad budgets and bad logs are located errors.
TEST(CliTest, TuneWritesALogThatCompileReuses) {
  const std::string model = kSrc + "/models/digits/digits_int8.onnx", log = kTmp + "/digits.tune.jsonl";
  std::filesystem::remove(log);
  Result r = sh("tune " + model + " --hw tiny --budget 20s --jobs 2 --log " + log);
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("estimate: "), std::string::npos) << "plain progress lines off a terminal\n" << r.out;
  EXPECT_NE(r.out.find("distinct layers tuned"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cycles untuned"), std::string::npos) << r.out;
  const std::string text = testing::readFile(log);
  const size_t entries = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  ASSERT_GE(entries, 3u) << text;
  r = sh("compile " + model + " --hw tiny -o " + kTmp + "/digits-tuned.acx --tune-log " + log);
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find(std::to_string(entries) + " of its " + std::to_string(entries) + " entries apply"),
            std::string::npos)
      << r.out;
  r = sh("report " + kTmp + "/digits-tuned.acx --json");
  EXPECT_NE(r.out.find("accelerator: tuned: "), std::string::npos) << "each layer's reason names the log\n" << r.out;
  // Another hwspec's compile ignores every entry, saying why.
  r = sh("compile " + model + " --hw vta-default -o " + kTmp + "/digits-vta.acx --tune-log " + log);
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("ignored, tuned for another hwspec"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 of its"), std::string::npos) << r.out;
  r = sh("tune " + model + " --hw tiny --budget 5x");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("--budget '5x': expected a time such as 60s"), std::string::npos) << r.out;
  std::ofstream(kTmp + "/bad.tune.jsonl") << text << "{\"key\": 3}\n";
  r = sh("compile " + model + " --hw tiny -o " + kTmp + "/digits-bad.acx --tune-log " + kTmp + "/bad.tune.jsonl");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("bad.tune.jsonl:" + std::to_string(entries + 1) + ": error: expected a string \"key\""),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace accelc

