//===- FuzzDLPack.cpp - Fuzz target: the runtime's DLTensor checks --------===//
//
// layoutc-fuzz-dlpack: the input encodes an argument descriptor (entry.h) and
// one DLTensor per parameter; the target runs every check a generated entry
// point relies on (lrt_bind_tensors / _device / _named,
// lrt_check_tensor, lrt_check_no_overlap and its _with_inputs form) and the
// helpers (numel, strides, byte extent, dtype size and name) on them, and
// traps where an accepted tensor breaks the contract tensor.h states.
//
// The runtime never dereferences a tensor's data (it compares and aligns
// addresses only), so data pointers are mostly fake addresses chosen to
// reach the edges of the address space; shape and stride arrays are real
// heap arrays of exactly the length the tensor's rank allows, so that
// AddressSanitizer reports any read past them.
//
// Input format (fuzz/gen_dlpack_seeds.py writes seeds in it). A "value" is
// one tag byte: 0x00-0x5f stand for 0-95, 0x60-0x7f for -32..-1, the next
// kSpecials.size() tags for the values in kSpecials, any other tag is
// followed by 8 little-endian bytes. Reads past the end give zero bytes.
//   flags    byte: 1 bind for kDLCUDA instead of kDLCPU, 2 NULL function
//            name, 4 descriptor version from a value, 8 descriptor count
//            out of range, 16 NULL inputs array for the overlap checks,
//            64 bind with parameter names (lrt_bind_tensors_named), 32 with
//            names for only half of the parameters
//   count    byte: parameters, modulo kMaxParams + 1
//   per parameter, its descriptor entry:
//     role   byte: 0x80 set: the role is a value; else role (byte & 3),
//            plus LRT_ROLE_DISTINCT when byte & 0x10
//     number byte; dtype code byte; dtype bits byte
//     ndim   rank byte (see decodeRank)
//     sizes and strides: 2 * ndim values, only when 0 <= ndim <= 64
//   then its tensor:
//     tflags byte: 1 NULL tensor, 2 NULL shape, 4 NULL strides, 8 shape,
//            strides, rank and dtype from the descriptor entry (any size or
//            stride replaced by a value read in its place), 16 lanes from a
//            value, 32 the expected spec of lrt_check_tensor has lanes 2
//     ndim   rank byte (without tflags 8)
//     device type byte (0 = kDLCPU), device id value
//     dtype  code byte, bits byte (without tflags 8); lanes (tflags 16)
//     byte_offset value; data region byte and offset value (dataAddress)
//     shape and strides: ndim values each, for 0 <= ndim <= 64
//     dtype name capacity byte (lrt_format_dtype)
//
//===----------------------------------------------------------------------===//

#include "layout_rt/entry.h"
#include "layout_rt/tensor.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kMaxParams = 8;

/// Values at the edges of int64_t, int32_t and the runtime's markers.
constexpr std::array<int64_t, 26> kSpecials = {
    INT64_MIN,
    INT64_MAX,
    INT64_MIN + 1,
    INT64_MAX - 1,
    INT32_MIN,
    INT32_MAX,
    UINT32_MAX,
    int64_t(1) << 31,
    int64_t(1) << 32,
    int64_t(1) << 40,
    int64_t(1) << 61,
    int64_t(1) << 62,
    -(int64_t(1) << 62),
    int64_t(3037000499), // floor(sqrt(INT64_MAX))
    int64_t(3037000500),
    96,
    127,
    128,
    255,
    256,
    1000,
    4096,
    65536,
    int64_t(1) << 20,
    -1000,
    -4096};

class Reader {
public:
  Reader(const uint8_t *data, size_t size) : data(data), size(size) {}

  uint8_t byte() {
    if (size == 0)
      return 0;
    --size;
    return *data++;
  }

  int64_t value() {
    uint8_t tag = byte();
    if (tag < 0x60)
      return tag;
    if (tag < 0x80)
      return int64_t(tag) - 0x80;
    if (size_t(tag - 0x80) < kSpecials.size())
      return kSpecials[tag - 0x80];
    uint64_t raw = 0;
    for (int i = 0; i < 8; ++i)
      raw |= uint64_t(byte()) << (8 * i);
    return int64_t(raw);
  }

  /// Ranks: mostly small, some around LRT_MAX_NDIM, any int32 for 0xff.
  int32_t rank() {
    uint8_t b = byte();
    if (b < 0xc0)
      return b % 8;
    if (b < 0xff)
      return LRT_MAX_NDIM - 24 + (b - 0xc0);
    return int32_t(value());
  }

private:
  const uint8_t *data;
  size_t size;
};

/// Backing store for tensors that point at real memory.
alignas(64) char realBuffer[4096];

/// Regions data pointers fall in: NULL, low memory, a typical heap address,
/// the top of the address space (byte ranges wrap), a real buffer.
uintptr_t dataAddress(uint8_t region, int64_t offset) {
  static const uintptr_t bases[] = {0, 0x1000, uintptr_t(0x7f0000000000),
                                    ~uintptr_t(0xfff),
                                    reinterpret_cast<uintptr_t>(realBuffer)};
  return bases[region % 5] + uintptr_t(offset);
}

[[noreturn]] void violated(const char *what, int param) {
  std::fprintf(stderr, "layoutc-fuzz-dlpack: parameter %d: %s\n", param, what);
  __builtin_trap();
}

/// Frees `status`; true when it was OK.
bool ok(lrt_status_t status) {
  if (!status)
    return true;
  // Every error has a message and a code other than OK.
  if (lrt_status_code(status) == LRT_STATUS_OK || !*lrt_status_message(status))
    violated("an error status without a code or message", -1);
  lrt_status_free(status);
  return false;
}

struct Param {
  int64_t role = 0;
  int64_t number = 0;
  uint8_t code = 0, bits = 0;
  int32_t ndim = 0;
  std::vector<int64_t> sizes, strides;
};

/// A DLTensor that owns its arrays, each exactly as long as the rank lets
/// the runtime read.
struct Tensor {
  DLTensor t{};
  std::unique_ptr<int64_t[]> shape, strides;
  bool null = false;
};

/// DLDeviceType is a C enum, and the runtime reads it as the int it is; in
/// C++, creating or loading an enum value outside its enumerators' range is
/// undefined, so device types go through their bytes.
void setDeviceType(DLDevice &device, int type) {
  static_assert(sizeof(device.device_type) == sizeof(type), "an int enum");
  std::memcpy(&device.device_type, &type, sizeof(type));
}

int deviceType(const DLDevice &device) {
  int type;
  std::memcpy(&type, &device.device_type, sizeof(type));
  return type;
}

bool validRank(int32_t ndim) { return ndim >= 0 && ndim <= LRT_MAX_NDIM; }

/// The exact facts about a tensor, from its fields alone, in 128-bit
/// arithmetic: what the runtime's answers must agree with.
struct Exact {
  /// A valid rank and sizes: numel and strides are known.
  bool shapeValid = false;
  /// Also a dtype of whole bytes: the byte range is known.
  bool valid = false;
  /// Saturated at 2^64: past that the only question is "too many".
  __int128 numel = 0;
  int64_t elementBytes = 0;
  /// Effective element strides (row-major for NULL strides), saturated.
  std::vector<__int128> strides;
  /// Lowest and highest element offsets reached (0 without elements),
  /// clamped to +-2^100: far outside int64_t either way.
  __int128 low = 0, high = 0;
  /// Absolute byte range of the elements: data + byte_offset + ...
  __int128 begin = 0, end = 0;
};

constexpr __int128 kSaturated = __int128(1) << 64;
constexpr __int128 kClamp = __int128(1) << 100;

Exact exact(const DLTensor &t) {
  Exact e;
  if (!validRank(t.ndim) || (t.ndim > 0 && !t.shape))
    return e;
  e.numel = 1;
  for (int i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0)
      return e;
    e.numel = std::min(e.numel * t.shape[i], kSaturated);
  }
  e.strides.resize(t.ndim);
  __int128 running = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    e.strides[i] = t.strides ? __int128(t.strides[i]) : running;
    running = std::min(running * std::max<int64_t>(t.shape[i], 1), kSaturated);
  }
  e.shapeValid = true;
  if (t.dtype.bits == 0 || t.dtype.lanes == 0 ||
      (t.dtype.bits * t.dtype.lanes) % 8 != 0)
    return e;
  e.elementBytes = int64_t(t.dtype.bits) * t.dtype.lanes / 8;
  if (e.numel > 0)
    for (int i = 0; i < t.ndim; ++i) {
      // Below 2^127: sizes are below 2^63, strides at most 2^64.
      __int128 span =
          std::clamp(__int128(t.shape[i] - 1) * e.strides[i], -kClamp, kClamp);
      __int128 &bound = span < 0 ? e.low : e.high;
      bound = std::clamp(bound + span, -kClamp, kClamp);
    }
  __int128 base =
      __int128(reinterpret_cast<uintptr_t>(t.data)) + __int128(t.byte_offset);
  e.begin = e.numel > 0 ? base + e.low * e.elementBytes : base;
  e.end = e.numel > 0 ? base + (e.high + 1) * e.elementBytes : base;
  e.valid = true;
  return e;
}

/// Element offsets of a tensor with few elements, to prove distinctness.
std::vector<__int128> offsets(const DLTensor &t, const Exact &e) {
  std::vector<__int128> result;
  std::vector<int64_t> index(t.ndim, 0);
  for (__int128 n = 0; n < e.numel; ++n) {
    __int128 offset = 0;
    for (int d = 0; d < t.ndim; ++d)
      offset += index[d] * e.strides[d];
    result.push_back(offset);
    for (int d = t.ndim - 1; d >= 0; --d) {
      if (++index[d] < t.shape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

/// The views an in-place kernel may read and write at once (tensor.h).
bool identicalViews(const DLTensor &a, const Exact &ea, const DLTensor &b,
                    const Exact &eb) {
  if (__int128(reinterpret_cast<uintptr_t>(a.data)) + a.byte_offset !=
          __int128(reinterpret_cast<uintptr_t>(b.data)) + b.byte_offset ||
      a.dtype.code != b.dtype.code || a.dtype.bits != b.dtype.bits ||
      a.dtype.lanes != b.dtype.lanes || a.ndim != b.ndim)
    return false;
  for (int i = 0; i < a.ndim; ++i)
    if (a.shape[i] != b.shape[i] ||
        (a.shape[i] != 1 && ea.strides[i] != eb.strides[i]))
      return false;
  return true;
}

/// What an accepted output promises: its elements are distinct (unless the
/// descriptor vouched for that) and its bytes miss every other tensor's.
void checkWritable(int param, const DLTensor &out,
                   const std::vector<const DLTensor *> &others,
                   bool checkSelf) {
  Exact eo = exact(out);
  if (!eo.valid)
    violated("accepted output is not a valid tensor", param);
  constexpr int64_t kMaxEnumerated = 4096;
  if (checkSelf && eo.numel > 0 && eo.numel <= kMaxEnumerated) {
    std::vector<__int128> all = offsets(out, eo);
    std::sort(all.begin(), all.end());
    if (std::adjacent_find(all.begin(), all.end()) != all.end())
      violated("accepted output has two elements at one address", param);
  }
  for (const DLTensor *in : others) {
    Exact ei = exact(*in);
    if (!ei.valid)
      violated("an input the overlap check accepted is not valid", param);
    if (eo.numel == 0 || ei.numel == 0 ||
        deviceType(in->device) != deviceType(out.device) ||
        in->device.device_id != out.device.device_id ||
        identicalViews(*in, ei, out, eo))
      continue;
    if (eo.begin < ei.end && ei.begin < eo.end)
      violated("accepted output's bytes intersect another tensor's", param);
  }
}

/// What lrt_check_tensor promises of a tensor it accepts (tensor.h).
void checkMatches(int param, const DLTensor &t, const lrt_tensor_spec_t &spec) {
  Exact e = exact(t);
  if (!e.valid)
    violated("accepted tensor is not valid", param);
  if (deviceType(t.device) != deviceType(spec.device) ||
      (spec.device.device_id != LRT_ANY_DEVICE_ID &&
       t.device.device_id != spec.device.device_id))
    violated("accepted tensor is on another device", param);
  if (t.dtype.code != spec.dtype.code || t.dtype.bits != spec.dtype.bits ||
      t.dtype.lanes != 1 || spec.dtype.lanes != 1)
    violated("accepted tensor has another dtype", param);
  if (t.ndim != spec.ndim)
    violated("accepted tensor has another rank", param);
  for (int d = 0; d < t.ndim; ++d)
    if ((spec.sizes && spec.sizes[d] != LRT_ANY_SIZE &&
         spec.sizes[d] != t.shape[d]) ||
        (spec.strides && e.numel > 0 && spec.strides[d] != LRT_ANY_STRIDE &&
         t.shape[d] != 1 && spec.strides[d] != e.strides[d]))
      violated("accepted tensor's layout differs from the spec", param);
  // In address arithmetic, which wraps: an address space's worth of bytes
  // is a multiple of every power-of-two element size, not of 3 (24-bit
  // elements are whole bytes too).
  uintptr_t first = reinterpret_cast<uintptr_t>(t.data) + t.byte_offset;
  if (e.numel > 0 && (!t.data || first % uintptr_t(e.elementBytes) != 0))
    violated("accepted tensor's data is NULL or misaligned", param);
  if (t.byte_offset % uint64_t(e.elementBytes) != 0)
    violated("accepted tensor's byte_offset is misaligned", param);
  if (e.numel > 0 &&
      (e.begin - __int128(reinterpret_cast<uintptr_t>(t.data)) < INT64_MIN ||
       e.end - __int128(reinterpret_cast<uintptr_t>(t.data)) > INT64_MAX))
    violated("accepted tensor's byte extent exceeds int64_t", param);
}

/// Helpers of tensor.h against the exact values.
void checkHelpers(int param, const DLTensor &t) {
  Exact e = exact(t);
  int64_t numel = -1;
  if (ok(lrt_tensor_numel(&t, &numel)) && (!e.shapeValid || numel != e.numel))
    violated("lrt_tensor_numel disagrees", param);
  int64_t strides[LRT_MAX_NDIM];
  if (ok(lrt_tensor_strides(&t, strides))) {
    if (!e.shapeValid)
      violated("lrt_tensor_strides accepted an invalid tensor", param);
    for (int i = 0; i < t.ndim; ++i)
      if (strides[i] != e.strides[i])
        violated("lrt_tensor_strides disagrees", param);
  }
  int64_t bytes = 0;
  if (ok(lrt_dtype_size(t.dtype, &bytes)) &&
      (bytes <= 0 || int64_t(t.dtype.bits) * t.dtype.lanes != bytes * 8))
    violated("lrt_dtype_size disagrees", param);
  lrt_byte_extent_t extent{};
  if (ok(lrt_tensor_byte_extent(&t, &extent))) {
    if (!e.valid)
      violated("lrt_tensor_byte_extent accepted an invalid tensor", param);
    __int128 base = __int128(reinterpret_cast<uintptr_t>(t.data));
    if (base + extent.begin != e.begin || base + extent.end != e.end)
      violated("lrt_tensor_byte_extent disagrees", param);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Reader in(data, size);
  uint8_t flags = in.byte();
  int count = in.byte() % (kMaxParams + 1);

  std::vector<Param> params(count);
  std::vector<Tensor> tensors(count);
  for (int i = 0; i < count; ++i) {
    Param &p = params[i];
    uint8_t role = in.byte();
    p.role = role & 0x80 ? in.value()
                         : (role & 3) | (role & 0x10 ? LRT_ROLE_DISTINCT : 0);
    p.number = in.byte();
    p.code = in.byte();
    p.bits = in.byte();
    p.ndim = in.rank();
    if (validRank(p.ndim)) {
      for (int d = 0; d < p.ndim; ++d)
        p.sizes.push_back(in.value());
      for (int d = 0; d < p.ndim; ++d)
        p.strides.push_back(in.value());
    }

    Tensor &t = tensors[i];
    uint8_t tflags = in.byte();
    bool fromSpec = (tflags & 8) && validRank(p.ndim);
    t.null = tflags & 1;
    t.t.ndim = fromSpec ? p.ndim : in.rank();
    uint8_t type = in.byte();
    setDeviceType(t.t.device, type ? int(type) : int(kDLCPU));
    t.t.device.device_id = int32_t(in.value());
    t.t.dtype.code = fromSpec ? p.code : in.byte();
    t.t.dtype.bits = fromSpec ? p.bits : in.byte();
    t.t.dtype.lanes = tflags & 16 ? uint16_t(in.value()) : 1;
    t.t.byte_offset = uint64_t(in.value());
    uint8_t region = in.byte();
    t.t.data = reinterpret_cast<void *>(dataAddress(region, in.value()));
    int rank = validRank(t.t.ndim) ? t.t.ndim : 0;
    t.shape.reset(new int64_t[rank]);
    t.strides.reset(new int64_t[rank]);
    for (int d = 0; d < rank; ++d) {
      int64_t want = fromSpec ? p.sizes[d] : LRT_ANY_SIZE;
      t.shape[d] = want == LRT_ANY_SIZE ? in.value() : want;
    }
    for (int d = 0; d < rank; ++d) {
      int64_t want = fromSpec ? p.strides[d] : LRT_ANY_STRIDE;
      t.strides[d] = want == LRT_ANY_STRIDE ? in.value() : want;
    }
    t.t.shape = tflags & 2 ? nullptr : t.shape.get();
    t.t.strides = tflags & 4 ? nullptr : t.strides.get();

    // lrt_format_dtype writes at most `capacity` bytes, terminated.
    size_t capacity = in.byte() % 48;
    std::unique_ptr<char[]> name(new char[capacity]);
    lrt_format_dtype(t.t.dtype, name.get(), capacity);
    if (capacity > 0 && !std::memchr(name.get(), 0, capacity))
      violated("lrt_format_dtype left its buffer unterminated", i);

    if (!t.null) {
      checkHelpers(i, t.t);
      if (validRank(p.ndim)) {
        lrt_tensor_spec_t spec;
        spec.dtype = {p.code, p.bits, uint16_t(tflags & 32 ? 2 : 1)};
        spec.ndim = p.ndim;
        spec.sizes = p.sizes.data();
        spec.strides = p.strides.data();
        spec.device = t.t.device;
        spec.device.device_id = LRT_ANY_DEVICE_ID;
        if (ok(lrt_check_tensor(&t.t, &spec, i % 2 ? nullptr : "x", i)))
          checkMatches(i, t.t, spec);
      }
    }
  }

  // The descriptor, exactly as long as its entries.
  std::vector<int64_t> descriptor = {
      flags & 4 ? in.value() : 1,
      flags & 8 ? (in.byte() & 1 ? -1 - in.byte() : 1000 + in.byte()) : count};
  for (const Param &p : params) {
    descriptor.insert(descriptor.end(), {p.role, p.number, int64_t(p.code),
                                         int64_t(p.bits), int64_t(p.ndim)});
    if (!validRank(p.ndim))
      break; // lrt_bind_tensors stops reading at a bad rank.
    descriptor.insert(descriptor.end(), p.sizes.begin(), p.sizes.end());
    descriptor.insert(descriptor.end(), p.strides.begin(), p.strides.end());
  }

  std::vector<const DLTensor *> pointers(count);
  for (int i = 0; i < count; ++i)
    pointers[i] = tensors[i].null ? nullptr : &tensors[i].t;
  DLDeviceType device = flags & 1 ? kDLCUDA : kDLCPU;
  std::vector<void *> bound(count, nullptr);
  const char *function = flags & 2 ? nullptr : "f";
  // The names generated entry points pass: one per parameter, or (flags &
  // 32) a list shorter than the parameters.
  std::string names;
  for (int i = 0; i < (flags & 32 ? count / 2 : count); ++i)
    names += "p" + std::to_string(i) + '\0';
  lrt_status_t status =
      flags & 64
          ? lrt_bind_tensors_named(function, descriptor.data(), names.c_str(),
                                   device, pointers.data(), bound.data())
      : flags & 1 ? lrt_bind_tensors_device(function, descriptor.data(), device,
                                            pointers.data(), bound.data())
                  : lrt_bind_tensors(function, descriptor.data(),
                                     pointers.data(), bound.data());
  if (ok(status)) {
    // Accepted: every tensor is what its descriptor entry says, and every
    // written tensor can be written without touching the others.
    for (int i = 0; i < count; ++i) {
      const Param &p = params[i];
      const DLTensor *t = pointers[i];
      if (!t)
        violated("bound a NULL tensor", i);
      lrt_tensor_spec_t spec;
      spec.dtype = {p.code, p.bits, 1};
      spec.ndim = p.ndim;
      spec.sizes = p.sizes.data();
      spec.strides = p.strides.data();
      setDeviceType(spec.device, device);
      spec.device.device_id = LRT_ANY_DEVICE_ID;
      checkMatches(i, *t, spec);
      if (reinterpret_cast<uintptr_t>(bound[i]) !=
          reinterpret_cast<uintptr_t>(t->data) + t->byte_offset)
        violated("bound data pointer is not data + byte_offset", i);
      int64_t role = p.role & ~int64_t(LRT_ROLE_DISTINCT);
      if (role == LRT_ROLE_INPUT)
        continue;
      std::vector<const DLTensor *> others;
      for (int j = 0; j < count; ++j)
        if (j != i)
          others.push_back(pointers[j]);
      checkWritable(i, *t, others, !(p.role & LRT_ROLE_DISTINCT));
    }
  }

  // The first tensor as an output over the others as inputs.
  if (count > 0 && pointers[0]) {
    std::vector<lrt_tensor_ref_t> refs;
    std::vector<const DLTensor *> others;
    for (int i = 1; i < count; ++i) {
      refs.push_back({pointers[i], i % 2 ? "in" : nullptr, i});
      if (pointers[i])
        others.push_back(pointers[i]);
    }
    bool nullInputs = (flags & 16) && !refs.empty();
    const lrt_tensor_ref_t *inputs = nullInputs ? nullptr : refs.data();
    lrt_tensor_ref_t output = {pointers[0], "out", 0};
    bool accepted = ok(lrt_check_no_overlap(output, inputs, refs.size()));
    if (accepted && (nullInputs || others.size() != refs.size()))
      violated("lrt_check_no_overlap accepted a NULL tensor or array", 0);
    if (accepted)
      checkWritable(0, *pointers[0], others, /*checkSelf=*/true);
    accepted =
        ok(lrt_check_no_overlap_with_inputs(output, inputs, refs.size()));
    if (accepted && (nullInputs || others.size() != refs.size()))
      violated("lrt_check_no_overlap_with_inputs accepted a NULL tensor", 0);
    if (accepted)
      checkWritable(0, *pointers[0], others, /*checkSelf=*/false);
  }
  return 0;
}
