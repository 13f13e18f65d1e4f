// tools/accelc/cmd_rtl.cc — accelc rtl: the accelerator's SystemVerilog for a hwspec.
#include <iostream>
#include <memory>

#include "hls/rtl_gen.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

void registerRtl(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("rtl", "Write the accelerator's SystemVerilog and its parameter package for a hwspec");
  auto hw = std::make_shared<std::string>("vta-default");
  auto out = std::make_shared<std::string>();
  cmd->add_option("--hw", *hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("-o,--out", *out, "output folder")->required();
  cmd->callback([hw, out, &rc] {
    auto t = targetFor(*hw);
    support::Status st = t ? hls::writeRtl(*t, *out) : t.status();
    if (st.isOk())
      for (const std::string& f : hls::rtlFiles()) std::cout << *out << "/" << f << "\n";
    rc = report(st);
  });
}

}  // namespace accelc::tools
