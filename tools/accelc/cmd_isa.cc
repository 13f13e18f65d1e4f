// tools/accelc/cmd_isa.cc — `accelc isa`, `accelc asm`, `accelc disasm`.
#include <fstream>
#include <iostream>

#include "hwspec/hwspec.h"
#include "isa/assembler.h"
#include "isa/disassembler.h"
#include "isa/manual.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

int report(const support::Status& s) {
  if (s.isOk()) return 0;
  std::cerr << s.str() << "\n";
  return 1;
}

support::Expected<isa::Target> targetFor(const std::string& hw) {
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, hwspec::loadHwSpec(hw));
  return isa::loadTarget(spec);
}

void registerIsa(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("isa", "Print the instruction layout (the ISA manual) for a hwspec");
  auto hw = std::make_shared<std::string>("vta-default");
  auto format = std::make_shared<std::string>("md");
  cmd->add_option("--hw", *hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("--format", *format, "md or json")->check(CLI::IsMember({"md", "json"}))->capture_default_str();
  cmd->callback([hw, format, &rc] {
    auto t = targetFor(*hw);
    if (!t) {
      rc = report(t.status());
      return;
    }
    std::cout << (*format == "json" ? isa::isaManualJson(*t) : isa::isaManualMarkdown(*t));
  });
}

void registerAsm(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("asm", "Assemble a .s file into a program (.bin)");
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto hw = std::make_shared<std::string>();
  cmd->add_option("input", *in, "assembly source")->required();
  cmd->add_option("-o,--output", *out, "program file to write")->required();
  cmd->add_option("--hw", *hw, "hwspec file or preset (must match a .hw line)");
  cmd->callback([in, out, hw, &rc] {
    std::optional<isa::Target> target;
    if (!hw->empty()) {
      auto t = targetFor(*hw);
      if (!t) {
        rc = report(t.status());
        return;
      }
      target = *t;
    }
    auto p = isa::assembleFile(*in, target);
    rc = p ? report(isa::saveProgramFile(*out, *p)) : report(p.status());
  });
}

void registerDisasm(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("disasm", "Print a program as assembly that reassembles to the same bytes (or every step of a bundle)");
  auto in = std::make_shared<std::string>();
  cmd->add_option("input", *in, "program file")->required();
  cmd->callback([in, &rc] {
    if (in->size() > 4 && in->compare(in->size() - 4, 4, ".acx") == 0) {
      rc = report(disasmBundle(*in));
      return;
    }
    auto p = isa::loadCheckedProgram(*in);
    if (!p) {
      rc = report(p.status());
      return;
    }
    auto text = isa::disassemble(p->program, p->target, *in);
    if (!text) {
      rc = report(text.status());
      return;
    }
    std::cout << *text;
  });
}

}  // namespace accelc::tools
