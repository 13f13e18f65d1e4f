// compiler/graph/graph.cc — graph building and the verifier.
#include "compiler/graph/graph.h"

namespace accelc::compiler {

int Graph::addValue(Value v) {
  values.push_back(std::move(v));
  return static_cast<int>(values.size()) - 1;
}

int Graph::findValue(const std::string& name) const {
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i].name == name) return static_cast<int>(i);
  return -1;
}

bool Graph::operator==(const Graph& o) const {
  return model == o.model && values == o.values && nodes == o.nodes && inputs == o.inputs && outputs == o.outputs;
}

void canonicalize(Graph& g) {
  std::vector<int> map(g.values.size(), -1);
  std::vector<Value> values;
  auto take = [&](int id) {
    if (id >= 0 && map[id] < 0) {
      map[id] = static_cast<int>(values.size());
      values.push_back(g.values[id]);
    }
  };
  for (int id : g.inputs) take(id);
  std::vector<bool> used(g.values.size(), false);
  for (const Node& n : g.nodes)
    for (int id : n.inputs)
      if (id >= 0) used[id] = true;
  for (int id : g.outputs) used[id] = true;
  for (size_t i = 0; i < g.values.size(); ++i)
    if (g.values[i].constant && used[i]) take(static_cast<int>(i));
  for (const Node& n : g.nodes)
    for (int id : n.outputs) take(id);
  auto remap = [&](std::vector<int>& ids) {
    for (int& id : ids)
      if (id >= 0) id = map[id];
  };
  for (Node& n : g.nodes) remap(n.inputs), remap(n.outputs);
  remap(g.inputs);
  remap(g.outputs);
  g.values = std::move(values);
}

support::Status verify(const Graph& g) {
  using support::error;
  std::vector<bool> defined(g.values.size(), false);
  auto valid = [&](int id) { return id >= 0 && id < static_cast<int>(g.values.size()); };
  for (int id : g.inputs) {
    if (!valid(id)) return error(support::Location::file(g.model), "graph input id " + std::to_string(id) + " is invalid");
    defined[id] = true;
  }
  for (size_t i = 0; i < g.values.size(); ++i)
    if (g.values[i].constant) defined[i] = true;
  for (const Node& n : g.nodes) {
    const runtime::OpInfo& info = runtime::opInfo(n.kind);
    const int count = static_cast<int>(n.inputs.size());
    if (count < info.minInputs || count > info.maxInputs)
      return error(g.loc(n), std::string(info.name) + " has " + std::to_string(count) + " inputs; expected " +
                                 std::to_string(info.minInputs) + " to " + std::to_string(info.maxInputs));
    if (n.attrs.index() != runtime::defaultAttrs(n.kind).index())
      return error(g.loc(n), std::string(info.name) + " carries the attributes of another op");
    for (int k = 0; k < count; ++k) {
      const int id = n.inputs[k];
      if (id == -1 && k >= info.minInputs) continue;
      if (!valid(id) || !defined[id])
        return error(g.loc(n), "input " + std::to_string(k) + " of " + info.name + " is used before it is defined");
    }
    if (n.outputs.empty()) return error(g.loc(n), std::string(info.name) + " has no outputs");
    for (int id : n.outputs) {
      if (!valid(id) || defined[id])
        return error(g.loc(n), "output '" + (valid(id) ? g.values[id].name : std::to_string(id)) + "' is defined twice");
      defined[id] = true;
    }
  }
  for (int id : g.outputs)
    if (!valid(id) || !defined[id])
      return error(support::Location::file(g.model), "graph output " + std::to_string(id) + " is never defined");
  return support::Status::ok();
}

}  // namespace accelc::compiler
