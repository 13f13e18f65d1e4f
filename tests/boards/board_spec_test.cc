// tests/boards/board_spec_test.cc — the Zynq board files (boards/*.yaml):
// every bundled board loads with its part's resources; each kind of bad
// input has its exact located message; and the fit check counts the
// accelerator's multipliers, block RAMs and DRAM bus against the board,
// refusing what does not fit by the resource.
#include <gtest/gtest.h>

#include "boards/board_fit.h"
#include "hwspec/hwspec.h"
#include "isa/target.h"

namespace accelc::boards {
namespace {

const char* const kPynq = R"(schema: 1
name: pynq-z1
description: Digilent PYNQ-Z1
part: xc7z020clg400-1
ps:
  type: zynq-7000
  ports:
    - {name: S_AXI_HP0, width_bits: 64}
  control_port: M_AXI_GP0
fabric_clock_mhz: 100
ddr:
  base: 0x00000000
  bytes: 512MiB
control_base: 0x43C00000
dma:
  allocator: cma
  device: /dev/dma_heap/linux,cma
  pool_bytes: 128MiB
)";

/// kPynq with `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string s = kPynq;
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

std::string errorOf(const std::string& text) {
  auto b = parseBoardSpec(text, "board.yaml");
  return b ? "parsed" : b.diag().str();
}

/// The target of preset `name` with `from` replaced by `to` in its YAML.
isa::Target presetWith(const std::string& name, const std::string& from, const std::string& to) {
  std::string text = hwspec::presetText(name);
  if (!from.empty()) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  auto spec = hwspec::parseHwSpec(text, name + ".yaml");
  EXPECT_TRUE(spec.isOk()) << spec.diag().str();
  auto t = isa::loadTarget(*spec);
  EXPECT_TRUE(t.isOk()) << t.diag().str();
  return *t;
}

TEST(BoardSpecTest, EveryBundledBoardLoadsWithItsPartsResources) {
  EXPECT_EQ(boardNames(), (std::vector<std::string>{"kv260", "pynq-z1", "ultra96-v2", "zcu104"}));
  for (const std::string& n : boardNames()) {
    auto b = loadBoard(n);
    ASSERT_TRUE(b.isOk()) << b.diag().str();
    EXPECT_EQ(b->name, n);
    ASSERT_TRUE(partInfo(b->part));
    EXPECT_EQ(b->resources.dsp, partInfo(b->part)->res.dsp);
    EXPECT_FALSE(b->ports.empty());
  }
  auto pynq = loadBoard("pynq-z1");
  ASSERT_TRUE(pynq.isOk());
  EXPECT_EQ(pynq->resources.dsp, 220);
  EXPECT_EQ(pynq->resources.lut, 53200);
  EXPECT_EQ(pynq->ps, PsType::kZynq7000);
  EXPECT_EQ(pynq->controlBase, 0x43C00000u);
  EXPECT_EQ(pynq->ddrBytes, 512u << 20);
  EXPECT_EQ(pynq->dma, DmaAllocator::kUdmabuf);
  EXPECT_EQ(pynq->dmaDevice, "/dev/udmabuf0");
  auto kv = loadBoard("kv260");
  ASSERT_TRUE(kv.isOk());
  EXPECT_EQ(kv->resources.uram, 64);
  EXPECT_EQ(kv->dma, DmaAllocator::kUdmabuf);
  EXPECT_EQ(parseBoardSpec(kPynq, "board.yaml").status().str(), "ok");
  EXPECT_EQ(loadBoard("pynq-z2").status().str(),
            "pynq-z2: error: no such board or board file; the bundled boards are kv260, pynq-z1, ultra96-v2, zcu104");
}

TEST(BoardSpecTest, BadBoardFilesGetLocatedErrors) {
  EXPECT_EQ(errorOf(edited("fabric_clock_mhz: 100", "fabric_clock_mhz: 100\ncolour: red")),
            "board.yaml:11:1: error: unknown key 'colour'; expected one of: schema, name, description, part, ps, "
            "fabric_clock_mhz, ddr, control_base, dma");
  EXPECT_EQ(errorOf(edited("  control_port: M_AXI_GP0\n", "")),
            "board.yaml:6:3: error: missing key 'ps.control_port' (expected a string)");
  EXPECT_EQ(errorOf(edited("width_bits: 64", "width_bits: wide")),
            "board.yaml:8:37: error: key 'ps.ports[0].width_bits': expected an integer in [32, 1024], found 'wide'");
  EXPECT_EQ(errorOf(edited("part: xc7z020clg400-1", "part: xc7z045ffg900-2")),
            "board.yaml:4:7: error: key 'part': unknown part 'xc7z045ffg900-2'; the known parts are xc7z020clg400-1, "
            "xczu3eg-sbva484-1-i, xczu7ev-ffvc1156-2-e, xck26-sfvc784-2LV-c");
  EXPECT_EQ(errorOf(edited("type: zynq-7000", "type: zynq-ultrascale+")),
            "board.yaml:6:9: error: key 'ps.type': part xc7z020clg400-1 has a zynq-7000 processing system");
  EXPECT_EQ(errorOf(edited("allocator: cma", "allocator: malloc")),
            "board.yaml:16:14: error: key 'dma.allocator': expected cma or udmabuf, found 'malloc'");
  EXPECT_EQ(errorOf(edited("bytes: 512MiB", "bytes: lots")),
            "board.yaml:13:10: error: key 'ddr.bytes': expected a byte size such as 4096, 32KiB or 1MiB, found 'lots'");
  EXPECT_EQ(errorOf(edited("pool_bytes: 128MiB", "pool_bytes: 1GiB")),
            "board.yaml:18:15: error: key 'dma.pool_bytes': expected at most ddr.bytes (536870912), found 1073741824");
}

TEST(BoardSpecTest, TheFitCountsMultipliersBlockRamsAndTheDramBus) {
  auto pynq = loadBoard("pynq-z1");
  ASSERT_TRUE(pynq.isOk());
  // vta-default: 256 int8 products and 16 lanes x 4 pieces of mulq, 320 multipliers for 220 DSPs: the 64 pieces
  // and 156 products on DSPs, 100 products in LUTs.
  const isa::Target vta = presetWith("vta-default", "", "");
  const std::vector<ResourceFit> rows = fitOnBoard(*pynq, vta);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].resource, "DSP");
  EXPECT_EQ(rows[0].need, 220);
  EXPECT_EQ(bindingOn(*pynq, vta).dspProducts, 156);
  // LUTs: 100 products in fabric, 16 adder trees of 15 17-bit adders and a 32-bit accumulation, 16 ALU lanes of
  // its nine operations, and the control allowance.
  EXPECT_EQ(rows[1].resource, "LUT");
  EXPECT_EQ(rows[1].need, 100 * 166 + 16 * (15 * 17 + 32) + 16 * (32 + 48 + 48 + 40 + 96 + 180 + 200 + 96 + 8 + 32) + 4000);
  // Block RAMs, each buffer one memory of whole entries: micro-ops 8192 x 96 bits in 44, inputs 2048 x 128 in
  // 15, weights 1024 x 2048 in 114, accumulators 2048 x 512 in 57, outputs 2048 x 128 in 15; three command
  // queues of 512 x 161 bits in 5 each, four token queues in 1 each: 264 of 280.
  EXPECT_EQ(rows[3].resource, "BRAM18");
  EXPECT_EQ(rows[3].need, 44 + 15 + 114 + 57 + 15 + 3 * 5 + 4);
  EXPECT_EQ(rows[5].need, 64);  // 8 bytes a beat on a 64-bit HP port
  EXPECT_EQ(checkFit(*pynq, vta).str(), "ok");
  // With the ALU at an initiation interval of 1 the accumulator needs a second copy: 321 block RAMs.
  EXPECT_EQ(checkFit(*pynq, presetWith("vta-default", "alu_ii: 2", "alu_ii: 1")).str(),
            "boards/pynq-z1.yaml: error: the accelerator of 'vta-default' does not fit pynq-z1: BRAM18 needs 321, the "
            "board has 280 (each buffer one memory of whole entries (acc twice), and the command and token queues of "
            "128 or more)");
  // On a part with URAM the weights and accumulators move there.
  auto zcu = loadBoard("zcu104");
  ASSERT_TRUE(zcu.isOk());
  const hls::HlsBinding onZcu = bindingOn(*zcu, vta);
  EXPECT_TRUE(onZcu.uram[static_cast<int>(hwspec::BufferKind::kWeight)]);
  EXPECT_TRUE(onZcu.uram[static_cast<int>(hwspec::BufferKind::kAcc)]);
  EXPECT_FALSE(onZcu.uram[static_cast<int>(hwspec::BufferKind::kInput)]);
  // A 1x64x64 core: 4096 products and 256 pieces for 220 DSPs; the 36 pieces and 4096 products left take more
  // LUTs than the part has.
  const std::string big = checkFit(*pynq, presetWith("vta-default", "{batch: 1, block_in: 16, block_out: 16}",
                                                     "{batch: 1, block_in: 64, block_out: 64}"))
                              .str();
  EXPECT_EQ(big.rfind("boards/pynq-z1.yaml: error: the accelerator of 'vta-default' does not fit pynq-z1: LUT needs ", 0),
            0u) << big;
  EXPECT_NE(big.find("(4096 products x 166 + 36 pieces x 539 in fabric, "), std::string::npos) << big;
  // tiny with a 16-byte DRAM beat: 128 bits on a 64-bit port.
  EXPECT_EQ(checkFit(*pynq, presetWith("tiny", "bytes_per_cycle: 4", "bytes_per_cycle: 16")).str(),
            "boards/pynq-z1.yaml: error: the accelerator of 'tiny' does not fit pynq-z1: AXI data width (bits) needs "
            "128, the board has 64 (dram.bytes_per_cycle a beat)");
  EXPECT_EQ(checkFit(*zcu, presetWith("tiny", "bytes_per_cycle: 4", "bytes_per_cycle: 16")).str(), "ok");
}

}  // namespace
}  // namespace accelc::boards
