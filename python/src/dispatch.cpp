//===- dispatch.cpp - The call path of layoutc.compile --------------------===//
//
// `_layoutc`, the CPython extension behind layoutc.compile. A Dispatcher is
// one compiled Python function: each call reads every argument's layout
// (torch tensors through their attributes, anything else through
// __dlpack__), finds the kernel compiled for that layout, allocates the
// outputs, runs the kernel with the GIL released and returns the results.
// All of it is C so that a call costs a few microseconds more than the
// kernel; Python runs only when a layout is seen for the first time.
//
//===----------------------------------------------------------------------===//

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <dlpack/dlpack.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "layout_rt/layout_rt.h"

namespace {

/// The signature of the packed entry point layoutc.compile generates for
/// every function: the DLPack entry point with its tensor parameters
/// (arguments, then outputs) in one array.
using PackedEntry = lrt_status_t (*)(void *const *tensors,
                                     const lrt_exec_options_t *options);

//===----------------------------------------------------------------------===//
// Kernel: one loaded shared object and its packed entry point.
//===----------------------------------------------------------------------===//

struct KernelObject {
  PyObject_HEAD void *handle;
  PackedEntry entry;
};

int kernelInit(KernelObject *self, PyObject *args, PyObject *kwargs) {
  const char *path = nullptr;
  const char *symbol = nullptr;
  static const char *keywords[] = {"path", "symbol", nullptr};
  if (!PyArg_ParseTupleAndKeywords(
          args, kwargs, "ss", const_cast<char **>(keywords), &path, &symbol))
    return -1;
  // RTLD_LOCAL: kernels of different programs may define the same names.
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    PyErr_Format(PyExc_OSError, "cannot load %s: %s", path, dlerror());
    return -1;
  }
  void *entry = dlsym(handle, symbol);
  if (!entry) {
    PyErr_Format(PyExc_OSError, "%s has no symbol %s", path, symbol);
    dlclose(handle);
    return -1;
  }
  if (self->handle)
    dlclose(self->handle);
  self->handle = handle;
  self->entry = reinterpret_cast<PackedEntry>(entry);
  return 0;
}

void kernelDealloc(KernelObject *self) {
  if (self->handle)
    dlclose(self->handle);
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

PyTypeObject KernelType = {PyVarObject_HEAD_INIT(nullptr, 0)};

//===----------------------------------------------------------------------===//
// Reading a tensor's layout.
//===----------------------------------------------------------------------===//

/// The layout of one argument or output, owned by the call.
struct TensorView {
  DLTensor tensor;
  int64_t kind = 0; // 1 torch, 2 __dlpack__, 3 __array_interface__: what
                    // the results are built as, so part of the key
  std::vector<int64_t> shape, strides;
  PyObject *keepAlive = nullptr; // a __dlpack__ capsule, released after the
                                 // call (its deleter frees the DLTensor)
  bool readOnly = false;         // an __array_interface__ marked read-only
};

/// Process-wide handles the Dispatcher needs from Python, set by init().
struct Globals {
  PyObject *torchTensor = nullptr; // torch.Tensor, or None without torch
  PyObject *dtypeCodes = nullptr;  // {torch.dtype: (code, bits)}
  PyObject *errorType = nullptr;   // layoutc.LayoutcError
  PyObject *strDataPtr = nullptr, *strShape = nullptr, *strStride = nullptr,
           *strDtype = nullptr, *strIsCuda = nullptr,
           *strStorageOffset = nullptr, *strDlpack = nullptr,
           *strArrayInterface = nullptr;
} globals;

bool readInt64Sequence(PyObject *sequence, std::vector<int64_t> &out) {
  PyObject *fast = PySequence_Fast(sequence, "expected a sequence of ints");
  if (!fast)
    return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  out.resize(n);
  PyObject **items = PySequence_Fast_ITEMS(fast);
  for (Py_ssize_t i = 0; i < n; ++i) {
    out[i] = PyLong_AsLongLong(items[i]);
    if (out[i] == -1 && PyErr_Occurred()) {
      Py_DECREF(fast);
      return false;
    }
  }
  Py_DECREF(fast);
  return true;
}

/// Row-major strides for `view.shape` (what DLPack's NULL strides and a
/// C-contiguous array interface mean); size-0 dims count as 1.
void setRowMajorStrides(TensorView &view) {
  size_t n = view.shape.size();
  view.strides.assign(n, 1);
  for (size_t d = n; d > 1; --d)
    view.strides[d - 2] =
        view.strides[d - 1] * (view.shape[d - 1] > 0 ? view.shape[d - 1] : 1);
}

void pointTo(TensorView &view) {
  view.tensor.ndim = static_cast<int32_t>(view.shape.size());
  view.tensor.shape = view.shape.data();
  view.tensor.strides = view.strides.data();
}

/// A torch tensor through its attributes: faster than __dlpack__, which
/// PyTorch 1.13 also refuses for bool. Also reports the storage offset,
/// which DLPack does not carry (PyTorch folds it into `data`).
bool readTorch(PyObject *obj, TensorView &view, int64_t *storageOffset) {
  view.kind = 1;
  PyObject *isCuda = PyObject_GetAttr(obj, globals.strIsCuda);
  if (!isCuda)
    return false;
  bool cuda = PyObject_IsTrue(isCuda);
  Py_DECREF(isCuda);
  view.tensor.device = {cuda ? kDLCUDA : kDLCPU, 0};
  PyObject *ptr = PyObject_CallMethodNoArgs(obj, globals.strDataPtr);
  if (!ptr)
    return false;
  view.tensor.data = PyLong_AsVoidPtr(ptr);
  Py_DECREF(ptr);
  view.tensor.byte_offset = 0;
  PyObject *dtype = PyObject_GetAttr(obj, globals.strDtype);
  if (!dtype)
    return false;
  PyObject *code = PyDict_GetItemWithError(globals.dtypeCodes, dtype);
  Py_DECREF(dtype);
  if (!code) {
    if (!PyErr_Occurred())
      PyErr_SetString(globals.errorType,
                      "layoutc supports the dtypes bool, int8, int16, int32, "
                      "int64, uint8, float16, bfloat16, float32 and float64");
    return false;
  }
  view.tensor.dtype.code =
      static_cast<uint8_t>(PyLong_AsLong(PyTuple_GET_ITEM(code, 0)));
  view.tensor.dtype.bits =
      static_cast<uint8_t>(PyLong_AsLong(PyTuple_GET_ITEM(code, 1)));
  view.tensor.dtype.lanes = 1;
  PyObject *shape = PyObject_GetAttr(obj, globals.strShape);
  if (!shape)
    return false;
  bool ok = readInt64Sequence(shape, view.shape);
  Py_DECREF(shape);
  if (!ok)
    return false;
  PyObject *strides = PyObject_CallMethodNoArgs(obj, globals.strStride);
  if (!strides)
    return false;
  ok = readInt64Sequence(strides, view.strides);
  Py_DECREF(strides);
  if (!ok)
    return false;
  if (storageOffset) {
    PyObject *offset = PyObject_CallMethodNoArgs(obj, globals.strStorageOffset);
    if (!offset)
      return false;
    *storageOffset = PyLong_AsLongLong(offset);
    Py_DECREF(offset);
  }
  pointTo(view);
  return true;
}

/// Any __dlpack__ object. The capsule stays alive (and unconsumed) until
/// the call ends, so the producer's deleter frees the descriptor then.
bool readDlpack(PyObject *obj, TensorView &view) {
  PyObject *capsule = PyObject_CallMethodNoArgs(obj, globals.strDlpack);
  if (!capsule)
    return false;
  auto *managed =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!managed) {
    Py_DECREF(capsule);
    return false;
  }
  view.keepAlive = capsule;
  view.kind = 2;
  const DLTensor &t = managed->dl_tensor;
  view.tensor = t;
  view.shape.assign(t.shape, t.shape + t.ndim);
  if (t.strides)
    view.strides.assign(t.strides, t.strides + t.ndim);
  else
    setRowMajorStrides(view);
  pointTo(view);
  return true;
}

/// NumPy arrays NumPy will not export through DLPack (bool, read-only):
/// their __array_interface__.
bool readArrayInterface(PyObject *obj, TensorView &view) {
  PyObject *iface = PyObject_GetAttr(obj, globals.strArrayInterface);
  if (!iface)
    return false;
  PyObject *data = PyDict_GetItemString(iface, "data");
  PyObject *shape = PyDict_GetItemString(iface, "shape");
  PyObject *strides = PyDict_GetItemString(iface, "strides");
  PyObject *typestr = PyDict_GetItemString(iface, "typestr");
  bool ok = data && shape && typestr && PyTuple_Check(data) &&
            PyUnicode_Check(typestr) && readInt64Sequence(shape, view.shape);
  const char *type = ok ? PyUnicode_AsUTF8(typestr) : nullptr;
  // Little-endian or byte-sized codes only: b (bool), i, u, f.
  if (ok && type && std::strlen(type) >= 3 &&
      (type[0] == '<' || type[0] == '|' || type[0] == '=')) {
    int bytes = std::atoi(type + 2);
    uint8_t code = type[1] == 'b'   ? LRT_DL_BOOL
                   : type[1] == 'i' ? kDLInt
                   : type[1] == 'u' ? kDLUInt
                   : type[1] == 'f' ? kDLFloat
                                    : 255;
    ok = code != 255 && bytes > 0;
    view.tensor.dtype = {code, static_cast<uint8_t>(bytes * 8), 1};
    if (ok && strides && strides != Py_None) {
      ok = readInt64Sequence(strides, view.strides);
      for (int64_t &s : view.strides) {
        // Strides in bytes that are no multiple of the element size have
        // no strides in elements: refuse them rather than round them.
        if (ok && s % bytes != 0) {
          PyErr_Format(globals.errorType,
                       "unsupported array: byte strides that are not a "
                       "multiple of the element size (%d bytes)",
                       bytes);
          ok = false;
        }
        s /= bytes;
      }
    } else if (ok) {
      setRowMajorStrides(view);
    }
    if (ok) {
      view.tensor.data = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
      view.readOnly = PyTuple_GET_SIZE(data) > 1 &&
                      PyObject_IsTrue(PyTuple_GET_ITEM(data, 1)) == 1;
    }
  } else if (ok) {
    ok = false;
  }
  Py_DECREF(iface);
  if (!ok && !PyErr_Occurred())
    PyErr_SetString(globals.errorType,
                    "unsupported array: layoutc reads bool, integer and "
                    "float arrays in native byte order");
  if (!ok)
    return false;
  view.tensor.device = {kDLCPU, 0};
  view.tensor.byte_offset = 0;
  view.kind = 3;
  pointTo(view);
  return true;
}

bool readTensor(PyObject *obj, TensorView &view, int64_t *storageOffset) {
  if (globals.torchTensor && globals.torchTensor != Py_None &&
      PyObject_TypeCheck(obj,
                         reinterpret_cast<PyTypeObject *>(globals.torchTensor)))
    return readTorch(obj, view, storageOffset);
  if (storageOffset)
    *storageOffset = 0;
  if (PyObject_HasAttr(obj, globals.strDlpack)) {
    if (readDlpack(obj, view))
      return true;
    if (!PyObject_HasAttr(obj, globals.strArrayInterface))
      return false;
    PyErr_Clear();
  }
  if (PyObject_HasAttr(obj, globals.strArrayInterface))
    return readArrayInterface(obj, view);
  PyErr_Format(PyExc_TypeError,
               "layoutc kernels take torch tensors, NumPy arrays or "
               "__dlpack__ objects, not %s",
               Py_TYPE(obj)->tp_name);
  return false;
}

//===----------------------------------------------------------------------===//
// Dispatcher
//===----------------------------------------------------------------------===//

/// What one layout of the arguments runs: the kernel, one allocator per
/// output (called with no arguments), per result either an output index
/// or (argument index, view maker or None), and the arguments the kernel
/// writes (which must not be read-only arrays).
struct Entry {
  PyObject *kernel = nullptr;      // KernelObject
  PyObject *allocators = nullptr;  // tuple of callables
  PyObject *results = nullptr;     // tuple
  bool single = false;             // return the one result bare
  std::vector<Py_ssize_t> written; // argument indices
  Entry() = default;
  Entry(const Entry &) = delete;
  ~Entry() {
    Py_XDECREF(kernel);
    Py_XDECREF(allocators);
    Py_XDECREF(results);
  }
};

/// A Dispatcher's subclass defines `_miss(args) -> (kernel, allocators,
/// results, single[, written])`, called for a layout not seen before.
struct DispatcherObject {
  PyObject_HEAD
      // Keys are the bytes of every argument's kind, device, dtype, shape and
      // strides (and storage offset when offset_sensitive).
      std::unordered_map<std::string, std::shared_ptr<Entry>> *cache;
  bool offsetSensitive;
};

PyObject *strMiss;

bool parseEntry(PyObject *tuple, Entry &entry) {
  PyObject *kernel, *allocators, *results, *single, *written = nullptr;
  if (!PyArg_ParseTuple(tuple, "O!O!O!O|O!", &KernelType, &kernel,
                        &PyTuple_Type, &allocators, &PyTuple_Type, &results,
                        &single, &PyTuple_Type, &written))
    return false;
  for (Py_ssize_t i = 0; written && i < PyTuple_GET_SIZE(written); ++i) {
    Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(written, i));
    if (index == -1 && PyErr_Occurred())
      return false;
    entry.written.push_back(index);
  }
  entry.kernel = Py_NewRef(kernel);
  entry.allocators = Py_NewRef(allocators);
  entry.results = Py_NewRef(results);
  entry.single = PyObject_IsTrue(single);
  return true;
}

void appendKey(std::string &key, const TensorView &view, int64_t offset,
               bool withOffset) {
  const DLTensor &t = view.tensor;
  int64_t head[5] = {view.kind, t.device.device_type, t.device.device_id,
                     (int64_t(t.dtype.code) << 16) | (t.dtype.bits << 8) |
                         t.dtype.lanes,
                     t.ndim};
  key.append(reinterpret_cast<const char *>(head), sizeof(head));
  key.append(reinterpret_cast<const char *>(view.shape.data()),
             view.shape.size() * sizeof(int64_t));
  key.append(reinterpret_cast<const char *>(view.strides.data()),
             view.strides.size() * sizeof(int64_t));
  if (withOffset)
    key.append(reinterpret_cast<const char *>(&offset), sizeof(offset));
}

struct CallState {
  std::vector<TensorView> views;
  ~CallState() {
    for (TensorView &v : views)
      Py_XDECREF(v.keepAlive);
  }
};

std::string makeKey(const CallState &state, const std::vector<int64_t> &offsets,
                    bool withOffsets) {
  std::string key;
  for (size_t i = 0; i < offsets.size(); ++i)
    appendKey(key, state.views[i], offsets[i], withOffsets);
  return key;
}

/// Shared: a call keeps its entry while the GIL is released, even if another
/// thread clears the cache meanwhile.
std::shared_ptr<Entry> findEntry(DispatcherObject *self, PyObject *args,
                                 CallState &state) {
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  std::vector<int64_t> offsets(n, 0);
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!readTensor(PyTuple_GET_ITEM(args, i), state.views[i], &offsets[i]))
      return nullptr;
  bool withOffsets = self->offsetSensitive;
  std::string key = makeKey(state, offsets, withOffsets);
  auto it = self->cache->find(key);
  if (it != self->cache->end())
    return it->second;
  PyObject *tuple = PyObject_CallMethodOneArg(
      reinterpret_cast<PyObject *>(self), strMiss, args);
  if (!tuple)
    return nullptr;
  auto entry = std::make_shared<Entry>();
  bool ok = parseEntry(tuple, *entry);
  Py_DECREF(tuple);
  if (!ok)
    return nullptr;
  // The miss handler may have made the offsets part of the key.
  if (self->offsetSensitive != withOffsets)
    key = makeKey(state, offsets, self->offsetSensitive);
  (*self->cache)[key] = entry;
  return entry;
}

PyObject *buildResults(Entry &entry, PyObject *args, PyObject *outputs) {
  Py_ssize_t n = PyTuple_GET_SIZE(entry.results);
  PyObject *results = PyTuple_New(n);
  if (!results)
    return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *spec = PyTuple_GET_ITEM(entry.results, i);
    PyObject *value;
    if (PyLong_Check(spec)) {
      value = Py_NewRef(PyTuple_GET_ITEM(outputs, PyLong_AsSsize_t(spec)));
    } else {
      PyObject *arg =
          PyTuple_GET_ITEM(args, PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 0)));
      PyObject *maker = PyTuple_GET_ITEM(spec, 1);
      value =
          maker == Py_None ? Py_NewRef(arg) : PyObject_CallOneArg(maker, arg);
    }
    if (!value) {
      Py_DECREF(results);
      return nullptr;
    }
    PyTuple_SET_ITEM(results, i, value);
  }
  if (n == 0) {
    Py_DECREF(results);
    Py_RETURN_NONE;
  }
  if (!entry.single)
    return results;
  PyObject *one = Py_NewRef(PyTuple_GET_ITEM(results, 0));
  Py_DECREF(results);
  return one;
}

PyObject *dispatcherCall(DispatcherObject *self, PyObject *args,
                         PyObject *kwargs) {
  if (kwargs && PyDict_GET_SIZE(kwargs)) {
    PyErr_SetString(PyExc_TypeError,
                    "layoutc kernels take positional arguments only");
    return nullptr;
  }
  if (!self->cache) {
    PyErr_SetString(PyExc_RuntimeError, "Dispatcher.__init__ was not called");
    return nullptr;
  }
  Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  CallState state;
  state.views.resize(nargs);
  std::shared_ptr<Entry> entry = findEntry(self, args, state);
  if (!entry)
    return nullptr;
  for (Py_ssize_t i : entry->written)
    if (i < nargs && state.views[i].readOnly) {
      PyErr_Format(globals.errorType,
                   "argument %zd is a read-only array, and the function "
                   "writes into it",
                   i);
      return nullptr;
    }
  Py_ssize_t nouts = PyTuple_GET_SIZE(entry->allocators);
  PyObject *outputs = PyTuple_New(nouts);
  if (!outputs)
    return nullptr;
  state.views.resize(nargs + nouts);
  for (Py_ssize_t i = 0; i < nouts; ++i) {
    PyObject *out = PyObject_CallNoArgs(PyTuple_GET_ITEM(entry->allocators, i));
    if (!out || (PyTuple_SET_ITEM(outputs, i, out),
                 !readTensor(out, state.views[nargs + i], nullptr))) {
      Py_DECREF(outputs);
      return nullptr;
    }
  }
  std::vector<void *> params(state.views.size());
  for (size_t i = 0; i < params.size(); ++i)
    params[i] = &state.views[i].tensor;
  PackedEntry fn = reinterpret_cast<KernelObject *>(entry->kernel)->entry;
  lrt_status_t status;
  Py_BEGIN_ALLOW_THREADS status = fn(params.data(), nullptr);
  Py_END_ALLOW_THREADS if (status != LRT_OK) {
    PyErr_SetString(globals.errorType, lrt_status_message(status));
    lrt_status_free(status);
    Py_DECREF(outputs);
    return nullptr;
  }
  PyObject *results = buildResults(*entry, args, outputs);
  Py_DECREF(outputs);
  return results;
}

/// The packed form of a dynamic function's <f>_layouts: its argument
/// tensors in one array.
using PackedLayouts = lrt_status_t (*)(void *const *tensors,
                                       lrt_layout_t *layouts);

PyObject *int64Tuple(const int64_t *values, int32_t n) {
  PyObject *t = PyTuple_New(n);
  for (int32_t i = 0; t && i < n; ++i) {
    PyObject *v = PyLong_FromLongLong(values[i]);
    if (!v) {
      Py_CLEAR(t);
      break;
    }
    PyTuple_SET_ITEM(t, i, v);
  }
  return t;
}

/// Kernel.layouts(symbol, args, count): what the shared object's packed
/// <f>_layouts `symbol` reports for `args`, per result a tuple (view_of,
/// has_output, offset, sizes, strides, output_strides); a failed check
/// raises LayoutcError with the runtime's message.
PyObject *kernelLayouts(KernelObject *self, PyObject *args) {
  const char *symbol;
  PyObject *tensors;
  Py_ssize_t count;
  if (!PyArg_ParseTuple(args, "sO!n", &symbol, &PyTuple_Type, &tensors, &count))
    return nullptr;
  void *fn = self->handle ? dlsym(self->handle, symbol) : nullptr;
  if (!fn) {
    PyErr_Format(PyExc_OSError, "the kernels have no symbol %s", symbol);
    return nullptr;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(tensors);
  CallState state;
  state.views.resize(n);
  std::vector<void *> params(n > 0 ? n : 1, nullptr);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!readTensor(PyTuple_GET_ITEM(tensors, i), state.views[i], nullptr))
      return nullptr;
    params[i] = &state.views[i].tensor;
  }
  std::vector<lrt_layout_t> layouts(count > 0 ? count : 1);
  lrt_status_t status =
      reinterpret_cast<PackedLayouts>(fn)(params.data(), layouts.data());
  if (status != LRT_OK) {
    PyErr_SetString(globals.errorType, lrt_status_message(status));
    lrt_status_free(status);
    return nullptr;
  }
  PyObject *out = PyTuple_New(count);
  for (Py_ssize_t i = 0; out && i < count; ++i) {
    const lrt_layout_t &l = layouts[i];
    PyObject *item = Py_BuildValue(
        "iiLNNN", l.view_of, l.has_output, static_cast<long long>(l.offset),
        int64Tuple(l.sizes, l.ndim), int64Tuple(l.strides, l.ndim),
        int64Tuple(l.output_strides, l.ndim));
    if (!item)
      Py_CLEAR(out);
    else
      PyTuple_SET_ITEM(out, i, item);
  }
  return out;
}

PyMethodDef kernelMethods[] = {
    {"layouts", reinterpret_cast<PyCFunction>(kernelLayouts), METH_VARARGS,
     "layouts(symbol, args, count): a dynamic function's result layouts for "
     "these arguments."},
    {nullptr, nullptr, 0, nullptr}};

int dispatcherInit(DispatcherObject *self, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "",
                                   const_cast<char **>(keywords)))
    return -1;
  if (!self->cache)
    self->cache = new std::unordered_map<std::string, std::shared_ptr<Entry>>;
  return 0;
}

void dispatcherDealloc(DispatcherObject *self) {
  delete self->cache;
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject *>(self));
}

PyObject *dispatcherPrepare(DispatcherObject *self, PyObject *args) {
  if (!self->cache) {
    PyErr_SetString(PyExc_RuntimeError, "Dispatcher.__init__ was not called");
    return nullptr;
  }
  CallState state;
  state.views.resize(PyTuple_GET_SIZE(args));
  if (!findEntry(self, args, state))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *dispatcherClear(DispatcherObject *self, PyObject *) {
  self->cache->clear();
  Py_RETURN_NONE;
}

PyObject *dispatcherSize(DispatcherObject *self, PyObject *) {
  return PyLong_FromSize_t(self->cache->size());
}

PyObject *getOffsetSensitive(DispatcherObject *self, void *) {
  return PyBool_FromLong(self->offsetSensitive);
}

int setOffsetSensitive(DispatcherObject *self, PyObject *value, void *) {
  int flag = value ? PyObject_IsTrue(value) : 0;
  if (flag < 0)
    return -1;
  if (bool(flag) != self->offsetSensitive)
    self->cache->clear(); // the keys change shape
  self->offsetSensitive = flag;
  return 0;
}

PyMethodDef dispatcherMethods[] = {
    {"prepare", reinterpret_cast<PyCFunction>(dispatcherPrepare), METH_VARARGS,
     "Compile (or find) the kernel for these arguments without running it."},
    {"clear", reinterpret_cast<PyCFunction>(dispatcherClear), METH_NOARGS,
     "Forget every layout seen."},
    {"cache_size", reinterpret_cast<PyCFunction>(dispatcherSize), METH_NOARGS,
     "The number of layouts with a kernel in memory."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef dispatcherGetSet[] = {
    {"offset_sensitive", reinterpret_cast<getter>(getOffsetSensitive),
     reinterpret_cast<setter>(setOffsetSensitive),
     "Whether torch arguments' storage offsets are part of the key.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject DispatcherType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyObject *moduleInit(PyObject *, PyObject *args) {
  PyObject *torchTensor, *dtypeCodes, *errorType;
  if (!PyArg_ParseTuple(args, "OO!O", &torchTensor, &PyDict_Type, &dtypeCodes,
                        &errorType))
    return nullptr;
  if (torchTensor != Py_None && !PyType_Check(torchTensor)) {
    PyErr_SetString(PyExc_TypeError, "torch_tensor must be a type or None");
    return nullptr;
  }
  Py_XSETREF(globals.torchTensor, Py_NewRef(torchTensor));
  Py_XSETREF(globals.dtypeCodes, Py_NewRef(dtypeCodes));
  Py_XSETREF(globals.errorType, Py_NewRef(errorType));
  Py_RETURN_NONE;
}

PyMethodDef moduleMethods[] = {
    {"init", moduleInit, METH_VARARGS,
     "init(torch_tensor_type_or_None, {torch dtype: (code, bits)}, "
     "error_type)"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef moduleDef = {PyModuleDef_HEAD_INIT, "_layoutc",
                         "The call path of layoutc.compile.", -1,
                         moduleMethods};

} // namespace

PyMODINIT_FUNC PyInit__layoutc() {
  KernelType.tp_name = "layoutc._layoutc.Kernel";
  KernelType.tp_basicsize = sizeof(KernelObject);
  KernelType.tp_flags = Py_TPFLAGS_DEFAULT;
  KernelType.tp_doc = "Kernel(path, symbol): a packed entry point of a "
                      "shared object.";
  KernelType.tp_new = PyType_GenericNew;
  KernelType.tp_init = reinterpret_cast<initproc>(kernelInit);
  KernelType.tp_dealloc = reinterpret_cast<destructor>(kernelDealloc);
  KernelType.tp_methods = kernelMethods;

  DispatcherType.tp_name = "layoutc._layoutc.Dispatcher";
  DispatcherType.tp_basicsize = sizeof(DispatcherObject);
  DispatcherType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  DispatcherType.tp_doc = "Calls the kernel compiled for its arguments' "
                          "layouts; subclasses define _miss(args).";
  DispatcherType.tp_new = PyType_GenericNew;
  DispatcherType.tp_init = reinterpret_cast<initproc>(dispatcherInit);
  DispatcherType.tp_dealloc = reinterpret_cast<destructor>(dispatcherDealloc);
  DispatcherType.tp_call = reinterpret_cast<ternaryfunc>(dispatcherCall);
  DispatcherType.tp_methods = dispatcherMethods;
  DispatcherType.tp_getset = dispatcherGetSet;
  if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&DispatcherType) < 0)
    return nullptr;

  strMiss = PyUnicode_InternFromString("_miss");
  globals.strDataPtr = PyUnicode_InternFromString("data_ptr");
  globals.strShape = PyUnicode_InternFromString("shape");
  globals.strStride = PyUnicode_InternFromString("stride");
  globals.strDtype = PyUnicode_InternFromString("dtype");
  globals.strIsCuda = PyUnicode_InternFromString("is_cuda");
  globals.strStorageOffset = PyUnicode_InternFromString("storage_offset");
  globals.strDlpack = PyUnicode_InternFromString("__dlpack__");
  globals.strArrayInterface = PyUnicode_InternFromString("__array_interface__");

  PyObject *module = PyModule_Create(&moduleDef);
  if (!module)
    return nullptr;
  if (PyModule_AddObjectRef(module, "Kernel",
                            reinterpret_cast<PyObject *>(&KernelType)) < 0 ||
      PyModule_AddObjectRef(module, "Dispatcher",
                            reinterpret_cast<PyObject *>(&DispatcherType)) <
          0) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
