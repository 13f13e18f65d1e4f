; accelc program for hwspec 'vta-default'
.hw vta-default
.window 65536
.input x 0x0 int8 1x16
.output y 0x100 int8 2x4
.scratch t 0x200 int32 4
.const c 0x400 int8 2x8
.byte 00 01 02 03 04 05 06 07 f8 f9 fa fb fc fd fe ff
.uops table 0x800
uop 0 0 0
uop 1 2 3
uop 255 255 255
.text 0x1000
.label loads
  LOAD buffer=uop dram_base=512 y_size=1 x_size=3 x_stride=3
  LOAD push_next buffer=inp sram_base=1 y_size=2 x_size=3 x_stride=5 y_pad_0=1 y_pad_1=2 x_pad_0=3 x_pad_1=15
  LOAD pop_next buffer=wgt sram_base=255 dram_base=4 y_size=65535 x_size=65535 x_stride=65535
  LOAD buffer=acc sram_base=17 dram_base=11 y_size=1 x_size=1 x_stride=1
  LOAD buffer=acc8 dram_base=12345 y_size=4 x_size=4 x_stride=4
.endlabel
.label compute
  GEMM pop_prev reset uop_end=3 iter_out=2 iter_in=3
  GEMM pop_next push_prev push_next uop_bgn=255 uop_end=256 iter_out=16383 iter_in=16383 dst_factor_out=255 dst_factor_in=1 src_factor_out=2 src_factor_in=3 wgt_factor_out=4 wgt_factor_in=255
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=min use_imm imm=-32768
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 src_factor_in=1 alu_op=max
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=add use_imm imm=32767
  ALU uop_bgn=1 uop_end=2 iter_out=4 iter_in=4 dst_factor_out=8 dst_factor_in=2 src_factor_out=8 src_factor_in=2 alu_op=mulq
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=mulq use_imm imm=16384
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=shr use_imm imm=-1
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=shrr use_imm imm=40
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=shrr
  ALU reset uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=clip use_imm imm=127
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 src_factor_in=1 alu_op=mul
  ALU uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 alu_op=mul use_imm imm=-3
  ALU pop_prev pop_next push_prev push_next uop_end=1 iter_out=1 iter_in=1 alu_op=mov
.endlabel
  STORE pop_prev push_prev buffer=out sram_base=3 dram_base=16 y_size=2 x_size=1 x_stride=1
  FINISH pop_prev pop_next push_prev push_next
