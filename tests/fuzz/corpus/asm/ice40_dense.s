; An 8 -> 4 dense layer with ReLU on the ice40 preset: y = max(W x + b, 0),
; narrowed to int8. Its DRAM image is small enough for the UP5K board's ROM.
.hw ice40
.const  x    0x0000 int8  1x8
.byte 01 02 03 04 fc fb 07 08
.output y    0x0010 int8  1x4
.const  bias 0x0020 int32 2x2
.byte 0a 00 00 00 f6 ff ff ff 00 01 00 00 9c ff ff ff
.const  w    0x0040 int8  4x2x4
.byte 01 00 ff 02 03 01 00 ff
.byte 02 02 01 00 ff fe 01 03
.byte 05 ff 00 01 00 00 02 01
.byte fd 01 01 01 02 00 ff 04
; micro-ops 0-1: GEMM (dst = output block o, src = input block 0, wgt = tile 2o); 2-3: ALU on rows 0-1
.uops uops 0x0080
uop 0 0 0
uop 1 0 2
uop 0 0 0
uop 1 0 0
.text 0x0100
  LOAD buffer=uop sram_base=0 dram_base=@uops y_size=1 x_size=4 x_stride=4
  LOAD buffer=acc sram_base=0 dram_base=@bias y_size=1 x_size=2 x_stride=2
  LOAD buffer=inp sram_base=0 dram_base=@x y_size=1 x_size=2 x_stride=2
  LOAD buffer=wgt sram_base=0 dram_base=@w y_size=1 x_size=4 x_stride=4 push_next
  GEMM pop_prev uop_bgn=0 uop_end=2 iter_out=2 iter_in=1 src_factor_out=1 wgt_factor_out=1
  ALU uop_bgn=2 uop_end=4 iter_out=1 iter_in=1 alu_op=max use_imm imm=0 push_next
  STORE pop_prev buffer=out sram_base=0 dram_base=@y y_size=1 x_size=2 x_stride=2
  FINISH
