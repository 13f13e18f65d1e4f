// accelc_accel.cpp — the accelerator's units as free-running hls::tasks.
//
// Fetch reads instructions from DRAM and dispatches each to the command
// stream of its unit; load, compute and store each run their stream's
// instructions in order, exchanging dependency tokens through four bounded
// streams (docs/isa.md, isa/tokens.h). The token streams form cycles
// (load <-> compute <-> store), which is why the units are hls::tasks and not
// functions of a DATAFLOW region: C-simulation runs those one after another,
// and a feedback read would find its stream empty.
//
// An instruction pops its tokens before it runs and pushes them after; a
// unit records what it waits on before each blocking access, so that when
// every unit is blocked the register file tells which instruction waits on
// which queue. A fault (an illegal instruction, a transfer outside the
// window) sets the unit's STATUS bits and its pc; the unit then drops its
// commands without running them or pushing tokens, so the machine stops at
// the next instruction boundary.
#include "accelc_accel.h"

#include "accelc_arith_ops.h"

namespace {

using namespace accelc::isa::arith;

/// A command: an instruction word and its index, or the end of a program.
struct cmd_t {
  insn_word_t word;
  uint32_t pc;
  bool end;
};

typedef hls::stream<cmd_t, CMD_DEPTH> cmd_q;
typedef hls::stream<bool, TOKEN_DEPTH> tok_q;

/// The on-chip buffers (docs/isa.md): load writes inp and wgt, compute the
/// rest; compute reads inp, wgt, uop and acc, store reads out.
struct uop_entry {
  uint32_t dst, src, wgt;
};
uop_entry uop_buf[UOP_DEPTH];
int8_t inp_buf[INP_DEPTH][BATCH * BLOCK_IN];
int8_t wgt_buf[WGT_DEPTH][BLOCK_OUT * BLOCK_IN];
int32_t acc_buf[ACC_DEPTH][BATCH * BLOCK_OUT];
int8_t out_buf[OUT_DEPTH][BATCH * BLOCK_OUT];

/// The dependency flags every format has.
struct deps_t {
  bool pop_prev, pop_next, push_prev, push_next;
};
template <typename T>
deps_t deps_of(const T& i) {
  deps_t d = {i.pop_prev != 0, i.pop_next != 0, i.push_prev != 0, i.push_next != 0};
  return d;
}

/// The unit an instruction runs on: 0 load, 1 compute, 2 store.
int unit_of(const insn_word_t& w) {
  const int64_t op = opcode_code(w);
  if (op == OPCODE_STORE) return 2;
  if (op == OPCODE_LOAD) {
    const int64_t b = decode_mem(w).buffer;
    return b == BUFFER_INP || b == BUFFER_WGT ? 0 : 1;
  }
  return 1;
}

/// Whether every flag names a queue the unit has (isa/tokens.h, flagError).
bool flags_legal(const deps_t& d, int unit) {
  if (unit == 0) return !d.pop_prev && !d.push_prev;
  if (unit == 2) return !d.pop_next && !d.push_next;
  return true;
}

deps_t deps_of_word(const insn_word_t& w) {
  const int64_t op = opcode_code(w);
  if (op == OPCODE_LOAD || op == OPCODE_STORE) return deps_of(decode_mem(w));
  if (op == OPCODE_GEMM) return deps_of(decode_gemm(w));
  if (op == OPCODE_ALU) return deps_of(decode_alu(w));
  return deps_of(decode_finish(w));
}

void fault(accelc_unit_regs* r, uint32_t bits, uint32_t pc) {
  r->fault = bits;
  r->fault_pc = pc;
}

// ---- DRAM ----

/// Reads `n` bytes at byte `addr`, one beat at a time.
void dram_read(const dram_beat_t* dram, uint64_t addr, uint8_t* out, int n) {
  uint64_t beat = addr / DRAM_BEAT_BYTES;
  int off = static_cast<int>(addr % DRAM_BEAT_BYTES);
  dram_beat_t word = dram[beat];
  for (int k = 0; k < n; ++k) {
#pragma HLS loop_tripcount max = MAX_ENTRY_BYTES
#pragma HLS pipeline II = 1
    if (off == DRAM_BEAT_BYTES) word = dram[++beat], off = 0;
    out[k] = static_cast<uint8_t>(word.range(8 * off + 7, 8 * off).to_uint64());
    ++off;
  }
}

/// Writes `n` bytes at byte `addr`; a beat written in part keeps its other bytes.
void dram_write(dram_beat_t* dram, uint64_t addr, const uint8_t* in, int n) {
  uint64_t beat = addr / DRAM_BEAT_BYTES;
  int off = static_cast<int>(addr % DRAM_BEAT_BYTES);
  dram_beat_t word = dram[beat];
  for (int k = 0; k < n; ++k) {
#pragma HLS loop_tripcount max = MAX_ENTRY_BYTES
#pragma HLS pipeline II = 1
    if (off == DRAM_BEAT_BYTES) dram[beat] = word, word = dram[++beat], off = 0;
    word.range(8 * off + 7, 8 * off) = in[k];
    ++off;
  }
  dram[beat] = word;
}

/// The DRAM check of a 2-D transfer: 0, or the STATUS bit it breaks.
uint32_t dram_check(const mem_insn_t& m, int64_t elem, uint64_t window) {
  if (m.x_size < 1 || m.y_size < 1) return STATUS_ILLEGAL;
  const uint64_t last = static_cast<uint64_t>(m.dram_base) +
                        static_cast<uint64_t>((m.y_size - 1) * m.x_stride + m.x_size);
  return last <= window / static_cast<uint64_t>(elem) ? 0 : STATUS_DMA_WINDOW;
}

// ---- LOAD and STORE ----

void write_entry(int64_t buffer, int64_t idx, const uint8_t* src) {
  if (buffer == BUFFER_UOP) {
    uop_word_t w = 0;
    for (int k = 0; k < UOP_BYTES; ++k) w.range(8 * k + 7, 8 * k) = src[k];
    const uop_t u = decode_uop(w);
    uop_entry e = {static_cast<uint32_t>(u.dst), static_cast<uint32_t>(u.src), static_cast<uint32_t>(u.wgt)};
    uop_buf[idx] = e;
  } else if (buffer == BUFFER_INP) {
    for (int k = 0; k < BATCH * BLOCK_IN; ++k) inp_buf[idx][k] = static_cast<int8_t>(src[k]);
  } else if (buffer == BUFFER_WGT) {
    for (int k = 0; k < BLOCK_OUT * BLOCK_IN; ++k) wgt_buf[idx][k] = static_cast<int8_t>(src[k]);
  } else if (buffer == BUFFER_ACC) {
    for (int k = 0; k < BATCH * BLOCK_OUT; ++k)
      acc_buf[idx][k] = static_cast<int32_t>(src[4 * k] | (src[4 * k + 1] << 8) | (src[4 * k + 2] << 16) |
                                             (static_cast<uint32_t>(src[4 * k + 3]) << 24));
  } else {  // acc8: int8 data, sign-extended
    for (int k = 0; k < BATCH * BLOCK_OUT; ++k) acc_buf[idx][k] = static_cast<int8_t>(src[k]);
  }
}

/// LOAD on the load or the compute unit.
void run_load(const mem_insn_t& m, uint32_t pc, const dram_beat_t* dram, uint64_t window, accelc_unit_regs* r) {
  const int64_t b = m.buffer;
  if (b == BUFFER_OUT) return fault(r, STATUS_ILLEGAL, pc);
  const int64_t elem = dram_entry_bytes(b), sram = sram_of(b);
  if (const uint32_t bad = dram_check(m, elem, window)) return fault(r, bad, pc);
  const int64_t cols = m.x_pad_0 + m.x_size + m.x_pad_1, rows = m.y_pad_0 + m.y_size + m.y_pad_1;
  if (m.sram_base + rows * cols > sram_depth(sram)) return fault(r, STATUS_ILLEGAL, pc);
  uint8_t entry[MAX_ENTRY_BYTES];
  for (int64_t y = 0; y < rows; ++y) {
#pragma HLS loop_tripcount max = 64
    for (int64_t x = 0; x < cols; ++x) {
#pragma HLS loop_tripcount max = 64
      const int64_t yy = y - m.y_pad_0, xx = x - m.x_pad_0;
      if (yy < 0 || yy >= m.y_size || xx < 0 || xx >= m.x_size) {
        for (int k = 0; k < MAX_ENTRY_BYTES; ++k) entry[k] = 0;
      } else {
        dram_read(dram, static_cast<uint64_t>(m.dram_base + yy * m.x_stride + xx) * elem, entry,
                  static_cast<int>(elem));
      }
      write_entry(b, m.sram_base + y * cols + x, entry);
    }
  }
  r->dram_read_bytes += m.y_size * m.x_size * elem;
  r->sram_write_bytes[sram] += rows * cols * sram_entry_bytes(sram);
}

void run_store(const mem_insn_t& m, uint32_t pc, dram_beat_t* dram, uint64_t window, accelc_unit_regs* r) {
  if (m.buffer != BUFFER_OUT || m.y_pad_0 || m.y_pad_1 || m.x_pad_0 || m.x_pad_1)
    return fault(r, STATUS_ILLEGAL, pc);
  const int64_t elem = dram_entry_bytes(BUFFER_OUT);
  if (const uint32_t bad = dram_check(m, elem, window)) return fault(r, bad, pc);
  if (m.sram_base + m.y_size * m.x_size > OUT_DEPTH) return fault(r, STATUS_ILLEGAL, pc);
  uint8_t entry[BATCH * BLOCK_OUT];
  for (int64_t y = 0; y < m.y_size; ++y) {
#pragma HLS loop_tripcount max = 64
    for (int64_t x = 0; x < m.x_size; ++x) {
#pragma HLS loop_tripcount max = 64
      const int64_t idx = m.sram_base + y * m.x_size + x;
      for (int k = 0; k < BATCH * BLOCK_OUT; ++k) entry[k] = static_cast<uint8_t>(out_buf[idx][k]);
      dram_write(dram, static_cast<uint64_t>(m.dram_base + y * m.x_stride + x) * elem, entry,
                 static_cast<int>(elem));
    }
  }
  r->dram_write_bytes += m.y_size * m.x_size * elem;
  r->sram_read_bytes[SRAM_OUTPUT] += m.y_size * m.x_size * elem;
}

// ---- GEMM and ALU ----

/// The loop check of GEMM and ALU (docs/isa.md): a micro-op range inside the
/// buffer, loops of at least one, every index inside its buffer.
template <typename Insn>
bool loops_legal(const Insn& g, bool reads_src, int64_t src_depth, bool reads_wgt, int64_t wgt_out, int64_t wgt_in) {
  if (g.uop_bgn >= g.uop_end || g.uop_end > UOP_DEPTH || g.iter_out < 1 || g.iter_in < 1) return false;
  int64_t dst = 0, src = 0, wgt = 0;
  for (int64_t u = g.uop_bgn; u < g.uop_end; ++u) {
#pragma HLS loop_tripcount max = UOP_DEPTH
    if (uop_buf[u].dst > dst) dst = uop_buf[u].dst;
    if (uop_buf[u].src > src) src = uop_buf[u].src;
    if (uop_buf[u].wgt > wgt) wgt = uop_buf[u].wgt;
  }
  dst += (g.iter_out - 1) * g.dst_factor_out + (g.iter_in - 1) * g.dst_factor_in;
  src += (g.iter_out - 1) * g.src_factor_out + (g.iter_in - 1) * g.src_factor_in;
  wgt += (g.iter_out - 1) * wgt_out + (g.iter_in - 1) * wgt_in;
  if (dst >= (ACC_DEPTH < OUT_DEPTH ? ACC_DEPTH : OUT_DEPTH)) return false;
  if (reads_src && src >= src_depth) return false;
  return !reads_wgt || wgt < WGT_DEPTH;
}

/// An int8 product on a DSP, and one in fabric: the first GEMM_DSP_PRODUCTS
/// products of the core take DSPs (hls/hls_estimate.h decides how many).
int32_t product_dsp(int8_t a, int8_t b) {
#pragma HLS inline
  const int32_t p = static_cast<int32_t>(a) * static_cast<int32_t>(b);
#pragma HLS bind_op variable = p op = mul impl = dsp
  return p;
}
int32_t product_fabric(int8_t a, int8_t b) {
#pragma HLS inline
  const int32_t p = static_cast<int32_t>(a) * static_cast<int32_t>(b);
#pragma HLS bind_op variable = p op = mul impl = fabric
  return p;
}

/// One micro-op application of GEMM: acc[dst] += inp[src] x wgt[w]^T.
void gemm_app(int64_t dst, int64_t src, int64_t w, bool reset) {
#pragma HLS inline
  for (int b = 0; b < BATCH; ++b) {
    for (int o = 0; o < BLOCK_OUT; ++o) {
#pragma HLS unroll
      int32_t sum = 0;
      for (int k = 0; k < BLOCK_IN; ++k) {
#pragma HLS unroll
        const int n = (b * BLOCK_OUT + o) * BLOCK_IN + k;
        const int8_t x = inp_buf[src][b * BLOCK_IN + k], y = wgt_buf[w][o * BLOCK_IN + k];
        sum += n < GEMM_DSP_PRODUCTS ? product_dsp(x, y) : product_fabric(x, y);
      }
      int32_t& acc = acc_buf[dst][b * BLOCK_OUT + o];
      acc = reset ? 0 : gemmAccumulate(acc, sum);
      out_buf[dst][b * BLOCK_OUT + o] = saturateInt8(acc);
    }
  }
}

void run_gemm(const gemm_insn_t& g, uint32_t pc, accelc_unit_regs* r) {
  const bool reset = g.reset != 0;
  if (!loops_legal(g, !reset, INP_DEPTH, !reset, g.wgt_factor_out, g.wgt_factor_in))
    return fault(r, STATUS_ILLEGAL, pc);
  for (int64_t i0 = 0; i0 < g.iter_out; ++i0) {
#pragma HLS loop_tripcount max = 16
    for (int64_t i1 = 0; i1 < g.iter_in; ++i1) {
#pragma HLS loop_tripcount max = 16
      for (int64_t u = g.uop_bgn; u < g.uop_end; ++u) {
#pragma HLS loop_tripcount max = 64
#pragma HLS pipeline II = GEMM_II
        const uop_entry e = uop_buf[u];
        gemm_app(e.dst + i0 * g.dst_factor_out + i1 * g.dst_factor_in,
                 e.src + i0 * g.src_factor_out + i1 * g.src_factor_in,
                 e.wgt + i0 * g.wgt_factor_out + i1 * g.wgt_factor_in, reset);
      }
    }
  }
  const uint64_t apps = static_cast<uint64_t>(g.iter_out * g.iter_in * (g.uop_end - g.uop_bgn));
  const uint64_t row = BATCH * BLOCK_OUT;
  r->gemm_uops += apps;
  if (!reset) {
    r->macs += apps * BATCH * BLOCK_IN * BLOCK_OUT;
    r->sram_read_bytes[SRAM_INPUT] += apps * sram_entry_bytes(SRAM_INPUT);
    r->sram_read_bytes[SRAM_WEIGHT] += apps * sram_entry_bytes(SRAM_WEIGHT);
    r->sram_read_bytes[SRAM_ACC] += apps * row * 4;
  }
  r->sram_write_bytes[SRAM_ACC] += apps * row * 4;
  r->sram_write_bytes[SRAM_OUTPUT] += apps * row;
}

void run_alu(const alu_insn_t& a, uint32_t pc, accelc_unit_regs* r) {
  const int64_t op = a.alu_op;
  const bool reset = a.reset != 0, use_src = !reset && !a.use_imm;
  if (!alu_op_in_hardware(op) || !loops_legal(a, use_src, ACC_DEPTH, false, 0, 0))
    return fault(r, STATUS_ILLEGAL, pc);
  const int32_t imm = alu_immediate(op, a.imm);
  for (int64_t i0 = 0; i0 < a.iter_out; ++i0) {
#pragma HLS loop_tripcount max = 16
    for (int64_t i1 = 0; i1 < a.iter_in; ++i1) {
#pragma HLS loop_tripcount max = 16
      for (int64_t u = a.uop_bgn; u < a.uop_end; ++u) {
#pragma HLS loop_tripcount max = 64
#pragma HLS pipeline II = ALU_II
        const uop_entry e = uop_buf[u];
        const int64_t dst = e.dst + i0 * a.dst_factor_out + i1 * a.dst_factor_in;
        const int64_t src = e.src + i0 * a.src_factor_out + i1 * a.src_factor_in;
        for (int k = 0; k < BATCH * BLOCK_OUT; ++k) {
#pragma HLS unroll
          const int32_t d = acc_buf[dst][k];
          const int32_t v = reset ? 0 : alu_apply(op, d, use_src ? acc_buf[src][k] : imm);
          acc_buf[dst][k] = v;
          out_buf[dst][k] = saturateInt8(v);
        }
      }
    }
  }
  const uint64_t apps = static_cast<uint64_t>(a.iter_out * a.iter_in * (a.uop_end - a.uop_bgn));
  const uint64_t row = BATCH * BLOCK_OUT;
  r->alu_uops += apps;
  r->sram_read_bytes[SRAM_ACC] += apps * row * 4 * (use_src ? 2 : 1);
  r->sram_write_bytes[SRAM_ACC] += apps * row * 4;
  r->sram_write_bytes[SRAM_OUTPUT] += apps * row;
}

// ---- tokens ----

/// The four token streams as one unit sees them; `q*` name them (isa order).
struct neighbours {
  tok_q* prev_in;
  tok_q* next_in;
  tok_q* prev_out;
  tok_q* next_out;
  int q_prev_in, q_next_in, q_prev_out, q_next_out;
};

/// Takes the tokens an instruction pops: the previous unit's first, as
/// isa/tokens.h orders them; a token counts as popped once both are there.
void acquire(const deps_t& d, const neighbours& n, accelc_unit_regs* r) {
  if (d.pop_prev) r->wait_kind = WAIT_EMPTY, r->wait_queue = n.q_prev_in, n.prev_in->read();
  if (d.pop_next) r->wait_kind = WAIT_EMPTY, r->wait_queue = n.q_next_in, n.next_in->read();
  if (d.pop_prev) ++r->pops[n.q_prev_in];
  if (d.pop_next) ++r->pops[n.q_next_in];
  r->wait_kind = WAIT_READY;
}

/// Pushes the tokens an instruction pushes.
void release(const deps_t& d, const neighbours& n, accelc_unit_regs* r) {
  if (d.push_prev) {
    if (n.prev_out->full()) r->wait_kind = WAIT_FULL, r->wait_queue = n.q_prev_out;
    n.prev_out->write(true);
    ++r->pushes[n.q_prev_out];
  }
  if (d.push_next) {
    if (n.next_out->full()) r->wait_kind = WAIT_FULL, r->wait_queue = n.q_next_out;
    n.next_out->write(true);
    ++r->pushes[n.q_next_out];
  }
  r->wait_kind = WAIT_READY;
}

/// Takes one command; true when it is an instruction to run now. The end of
/// a program goes to `idle`; a unit with a fault drops its instructions.
bool take(cmd_q& cmd, hls::stream<bool, 1>& idle, accelc_unit_regs* r, cmd_t& c) {
  c = cmd.read();
  if (c.end) {
    idle.write(true);
    return false;
  }
  if (r->fault) return false;
  r->has_head = 1, r->head_pc = c.pc;
  return true;
}

void retire(accelc_unit_regs* r, int op_index) {
  if (!r->fault) ++r->insns[op_index];
  r->has_head = 0;
}

// ---- the units ----

void fetch_unit(hls::stream<bool, 1>& start, const dram_beat_t* dram, const uint32_t& insn_addr,
                const uint32_t& insn_count, const uint64_t& window, cmd_q& load_cmd, cmd_q& compute_cmd,
                cmd_q& store_cmd, accelc_fetch_regs* r) {
  start.read();
  bool finished = false;
  uint32_t pc = 0;
  for (; pc < insn_count && !finished; ++pc) {
#pragma HLS loop_tripcount max = 65536
    r->pc = pc;
    const uint64_t addr = static_cast<uint64_t>(insn_addr) + static_cast<uint64_t>(pc) * INSN_BYTES;
    if (addr + INSN_BYTES > window) {
      r->fault = STATUS_DMA_WINDOW, r->fault_pc = pc;
      return;
    }
    uint8_t bytes[INSN_BYTES];
    dram_read(dram, addr, bytes, INSN_BYTES);
    insn_word_t w = 0;
    for (int k = 0; k < INSN_BYTES; ++k) w.range(8 * k + 7, 8 * k) = bytes[k];
    r->fetch_bytes += INSN_BYTES;
    if (!codes_legal(w) || !flags_legal(deps_of_word(w), unit_of(w))) {
      r->fault = STATUS_ILLEGAL, r->fault_pc = pc;
      return;
    }
    cmd_t c = {w, pc, false};
    const int unit = unit_of(w);
    cmd_q& q = unit == 0 ? load_cmd : unit == 1 ? compute_cmd : store_cmd;
    r->holding = 1;
    q.write(c);
    r->holding = 0;
    finished = opcode_code(w) == OPCODE_FINISH;
  }
  r->pc = pc;
  if (!finished) {  // the program ends without FINISH
    r->fault = STATUS_ILLEGAL, r->fault_pc = pc;
    return;
  }
  r->finish_fetched = 1;
  cmd_t end = {0, pc, true};
  load_cmd.write(end);
  store_cmd.write(end);
}

void load_unit(cmd_q& cmd, tok_q& c2l, tok_q& l2c, const dram_beat_t* dram, const uint64_t& window,
               hls::stream<bool, 1>& idle, accelc_unit_regs* r) {
  cmd_t c;
  if (!take(cmd, idle, r, c)) return;
  const neighbours n = {0, &c2l, 0, &l2c, -1, Q_COMPUTE_TO_LOAD, -1, Q_LOAD_TO_COMPUTE};
  const mem_insn_t m = decode_mem(c.word);
  acquire(deps_of(m), n, r);
  run_load(m, c.pc, dram, window, r);
  if (!r->fault) release(deps_of(m), n, r);
  retire(r, OP_LOAD);
}

void compute_unit(cmd_q& cmd, tok_q& l2c, tok_q& s2c, tok_q& c2l, tok_q& c2s, const dram_beat_t* dram,
                  const uint64_t& window, hls::stream<bool, 1>& done, accelc_unit_regs* r) {
  cmd_t c;
  if (!take(cmd, done, r, c)) return;
  const neighbours n = {&l2c, &s2c, &c2l, &c2s, Q_LOAD_TO_COMPUTE, Q_STORE_TO_COMPUTE, Q_COMPUTE_TO_LOAD,
                        Q_COMPUTE_TO_STORE};
  const int64_t op = opcode_code(c.word);
  deps_t d = deps_of_word(c.word);
  acquire(d, n, r);
  if (op == OPCODE_LOAD) run_load(decode_mem(c.word), c.pc, dram, window, r);
  if (op == OPCODE_GEMM) run_gemm(decode_gemm(c.word), c.pc, r);
  if (op == OPCODE_ALU) run_alu(decode_alu(c.word), c.pc, r);
  if (!r->fault) release(d, n, r);
  retire(r, opcode_index(op));
  if (op == OPCODE_FINISH && !r->fault) done.write(true);
}

void store_unit(cmd_q& cmd, tok_q& c2s, tok_q& s2c, dram_beat_t* dram, const uint64_t& window,
                hls::stream<bool, 1>& idle, accelc_unit_regs* r) {
  cmd_t c;
  if (!take(cmd, idle, r, c)) return;
  const neighbours n = {&c2s, 0, &s2c, 0, Q_COMPUTE_TO_STORE, -1, Q_STORE_TO_COMPUTE, -1};
  const mem_insn_t m = decode_mem(c.word);
  acquire(deps_of(m), n, r);
  run_store(m, c.pc, dram, window, r);
  if (!r->fault) release(deps_of(m), n, r);
  retire(r, OP_STORE);
}

}  // namespace

void accelc_top(dram_beat_t* dram, uint32_t insn_addr, uint32_t insn_count, uint64_t window, uint32_t* status,
                uint32_t* stop_pc, uint64_t* hwspec_hash, accelc_regs* regs) {
#pragma HLS INTERFACE mode = m_axi port = dram offset = slave bundle = gmem max_widen_bitwidth = DRAM_BEAT_BITS
#pragma HLS INTERFACE mode = s_axilite port = dram offset = 0x20
#pragma HLS INTERFACE mode = s_axilite port = insn_addr offset = 0x10
#pragma HLS INTERFACE mode = s_axilite port = insn_count offset = 0x18
#pragma HLS INTERFACE mode = s_axilite port = status offset = 0x30
#pragma HLS INTERFACE mode = s_axilite port = stop_pc offset = 0x34
#pragma HLS INTERFACE mode = s_axilite port = hwspec_hash offset = 0x40
#pragma HLS INTERFACE mode = s_axilite port = window offset = 0x48
#pragma HLS INTERFACE mode = s_axilite port = regs offset = 0x80
#pragma HLS INTERFACE mode = s_axilite port = return
#pragma HLS stable variable = dram
#pragma HLS stable variable = insn_addr
#pragma HLS stable variable = insn_count
#pragma HLS stable variable = window
  // Each buffer one memory of whole entries, so that a tile's products read
  // their operands in one cycle; in block RAM or URAM as hls_estimate.h binds it.
#pragma HLS array_reshape variable = inp_buf dim = 2 complete
#pragma HLS array_reshape variable = wgt_buf dim = 2 complete
#pragma HLS array_reshape variable = acc_buf dim = 2 complete
#pragma HLS array_reshape variable = out_buf dim = 2 complete
#pragma HLS bind_storage variable = uop_buf type = ram_t2p impl = IMPL_UOP
#pragma HLS bind_storage variable = inp_buf type = ram_t2p impl = IMPL_INPUT
#pragma HLS bind_storage variable = wgt_buf type = ram_t2p impl = IMPL_WEIGHT
#pragma HLS bind_storage variable = acc_buf type = ram_t2p impl = IMPL_ACC
#pragma HLS bind_storage variable = out_buf type = ram_t2p impl = IMPL_OUTPUT
  accelc_regs zero = {};
  *regs = zero;
  *hwspec_hash = ACCELC_HWSPEC_HASH;
  hls_thread_local hls::stream<bool, 1> start;
  hls_thread_local hls::stream<bool, 1> done, load_idle, store_idle;
  hls_thread_local cmd_q load_cmd, compute_cmd, store_cmd;
  hls_thread_local tok_q l2c, c2l, c2s, s2c;
  accelc_fetch_regs* fetch_regs = &regs->fetch;
  accelc_unit_regs* load_regs = &regs->unit[0];
  accelc_unit_regs* compute_regs = &regs->unit[1];
  accelc_unit_regs* store_regs = &regs->unit[2];
  hls_thread_local hls::task fetch(fetch_unit, start, dram, insn_addr, insn_count, window, load_cmd, compute_cmd,
                                   store_cmd, fetch_regs);
  hls_thread_local hls::task load(load_unit, load_cmd, c2l, l2c, dram, window, load_idle, load_regs);
  hls_thread_local hls::task compute(compute_unit, compute_cmd, l2c, s2c, c2l, c2s, dram, window, done,
                                     compute_regs);
  hls_thread_local hls::task store(store_unit, store_cmd, c2s, s2c, dram, window, store_idle, store_regs);
  start.write(true);
  done.read();
  load_idle.read();
  store_idle.read();
  accelc_collect_status(regs, false);
  *status = regs->status;
  *stop_pc = regs->stop_pc;
}

void accelc_collect_status(accelc_regs* regs, bool deadlock) {
  uint32_t status = regs->fetch.fault, pc = regs->fetch.fault_pc;
  for (int u = 0; u < 3; ++u) {
    const accelc_unit_regs& r = regs->unit[u];
    if (r.fault && (!status || r.fault_pc < pc)) status = r.fault, pc = r.fault_pc;
  }
  if (!status && deadlock) {
    status = STATUS_DEADLOCK, pc = regs->fetch.pc;
    for (int u = 0; u < 3; ++u)
      if (regs->unit[u].has_head && regs->unit[u].head_pc < pc) pc = regs->unit[u].head_pc;
  }
  regs->status = status;
  regs->stop_pc = status ? pc : regs->fetch.pc - 1;
}

#ifndef __SYNTHESIS__
void accelc_clear_buffers() {
  for (int i = 0; i < UOP_DEPTH; ++i) uop_buf[i] = uop_entry{0, 0, 0};
  for (int i = 0; i < INP_DEPTH; ++i)
    for (int k = 0; k < BATCH * BLOCK_IN; ++k) inp_buf[i][k] = 0;
  for (int i = 0; i < WGT_DEPTH; ++i)
    for (int k = 0; k < BLOCK_OUT * BLOCK_IN; ++k) wgt_buf[i][k] = 0;
  for (int i = 0; i < ACC_DEPTH; ++i)
    for (int k = 0; k < BATCH * BLOCK_OUT; ++k) acc_buf[i][k] = 0;
  for (int i = 0; i < OUT_DEPTH; ++i)
    for (int k = 0; k < BATCH * BLOCK_OUT; ++k) out_buf[i][k] = 0;
}
#endif
