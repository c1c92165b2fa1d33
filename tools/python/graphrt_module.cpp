// The `graphrt` Python module: import or load a model, run it on NumPy arrays, read its
// memory figures and a per-node profile. For checking a quantized model's accuracy on a
// data set on the host before flashing it; the runtime, kernels and plan are the device's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model_session.h"

namespace py = pybind11;
using grt::python::ModelSession;

namespace {

py::dtype numpy_dtype(grt::tools::DType dtype) {
  using grt::tools::DType;
  switch (dtype) {
    case DType::Int8: return py::dtype::of<int8_t>();
    case DType::UInt8: return py::dtype::of<uint8_t>();
    case DType::Int16: return py::dtype::of<int16_t>();
    case DType::Int32: return py::dtype::of<int32_t>();
    case DType::Int64: return py::dtype::of<int64_t>();
    case DType::Float32: return py::dtype::of<float>();
    case DType::Bool: return py::dtype::of<bool>();
  }
  return py::dtype::of<uint8_t>();
}

py::dict tensor_info(const ModelSession& s, uint32_t tensor) {
  const grt::tools::TensorDef& t = s.model().tensors[tensor];
  py::dict d;
  d["name"] = t.name;
  d["dtype"] = numpy_dtype(t.dtype);
  d["shape"] = py::tuple(py::cast(t.shape));
  if (t.quantization && !t.quantization->scale.empty()) {
    d["scale"] = t.quantization->scale.size() == 1 ? py::cast(t.quantization->scale[0]) : py::cast(t.quantization->scale);
    d["zero_point"] =
        t.quantization->zero_point.size() == 1 ? py::cast(t.quantization->zero_point[0]) : py::cast(t.quantization->zero_point);
  } else {
    d["scale"] = py::none();
    d["zero_point"] = py::none();
  }
  return d;
}

py::list tensor_infos(const ModelSession& s, const std::vector<uint32_t>& tensors) {
  py::list list;
  for (uint32_t t : tensors) list.append(tensor_info(s, t));
  return list;
}

// Copies `value` into input `index` after checking dtype and element count by name.
void set_input(ModelSession& s, uint32_t index, const py::handle& value) {
  const grt::tools::TensorDef& t = s.model().tensors[s.model().inputs[index]];
  const py::array array = py::array::ensure(value);
  if (!array) throw std::invalid_argument("input '" + t.name + "' is not array-like");
  const py::dtype want = numpy_dtype(t.dtype);
  if (!array.dtype().is(want) && array.dtype().num() != want.num()) {
    const std::string given = py::str(py::handle(array.dtype()));
    throw std::invalid_argument("input '" + t.name + "' has dtype " + given + ", the model takes " +
                                std::string(py::str(py::handle(want))));
  }
  const py::array contiguous = py::array::ensure(array, py::array::c_style | py::array::forcecast);
  const size_t bytes = static_cast<size_t>(contiguous.nbytes());
  if (bytes != t.bytes()) {
    throw std::invalid_argument("input '" + t.name + "' has " + std::to_string(contiguous.size()) + " elements, the model takes " +
                                std::to_string(t.elements()));
  }
  s.write_input(index, contiguous.data(), bytes);
}

py::dict run(ModelSession& s, const py::object& inputs) {
  const auto& model = s.model();
  if (py::isinstance<py::dict>(inputs)) {
    const py::dict given = inputs.cast<py::dict>();
    if (given.size() != model.inputs.size()) {
      throw std::invalid_argument("the model has " + std::to_string(model.inputs.size()) + " input(s), " +
                                  std::to_string(given.size()) + " given");
    }
    for (uint32_t i = 0; i < model.inputs.size(); ++i) {
      const std::string& name = model.tensors[model.inputs[i]].name;
      if (!given.contains(name)) throw std::invalid_argument("no value for input '" + name + "'");
      set_input(s, i, given[py::str(name)]);
    }
  } else {
    const py::sequence given = inputs.cast<py::sequence>();
    if (given.size() != model.inputs.size()) {
      throw std::invalid_argument("the model has " + std::to_string(model.inputs.size()) + " input(s), " +
                                  std::to_string(given.size()) + " given");
    }
    for (uint32_t i = 0; i < model.inputs.size(); ++i) set_input(s, i, given[i]);
  }
  std::string error;
  if (!s.run(&error)) throw grt::python::RuntimeFailure(error);
  py::dict outputs;
  for (uint32_t o = 0; o < model.outputs.size(); ++o) {
    const grt::tools::TensorDef& t = model.tensors[model.outputs[o]];
    py::array array(numpy_dtype(t.dtype), t.shape);
    std::memcpy(array.mutable_data(), s.output_data(o), t.bytes());
    outputs[py::str(t.name)] = array;
  }
  return outputs;
}

}  // namespace

PYBIND11_MODULE(graphrt, m) {
  m.doc() = "graphrt on the host: import TFLite models, run them on NumPy arrays, read memory and profiles.";
  // graphrt.Error (a RuntimeError) carries the importer's or the runtime's message; bad
  // arguments from Python raise ValueError.
  py::register_exception<grt::python::RuntimeFailure>(m, "Error", PyExc_RuntimeError);

  py::class_<ModelSession>(m, "Model")
      .def_property_readonly("name", [](const ModelSession& s) { return s.model().name; })
      .def_property_readonly("inputs", [](const ModelSession& s) { return tensor_infos(s, s.model().inputs); },
                             "names, dtypes, shapes and quantization of the inputs, in order")
      .def_property_readonly("outputs", [](const ModelSession& s) { return tensor_infos(s, s.model().outputs); })
      .def_property_readonly("blob", [](const ModelSession& s) { return py::bytes(reinterpret_cast<const char*>(s.blob().data()), s.blob().size()); },
                             "the graphrt blob (what `graphrt import` writes)")
      .def("run", &run, py::arg("inputs"),
           "Runs once. inputs: {name: array} or a list in input order. Returns {output name: array}.")
      .def("memory", [](const ModelSession& s, const std::string& strategy) {
             std::string error;
             grt::python::MemoryFigures f;
             if (!s.memory(strategy, &f, &error)) throw grt::python::RuntimeFailure(error);
             py::dict d;
             d["strategy"] = strategy;
             d["bookkeeping_bytes"] = f.bookkeeping_bytes;
             d["pool_bytes"] = f.pool_bytes;
             d["allocator_bytes"] = f.allocator_bytes;
             d["total_bytes"] = f.bookkeeping_bytes + f.pool_bytes + f.allocator_bytes;
             return d;
           }, py::arg("strategy") = "static",
           "Exact bytes the runtime needs under 'static', 'page' or 'stack' (init fails with one byte less).")
      .def("profile", [](ModelSession& s, int runs) {
             std::string error;
             std::vector<grt::python::NodeTime> times;
             if (!s.profile(runs, &times, &error)) throw grt::python::RuntimeFailure(error);
             py::list list;
             for (const auto& t : times) {
               py::dict d;
               d["node"] = t.node;
               d["name"] = t.name;
               d["kernel"] = t.kernel;
               d["seconds"] = t.seconds;
               list.append(d);
             }
             return list;
           }, py::arg("runs") = 1,
           "Runs `runs` times on the current inputs; mean time per node: [{node, name, kernel, seconds}].");

  m.def("import_tflite", [](const std::string& path) { return ModelSession::import_tflite(path); }, py::arg("path"),
        "Imports a .tflite file (as `graphrt import`), plans it and loads it on the static pool.");
  m.def("load", [](const std::string& path) { return ModelSession::load(path); }, py::arg("path"),
        "Loads a .grt blob, or imports a .tflite file (recognised from its content).");
}
