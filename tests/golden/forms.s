; Every instruction form of the ISA, assembled for each preset by asm_test.
; Field values fit the smallest preset (tiny). Not meant to run.
.window 64KiB
.input   x     0x0000 int8  1x16
.output  y     0x0100 int8  2x4
.scratch t     0x0200 int32 4
.const   c     0x0400 int8  2x8
.byte 00 01 02 03 04 05 06 07 f8 f9 fa fb fc fd fe ff
.uops table 0x0800
uop 0 0 0
uop 1 2 3
uop 255 255 255
.text 0x1000
.label loads
  LOAD buffer=uop sram_base=0 dram_base=@table y_size=1 x_size=3 x_stride=3
  LOAD buffer=inp sram_base=1 dram_base=@x y_size=2 x_size=3 x_stride=5 y_pad_0=1 y_pad_1=2 x_pad_0=3 x_pad_1=15 push_next
  LOAD buffer=wgt sram_base=255 dram_base=@c y_size=65535 x_size=65535 x_stride=65535 pop_next
  LOAD buffer=acc sram_base=17 dram_base=@t+3 y_size=1 x_size=1 x_stride=1
  LOAD buffer=acc8 sram_base=0 dram_base=12345 y_size=4 x_size=4 x_stride=4
.endlabel
.label compute
  GEMM pop_prev reset uop_bgn=0 uop_end=3 iter_out=2 iter_in=3
  GEMM pop_next push_prev push_next uop_bgn=255 uop_end=256 iter_out=16383 iter_in=16383 dst_factor_out=255 dst_factor_in=1 src_factor_out=2 src_factor_in=3 wgt_factor_out=4 wgt_factor_in=255
  ALU alu_op=min uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=-32768
  ALU alu_op=max uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 src_factor_in=1
  ALU alu_op=add uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=32767
  ALU alu_op=mulq uop_bgn=1 uop_end=2 iter_out=4 iter_in=4 dst_factor_out=8 dst_factor_in=2 src_factor_out=8 src_factor_in=2
  ALU alu_op=mulq uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=16384
  ALU alu_op=shr uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=-1
  ALU alu_op=shrr uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=40
  ALU alu_op=shrr uop_bgn=1 uop_end=2 iter_out=1 iter_in=1
  ALU alu_op=clip reset uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=127
  ALU alu_op=mul uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 src_factor_in=1
  ALU alu_op=mul uop_bgn=1 uop_end=2 iter_out=1 iter_in=1 use_imm imm=-3
  ALU alu_op=mov pop_prev pop_next push_prev push_next uop_bgn=0 uop_end=1 iter_out=1 iter_in=1
.endlabel
  STORE buffer=out sram_base=3 dram_base=@y y_size=2 x_size=1 x_stride=1 pop_prev push_prev
  FINISH pop_prev pop_next push_prev push_next
