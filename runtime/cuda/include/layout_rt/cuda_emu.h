//===- layout_rt/cuda_emu.h - CUDA execution model on the host --*- C++ -*-===//
//
// Lets a generated `.cu` file (through layout_rt/cuda.h) compile as plain
// C++17 and run on the CPU with the results a GPU gives. Header-only, so a
// test builds a kernel file with nothing but an include path.
//
// The emulation is deliberately strict: it is there to catch on any machine
// the bugs a GPU would expose.
//  - Every CUDA thread is a fiber. The threads of a block run one at a time,
//    each until it reaches a barrier or exits, in a seeded pseudo-random order
//    that changes at every barrier (env LRT_CUDA_EMU_SEED), so a missing
//    __syncthreads or __syncwarp gives wrong results instead of accidentally
//    right ones.
//  - __syncthreads releases a block when every live thread arrived (exited
//    threads count as arrived, as on Volta and later). __syncwarp and the
//    shuffles release the lanes named in the mask once all of them are at a
//    warp operation with the same mask; a shuffle reads the values the lanes
//    deposited, with PTX's shfl.sync lane arithmetic.
//  - Misuse aborts with a message naming kernel, block and thread: a deadlock
//    (a barrier or warp operation that can never complete, e.g. a full-mask
//    shuffle in a partial warp or after a lane exited), a lane not in its own
//    mask, a shuffle reading a lane outside the mask, a bad shuffle width,
//    and __ldg from memory that is not device memory or is misaligned.
//  - Device memory is host memory from cudaMalloc, recorded in a table so the
//    memory API can reject host pointers where CUDA would, and filled with a
//    0xCD pattern because device memory starts undefined.
// See runtime/cuda/README.md for what is not emulated.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_RT_CUDA_EMU_H
#define LAYOUT_RT_CUDA_EMU_H

#if defined(__CUDACC__)
#error "layout_rt/cuda_emu.h is the host emulation; include layout_rt/cuda.h"
#endif

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <math.h>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <stdint.h>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__) && !defined(LRT_CUDA_EMU_UCONTEXT)
#define LRT_CUDA_EMU_UCONTEXT 1
#endif
#if defined(LRT_CUDA_EMU_UCONTEXT)
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define LRT_CUDA_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LRT_CUDA_EMU_ASAN 1
#endif
#endif
#if defined(LRT_CUDA_EMU_ASAN)
extern "C" void __sanitizer_start_switch_fiber(void **FakeStackSave,
                                               const void *Bottom, size_t Size);
extern "C" void __sanitizer_finish_switch_fiber(void *FakeStackSave,
                                                const void **BottomOld,
                                                size_t *SizeOld);
extern "C" void __asan_get_shadow_mapping(size_t *ShadowScale,
                                          size_t *ShadowOffset);
#endif

//===----------------------------------------------------------------------===//
// Qualifiers
//===----------------------------------------------------------------------===//

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
// Shared memory belongs to a block; a block's fibers all run on the launching
// OS thread and blocks run one after another, so a per-OS-thread static is
// exactly one block's shared memory at a time.
#define __shared__ static thread_local

//===----------------------------------------------------------------------===//
// Built-in types and variables
//===----------------------------------------------------------------------===//

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int VX = 1, unsigned int VY = 1, unsigned int VZ = 1)
      : x(VX), y(VY), z(VZ) {}
  constexpr dim3(uint3 V) : x(V.x), y(V.y), z(V.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Per OS thread: the scheduler stores the running fiber's index before every
// switch into it, so each fiber sees its own values.
inline thread_local uint3 threadIdx = {0, 0, 0};
inline thread_local uint3 blockIdx = {0, 0, 0};
inline thread_local dim3 blockDim = dim3(0, 0, 0);
inline thread_local dim3 gridDim = dim3(0, 0, 0);
constexpr int warpSize = 32;

// Vector types with CUDA's member types, sizes and alignments
// (vector_types.h); a 16-byte load of a misaligned int4 is a GPU fault, and
// struct layouts that embed them must match the device's.
#define LRT_CUDA_EMU_VEC2(NAME, T, ALIGN)                                      \
  struct alignas(ALIGN) NAME {                                                 \
    T x, y;                                                                    \
  };                                                                           \
  inline NAME make_##NAME(T X, T Y) { return NAME{X, Y}; }
#define LRT_CUDA_EMU_VEC4(NAME, T, ALIGN)                                      \
  struct alignas(ALIGN) NAME {                                                 \
    T x, y, z, w;                                                              \
  };                                                                           \
  inline NAME make_##NAME(T X, T Y, T Z, T W) { return NAME{X, Y, Z, W}; }
LRT_CUDA_EMU_VEC2(char2, signed char, 2)
LRT_CUDA_EMU_VEC4(char4, signed char, 4)
LRT_CUDA_EMU_VEC2(uchar2, unsigned char, 2)
LRT_CUDA_EMU_VEC4(uchar4, unsigned char, 4)
LRT_CUDA_EMU_VEC2(short2, short, 4)
LRT_CUDA_EMU_VEC4(short4, short, 8)
LRT_CUDA_EMU_VEC2(ushort2, unsigned short, 4)
LRT_CUDA_EMU_VEC4(ushort4, unsigned short, 8)
LRT_CUDA_EMU_VEC2(int2, int, 8)
LRT_CUDA_EMU_VEC4(int4, int, 16)
LRT_CUDA_EMU_VEC2(uint2, unsigned int, 8)
LRT_CUDA_EMU_VEC4(uint4, unsigned int, 16)
LRT_CUDA_EMU_VEC2(float2, float, 8)
LRT_CUDA_EMU_VEC4(float4, float, 16)
LRT_CUDA_EMU_VEC2(double2, double, 16)
LRT_CUDA_EMU_VEC2(longlong2, long long, 16)
LRT_CUDA_EMU_VEC2(ulonglong2, unsigned long long, 16)
#undef LRT_CUDA_EMU_VEC2
#undef LRT_CUDA_EMU_VEC4
inline uint3 make_uint3(unsigned int X, unsigned int Y, unsigned int Z) {
  return uint3{X, Y, Z};
}

//===----------------------------------------------------------------------===//
// Runtime API types
//===----------------------------------------------------------------------===//

// Values as in CUDA's driver_types.h, so logged codes mean the same.
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
};

// An opaque handle, as in CUDA; the emulation only checks that it is live.
struct CUstream_st {
  unsigned long long Id;
};
typedef struct CUstream_st *cudaStream_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

//===----------------------------------------------------------------------===//
// Emulator internals
//===----------------------------------------------------------------------===//

namespace lrt_cuda_emu {

constexpr size_t kStackBytes = 64 * 1024;
constexpr unsigned kMaxBlockThreads = 1024;

[[noreturn]] inline void fatal(const char *Fmt, ...)
    __attribute__((format(printf, 1, 2)));
inline void fatal(const char *Fmt, ...) {
  std::fputs("layout_rt CUDA emulation: ", stderr);
  va_list Args;
  va_start(Args, Fmt);
  std::vfprintf(stderr, Fmt, Args);
  va_end(Args);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  std::abort();
}

// CUDA's last error is per host thread and reset by cudaGetLastError.
inline thread_local cudaError_t LastError = cudaSuccess;

inline cudaError_t record(cudaError_t Err) {
  if (Err != cudaSuccess)
    LastError = Err;
  return Err;
}

/// Live device allocations and streams, shared by every host thread.
struct Registry {
  std::mutex Mutex;
  std::map<uintptr_t, size_t> Allocations; // base -> size in bytes
  std::set<const void *> Streams;
  unsigned long long NextStreamId = 1;
};

inline Registry &registry() {
  // Leaked on purpose: cudaFree may run from static destructors.
  static Registry *R = new Registry;
  return *R;
}

/// True if [P, P + Bytes) lies inside one live allocation; sets Lo/Hi to it.
inline bool findDeviceRange(const void *P, size_t Bytes, uintptr_t *Lo,
                            uintptr_t *Hi) {
  Registry &R = registry();
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  std::lock_guard<std::mutex> Lock(R.Mutex);
  auto It = R.Allocations.upper_bound(A);
  if (It == R.Allocations.begin())
    return false;
  --It;
  uintptr_t Base = It->first, End = It->first + It->second;
  if (A >= End || Bytes > End - A)
    return false;
  if (Lo)
    *Lo = Base;
  if (Hi)
    *Hi = End;
  return true;
}

inline bool isDeviceRange(const void *P, size_t Bytes) {
  return P && findDeviceRange(P, Bytes, nullptr, nullptr);
}

inline bool isValidStream(cudaStream_t S) {
  if (S == nullptr || S == cudaStreamLegacy || S == cudaStreamPerThread)
    return true;
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  return R.Streams.count(S) != 0;
}

//===----------------------------------------------------------------------===//
// Fibers
//===----------------------------------------------------------------------===//

#if !defined(LRT_CUDA_EMU_UCONTEXT)
// swapcontext costs a sigprocmask system call per switch; kernels switch at
// every barrier of every thread, so switch by hand: push the callee-saved
// registers of the SysV ABI, swap stack pointers, pop, return into the other
// context. The signal mask and the FP control words are shared by all fibers
// and never changed by kernels, so they need no saving.
// Arguments (SysV registers): rdi = where to save the current stack pointer,
// rsi = the stack pointer to load.
__attribute__((naked, noinline)) inline void switchStacks(void **, void *) {
  asm("pushq %rbp\n\t"
      "pushq %rbx\n\t"
      "pushq %r12\n\t"
      "pushq %r13\n\t"
      "pushq %r14\n\t"
      "pushq %r15\n\t"
      "movq %rsp, (%rdi)\n\t"
      "movq %rsi, %rsp\n\t"
      "popq %r15\n\t"
      "popq %r14\n\t"
      "popq %r13\n\t"
      "popq %r12\n\t"
      "popq %rbx\n\t"
      "popq %rbp\n\t"
      "retq\n\t");
}

// First frame of a fiber: switchStacks "returns" here with the entry function
// in r12 and its argument in rbx (see initContext).
__attribute__((naked, noinline)) inline void fiberTrampoline() {
  asm("movq %rbx, %rdi\n\t"
      "callq *%r12\n\t"
      "ud2\n\t");
}

struct Context {
  void *Sp = nullptr;
};

inline void initContext(Context &C, char *Stack, size_t Bytes,
                        void (*Entry)(void *), void *Arg) {
  // Six registers and a return address; after the ret the stack pointer is
  // 16-byte aligned, as the ABI wants before the trampoline's call.
  uintptr_t Top = (reinterpret_cast<uintptr_t>(Stack) + Bytes) & ~uintptr_t(15);
  void **Frame = reinterpret_cast<void **>(Top - 72);
  Frame[0] = nullptr;                                    // r15
  Frame[1] = nullptr;                                    // r14
  Frame[2] = nullptr;                                    // r13
  Frame[3] = reinterpret_cast<void *>(Entry);            // r12
  Frame[4] = Arg;                                        // rbx
  Frame[5] = nullptr;                                    // rbp
  Frame[6] = reinterpret_cast<void *>(&fiberTrampoline); // return address
  Frame[7] = nullptr;
  Frame[8] = nullptr;
  C.Sp = Frame;
}

inline void switchContext(Context &From, Context &To) {
  switchStacks(&From.Sp, To.Sp);
}
#else
struct Context {
  ucontext_t Uc;
};

inline thread_local void (*UcEntry)(void *) = nullptr;
inline thread_local void *UcArg = nullptr;

inline void ucontextEntry() { UcEntry(UcArg); }

inline void initContext(Context &C, char *Stack, size_t Bytes,
                        void (*Entry)(void *), void *Arg) {
  if (getcontext(&C.Uc) != 0)
    fatal("getcontext failed");
  C.Uc.uc_stack.ss_sp = Stack;
  C.Uc.uc_stack.ss_size = Bytes;
  C.Uc.uc_link = nullptr;
  UcEntry = Entry;
  UcArg = Arg;
  makecontext(&C.Uc, &ucontextEntry, 0);
}

inline void switchContext(Context &From, Context &To) {
  if (swapcontext(&From.Uc, &To.Uc) != 0)
    fatal("swapcontext failed");
}
#endif

/// Fiber stacks of one OS thread, kept for the next block and launch. Each
/// has a guard page below it so a stack overflow faults instead of silently
/// corrupting the neighbouring fiber.
class StackPool {
public:
  StackPool() = default;
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;
  ~StackPool() {
    for (auto &M : Maps)
      munmap(M.first, M.second);
  }

  char *acquire() {
    if (Free.empty())
      grow();
    char *S = Free.back();
    Free.pop_back();
    return S;
  }
  // LIFO: a fiber that never blocks hands its still-cached stack to the next.
  void release(char *S) { Free.push_back(S); }

private:
  void grow() {
    constexpr unsigned Count = 32;
    size_t Guard = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t Slot = Guard + kStackBytes;
    size_t Bytes = Slot * Count;
    void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      fatal("cannot map %zu bytes of fiber stacks", Bytes);
    Maps.emplace_back(P, Bytes);
    char *Base = static_cast<char *>(P);
    for (unsigned I = Count; I-- > 0;) {
      if (mprotect(Base + I * Slot, Guard, PROT_NONE) != 0)
        fatal("cannot protect a fiber stack guard page");
      Free.push_back(Base + I * Slot + Guard);
    }
  }

  std::vector<char *> Free;
  std::vector<std::pair<void *, size_t>> Maps;
};

//===----------------------------------------------------------------------===//
// Scheduler
//===----------------------------------------------------------------------===//

enum class State : uint8_t {
  NotStarted,
  Running,
  AtBlockBarrier,
  AtWarpOp,
  Exited
};
enum class WarpOp : uint8_t { SyncWarp, ShflIdx, ShflUp, ShflDown, ShflXor };

inline const char *warpOpName(WarpOp Op) {
  switch (Op) {
  case WarpOp::SyncWarp:
    return "__syncwarp";
  case WarpOp::ShflIdx:
    return "__shfl_sync";
  case WarpOp::ShflUp:
    return "__shfl_up_sync";
  case WarpOp::ShflDown:
    return "__shfl_down_sync";
  case WarpOp::ShflXor:
    return "__shfl_xor_sync";
  }
  return "?";
}

struct Thread {
  Context Ctx;
  char *Stack = nullptr;
  void *FakeStack = nullptr; // AddressSanitizer's per-fiber bookkeeping
  uint3 Tid = {0, 0, 0};
  State St = State::NotStarted;
  // The pending warp operation, valid while St == AtWarpOp.
  WarpOp Op = WarpOp::SyncWarp;
  uint8_t ValueBytes = 0;
  unsigned Mask = 0;
  unsigned Width = 32;
  unsigned Operand = 0; // source lane, delta or lane mask
  uint64_t Value = 0;
  uint64_t Result = 0;
};

struct Scheduler {
  const char *Kernel = nullptr;
  void (*Invoke)(void *) = nullptr;
  void *Args = nullptr;
  unsigned NumThreads = 0;
  std::vector<Thread> Threads;
  std::vector<uint32_t> Runnable;
  // The threads being run between two barrier releases, in random order;
  // Batch[Cursor] is the next to run.
  std::vector<uint32_t> Batch;
  size_t Cursor = 0;
  uint32_t WarpWaiting[kMaxBlockThreads / 32] = {}; // lanes at a warp op
  unsigned Live = 0;
  unsigned AtBarrier = 0;
  Thread *Current = nullptr;
  Context Main;
  void *MainFakeStack = nullptr;
  bool EnteredFromMain = false; // whether the last switch came from Main
  const void *MainStackBottom = nullptr;
  size_t MainStackSize = 0;
  uint64_t Rng = 0;
  uint64_t Launches = 0;
  // __ldg's cache of the last device allocation it found, valid for one
  // launch (the launching thread cannot free memory while it runs a grid).
  uintptr_t LdgLo = 0, LdgHi = 0;
  StackPool Stacks;

  unsigned indexOf(const Thread &T) const {
    return static_cast<unsigned>(&T - Threads.data());
  }
};

/// The scheduler of the grid this OS thread is running, or null outside a
/// launch. A plain pointer so device functions reach it with one TLS load.
inline thread_local Scheduler *Active = nullptr;

inline Scheduler &threadScheduler() {
  static thread_local std::unique_ptr<Scheduler> S;
  if (!S)
    S.reset(new Scheduler);
  return *S;
}

inline uint64_t nextRandom(uint64_t &State) {
  // splitmix64: tiny, fast, and good enough to permute threads.
  uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

inline uint64_t baseSeed() {
  static const uint64_t Seed = [] {
    const char *E = std::getenv("LRT_CUDA_EMU_SEED");
    if (!E || !*E)
      return uint64_t(0x1a0c5eedull);
    char *End = nullptr;
    unsigned long long V = std::strtoull(E, &End, 0);
    if (*End)
      fatal("LRT_CUDA_EMU_SEED='%s' is not an integer", E);
    return uint64_t(V);
  }();
  return Seed;
}

inline void shuffleOrder(std::vector<uint32_t> &V, uint64_t &Rng) {
  for (size_t I = V.size(); I > 1; --I) {
    size_t J = static_cast<size_t>(
        (static_cast<unsigned __int128>(nextRandom(Rng)) * I) >> 64);
    std::swap(V[I - 1], V[J]);
  }
}

/// "kernel 'k', block (x, y, z), thread (x, y, z)" for diagnostics.
inline const char *where(const Scheduler &S, const Thread *T) {
  static thread_local char Buf[256];
  if (T)
    std::snprintf(Buf, sizeof(Buf),
                  "kernel '%s', block (%u, %u, %u), thread (%u, %u, %u)",
                  S.Kernel, blockIdx.x, blockIdx.y, blockIdx.z, T->Tid.x,
                  T->Tid.y, T->Tid.z);
  else
    std::snprintf(Buf, sizeof(Buf), "kernel '%s', block (%u, %u, %u)", S.Kernel,
                  blockIdx.x, blockIdx.y, blockIdx.z);
  return Buf;
}

inline void asanStartSwitch(void **FakeStackSave, const void *Bottom,
                            size_t Size) {
#if defined(LRT_CUDA_EMU_ASAN)
  __sanitizer_start_switch_fiber(FakeStackSave, Bottom, Size);
#else
  (void)FakeStackSave, (void)Bottom, (void)Size;
#endif
}

inline void asanFinishSwitch(void *FakeStack, const void **BottomOld,
                             size_t *SizeOld) {
#if defined(LRT_CUDA_EMU_ASAN)
  __sanitizer_finish_switch_fiber(FakeStack, BottomOld, SizeOld);
#else
  (void)FakeStack, (void)BottomOld, (void)SizeOld;
#endif
}

/// An exited fiber never returned from its last frames, whose redzones stay
/// poisoned in the stack's shadow; GCC's frames poison their redzones but do
/// not clear the shadow of their variables, so a new fiber on that stack
/// would see stale poison. Clears the stack's shadow by hand:
/// __asan_unpoison_memory_region is a no-op under allow_user_poisoning=0,
/// which the sanitizer runs need for the uninstrumented libMLIR.
#if defined(LRT_CUDA_EMU_ASAN)
__attribute__((no_sanitize_address)) inline void asanClearStack(char *Stack) {
  size_t Scale = 0, Offset = 0;
  __asan_get_shadow_mapping(&Scale, &Offset);
  uintptr_t Begin = (reinterpret_cast<uintptr_t>(Stack) >> Scale) + Offset;
  uintptr_t End =
      ((reinterpret_cast<uintptr_t>(Stack) + kStackBytes) >> Scale) + Offset;
  for (uintptr_t A = Begin; A < End; ++A)
    *reinterpret_cast<volatile uint8_t *>(A) = 0;
}
#else
inline void asanClearStack(char *) {}
#endif

/// Books a thread that stopped running in its block's counts.
inline void account(Scheduler &S, Thread &T) {
  unsigned I = S.indexOf(T);
  switch (T.St) {
  case State::Exited:
    --S.Live;
    break;
  case State::AtBlockBarrier:
    ++S.AtBarrier;
    break;
  case State::AtWarpOp:
    S.WarpWaiting[I / 32] |= 1u << (I % 32);
    break;
  default:
    fatal("%s: thread stopped in an unexpected state", where(S, &T));
  }
}

/// Makes T the running thread, on a fresh stack if it has not started.
inline void prepare(Scheduler &S, Thread &T);

/// Marks the end of a switch into the running fiber for AddressSanitizer.
inline void enteredFiber(Scheduler &S, void *FakeStack) {
  if (S.EnteredFromMain)
    asanFinishSwitch(FakeStack, &S.MainStackBottom, &S.MainStackSize);
  else
    asanFinishSwitch(FakeStack, nullptr, nullptr);
}

/// Fiber side: T has stopped (T.St says why). Switches straight to the next
/// thread of the batch, or back to the scheduler once the batch is done, so
/// a barrier costs one switch per thread; returns when T is resumed.
inline void parkCurrent(Scheduler &S, Thread &T) {
  account(S, T);
  bool Exiting = T.St == State::Exited;
  Context *To = &S.Main;
  const void *Bottom = S.MainStackBottom;
  size_t Size = S.MainStackSize;
  if (S.Cursor < S.Batch.size()) {
    Thread &Next = S.Threads[S.Batch[S.Cursor++]];
    // Before this thread's stack goes back to the pool: a new fiber must
    // not be set up on the stack that is still running.
    prepare(S, Next);
    To = &Next.Ctx;
    Bottom = Next.Stack;
    Size = kStackBytes;
    S.EnteredFromMain = false;
  } else {
    S.Current = nullptr;
  }
  if (Exiting) {
    S.Stacks.release(T.Stack);
    T.Stack = nullptr;
  }
  asanStartSwitch(Exiting ? nullptr : &T.FakeStack, Bottom, Size);
  switchContext(T.Ctx, *To);
  enteredFiber(S, T.FakeStack);
}

inline void invokeKernel(Scheduler &S) {
#if defined(__cpp_exceptions)
  try {
    S.Invoke(S.Args);
  } catch (...) {
    fatal("%s: a C++ exception escaped the kernel", where(S, S.Current));
  }
#else
  S.Invoke(S.Args);
#endif
}

inline void fiberMain(void *Raw) {
  Scheduler &S = *static_cast<Scheduler *>(Raw);
  enteredFiber(S, nullptr);
  for (;;) {
    invokeKernel(S);
    Thread &T = *S.Current;
    T.St = State::Exited;
    // Most threads never reach a barrier: if the next thread of the batch
    // has not started, run it right here on this stack, with no switch.
    if (S.Cursor < S.Batch.size()) {
      Thread &Next = S.Threads[S.Batch[S.Cursor]];
      if (Next.St == State::NotStarted) {
        ++S.Cursor;
        --S.Live;
        Next.Stack = T.Stack;
        T.Stack = nullptr;
        Next.St = State::Running;
        threadIdx = Next.Tid;
        S.Current = &Next;
        continue;
      }
    }
    parkCurrent(S, T);
    fatal("an exited CUDA thread was resumed");
  }
}

inline void prepare(Scheduler &S, Thread &T) {
  threadIdx = T.Tid;
  S.Current = &T;
  if (T.St == State::NotStarted) {
    T.Stack = S.Stacks.acquire();
    asanClearStack(T.Stack);
    initContext(T.Ctx, T.Stack, kStackBytes, &fiberMain, &S);
  }
  T.St = State::Running;
}

/// Scheduler side: runs the batch from Batch[Cursor] on; the fibers pass
/// control among themselves and switch back here when it is done.
inline void runBatch(Scheduler &S) {
  if (S.Cursor >= S.Batch.size())
    return;
  Thread &T = S.Threads[S.Batch[S.Cursor++]];
  prepare(S, T);
  S.EnteredFromMain = true;
  asanStartSwitch(&S.MainFakeStack, T.Stack, kStackBytes);
  switchContext(S.Main, T.Ctx);
  asanFinishSwitch(S.MainFakeStack, nullptr, nullptr);
  if (S.Cursor != S.Batch.size() || S.Current)
    fatal("%s: the scheduler was resumed before its batch ran",
          where(S, nullptr));
}

/// Number of lanes that exist in warp W (the last warp may be partial).
inline unsigned lanesInWarp(const Scheduler &S, unsigned W) {
  unsigned Rest = S.NumThreads - W * 32;
  return Rest < 32 ? Rest : 32;
}

/// Moves values between the lanes of a complete warp group, with the lane
/// arithmetic of PTX shfl.sync: `c` packs the segment mask (32 - width) and
/// the clamp (31, or 0 for up), which bound the source lane to the caller's
/// segment; an out-of-segment source reads the caller's own value.
inline void exchange(Scheduler &S, unsigned W, unsigned Mask) {
  Thread *Lanes = &S.Threads[W * 32];
  unsigned First = static_cast<unsigned>(__builtin_ctz(Mask));
  const Thread &Ref = Lanes[First];
  for (unsigned M = Mask; M; M &= M - 1) {
    unsigned L = static_cast<unsigned>(__builtin_ctz(M));
    const Thread &T = Lanes[L];
    if (T.Op != Ref.Op || T.Width != Ref.Width ||
        T.ValueBytes != Ref.ValueBytes) {
      const char *Place = where(S, &T);
      fatal("%s: lane %u is in %s (width %u, %u-byte value) while lane %u "
            "of the same mask 0x%08x is in %s (width %u, %u-byte value)",
            Place, L, warpOpName(T.Op), T.Width, unsigned(T.ValueBytes), First,
            Mask, warpOpName(Ref.Op), Ref.Width, unsigned(Ref.ValueBytes));
    }
  }
  if (Ref.Op == WarpOp::SyncWarp)
    return;
  for (unsigned M = Mask; M; M &= M - 1) {
    unsigned L = static_cast<unsigned>(__builtin_ctz(M));
    Thread &T = Lanes[L];
    unsigned Seg = (32 - T.Width) & 31;
    unsigned MinLane = L & Seg;
    unsigned MaxLane = MinLane | (~Seg & 31);
    unsigned B = T.Operand & 31;
    int J = 0;
    bool InRange = true;
    switch (T.Op) {
    case WarpOp::ShflIdx:
      J = static_cast<int>(MinLane | (B & ~Seg));
      break;
    case WarpOp::ShflUp:
      J = static_cast<int>(L) - static_cast<int>(B);
      InRange = J >= static_cast<int>(MinLane);
      break;
    case WarpOp::ShflDown:
      J = static_cast<int>(L + B);
      InRange = J <= static_cast<int>(MaxLane);
      break;
    case WarpOp::ShflXor:
      J = static_cast<int>(L ^ B);
      InRange = J <= static_cast<int>(MaxLane);
      break;
    case WarpOp::SyncWarp:
      break;
    }
    if (!InRange)
      J = static_cast<int>(L);
    if (!((Mask >> J) & 1u))
      fatal("%s: %s(mask=0x%08x, .., %d, width=%u) reads lane %d, which is "
            "not in the mask, so its value is undefined",
            where(S, &T), warpOpName(T.Op), Mask, static_cast<int>(T.Operand),
            T.Width, J);
    T.Result = Lanes[J].Value;
  }
}

/// Releases every warp group whose lanes have all arrived with one mask.
inline void releaseWarps(Scheduler &S) {
  unsigned NumWarps = (S.NumThreads + 31) / 32;
  for (unsigned W = 0; W < NumWarps; ++W) {
    uint32_t Pending = S.WarpWaiting[W];
    uint32_t Unchecked = Pending;
    while (Unchecked) {
      unsigned L = static_cast<unsigned>(__builtin_ctz(Unchecked));
      unsigned Mask = S.Threads[W * 32 + L].Mask;
      bool Complete = (Mask & ~Pending) == 0;
      for (uint32_t M = Mask; Complete && M; M &= M - 1)
        Complete = S.Threads[W * 32 + __builtin_ctz(M)].Mask == Mask;
      if (!Complete) {
        Unchecked &= ~(1u << L);
        continue;
      }
      exchange(S, W, Mask);
      for (uint32_t M = Mask; M; M &= M - 1) {
        unsigned I = W * 32 + static_cast<unsigned>(__builtin_ctz(M));
        S.Threads[I].St = State::Running;
        S.Runnable.push_back(I);
      }
      Pending &= ~Mask;
      Unchecked &= ~Mask;
    }
    S.WarpWaiting[W] = Pending;
  }
}

inline const char *describeLane(const Scheduler &S, unsigned W, unsigned L,
                                char *Buf, size_t Size) {
  if (L >= lanesInWarp(S, W)) {
    std::snprintf(Buf, Size,
                  "lane %u does not exist (warp %u has %u threads: the block "
                  "has %u)",
                  L, W, lanesInWarp(S, W), S.NumThreads);
    return Buf;
  }
  const Thread &T = S.Threads[W * 32 + L];
  switch (T.St) {
  case State::Exited:
    std::snprintf(Buf, Size, "lane %u has exited", L);
    break;
  case State::AtBlockBarrier:
    std::snprintf(Buf, Size, "lane %u waits in __syncthreads", L);
    break;
  case State::AtWarpOp:
    std::snprintf(Buf, Size, "lane %u waits in %s with mask 0x%08x", L,
                  warpOpName(T.Op), T.Mask);
    break;
  default:
    std::snprintf(Buf, Size, "lane %u has not arrived", L);
    break;
  }
  return Buf;
}

[[noreturn]] inline void reportDeadlock(Scheduler &S) {
  std::fprintf(stderr,
               "layout_rt CUDA emulation: deadlock in %s: %u live threads, "
               "none can proceed (a GPU would hang or give undefined "
               "results)\n",
               where(S, nullptr), S.Live);
  unsigned Shown = 0;
  for (const Thread &T : S.Threads) {
    if (T.St == State::Exited || Shown == 16)
      continue;
    ++Shown;
    unsigned I = S.indexOf(T), W = I / 32, L = I % 32;
    if (T.St == State::AtBlockBarrier) {
      std::fprintf(stderr,
                   "  thread (%u, %u, %u) (warp %u, lane %u) waits in "
                   "__syncthreads for threads stuck in warp operations\n",
                   T.Tid.x, T.Tid.y, T.Tid.z, W, L);
      continue;
    }
    char Why[160] = "no lane of the mask is missing";
    for (uint32_t M = T.Mask; M; M &= M - 1) {
      unsigned Other = static_cast<unsigned>(__builtin_ctz(M));
      bool Exists = Other < lanesInWarp(S, W);
      const Thread *O = Exists ? &S.Threads[W * 32 + Other] : nullptr;
      if (!O || O->St != State::AtWarpOp || O->Mask != T.Mask) {
        describeLane(S, W, Other, Why, sizeof(Why));
        break;
      }
    }
    std::fprintf(stderr,
                 "  thread (%u, %u, %u) (warp %u, lane %u) waits in %s with "
                 "mask 0x%08x, but %s\n",
                 T.Tid.x, T.Tid.y, T.Tid.z, W, L, warpOpName(T.Op), T.Mask,
                 Why);
  }
  if (Shown < S.Live)
    std::fprintf(stderr, "  ... and %u more\n", S.Live - Shown);
  std::fflush(stderr);
  std::abort();
}

inline void runBlock(Scheduler &S) {
  unsigned N = S.NumThreads;
  unsigned DX = blockDim.x, DY = blockDim.y;
  for (unsigned I = 0; I < N; ++I) {
    Thread &T = S.Threads[I];
    T.St = State::NotStarted;
    T.Tid = uint3{I % DX, (I / DX) % DY, I / (DX * DY)};
  }
  std::memset(S.WarpWaiting, 0, sizeof(S.WarpWaiting));
  S.Live = N;
  S.AtBarrier = 0;
  S.Runnable.resize(N);
  for (unsigned I = 0; I < N; ++I)
    S.Runnable[I] = I;
  shuffleOrder(S.Runnable, S.Rng);
  for (;;) {
    S.Batch.swap(S.Runnable);
    S.Runnable.clear();
    S.Cursor = 0;
    runBatch(S);
    if (S.Live == 0)
      return;
    releaseWarps(S);
    if (S.Runnable.empty()) {
      if (S.AtBarrier != S.Live)
        reportDeadlock(S);
      for (unsigned I = 0; I < N; ++I) {
        if (S.Threads[I].St == State::AtBlockBarrier) {
          S.Threads[I].St = State::Running;
          S.Runnable.push_back(I);
        }
      }
      S.AtBarrier = 0;
    }
    shuffleOrder(S.Runnable, S.Rng);
  }
}

inline bool validLaunch(dim3 Grid, dim3 Block) {
  // The limits of every GPU since compute capability 3.0.
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  return Block.x >= 1 && Block.y >= 1 && Block.z >= 1 && Block.x <= 1024 &&
         Block.y <= 1024 && Block.z <= 64 && Threads <= kMaxBlockThreads &&
         Grid.x >= 1 && Grid.y >= 1 && Grid.z >= 1 && Grid.x <= 0x7fffffffu &&
         Grid.y <= 65535 && Grid.z <= 65535;
}

inline void runGrid(const char *Kernel, dim3 Grid, dim3 Block,
                    cudaStream_t Stream, void (*Invoke)(void *), void *Args) {
  if (Active)
    fatal("%s launches kernel '%s': dynamic parallelism is not emulated",
          where(*Active, Active->Current), Kernel);
  if (!validLaunch(Grid, Block)) {
    record(cudaErrorInvalidConfiguration);
    return;
  }
  if (!isValidStream(Stream)) {
    record(cudaErrorInvalidResourceHandle);
    return;
  }
  Scheduler &S = threadScheduler();
  S.Kernel = Kernel;
  S.Invoke = Invoke;
  S.Args = Args;
  S.NumThreads = Block.x * Block.y * Block.z;
  if (S.Threads.size() < S.NumThreads)
    S.Threads.resize(S.NumThreads);
  S.Rng = baseSeed() ^ (0x9e3779b97f4a7c15ull * ++S.Launches);
  S.LdgLo = S.LdgHi = 0;
  Active = &S;
  blockDim = Block;
  gridDim = Grid;
  // Blocks run in the order of a random affine permutation of their linear
  // index, so a block that depends on another one having run (a race on a
  // GPU) gets wrong data here too, without a table of 2^31 entries.
  uint64_t Total = uint64_t(Grid.x) * Grid.y * Grid.z;
  uint64_t Mul = 1, Add = 0;
  if (Total > 1) {
    do
      Mul = nextRandom(S.Rng) % Total;
    while (Mul == 0 || std::gcd(Mul, Total) != 1);
    Add = nextRandom(S.Rng) % Total;
  }
  for (uint64_t I = 0; I < Total; ++I) {
    uint64_t L = static_cast<uint64_t>(
        (static_cast<unsigned __int128>(Mul) * I + Add) % Total);
    blockIdx = uint3{static_cast<unsigned>(L % Grid.x),
                     static_cast<unsigned>(L / Grid.x % Grid.y),
                     static_cast<unsigned>(L / (uint64_t(Grid.x) * Grid.y))};
    runBlock(S);
  }
  Active = nullptr;
  threadIdx = blockIdx = uint3{0, 0, 0};
  blockDim = gridDim = dim3(0, 0, 0);
}

/// Runs `Kernel(args...)` on every thread of the grid before returning. The
/// arguments are converted to the kernel's parameter types once, as by a
/// CUDA launch, and every thread gets its own copy.
template <typename... Params, typename... Args>
inline void launch(const char *Name, void (*Kernel)(Params...), dim3 Grid,
                   dim3 Block, cudaStream_t Stream, Args &&...A) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "kernel launched with the wrong number of arguments");
  using Tuple = std::tuple<std::decay_t<Params>...>;
  struct Bound {
    void (*K)(Params...);
    Tuple P;
  };
  Bound B{Kernel, Tuple(std::forward<Args>(A)...)};
  runGrid(
      Name, Grid, Block, Stream,
      [](void *Raw) {
        Bound &Call = *static_cast<Bound *>(Raw);
        std::apply(Call.K, Call.P);
      },
      &B);
}

inline Thread &currentThread(const char *Op) {
  Scheduler *S = Active;
  if (!S || !S->Current)
    fatal("%s called outside a kernel", Op);
  return *S->Current;
}

template <typename T>
inline T warpOp(WarpOp Op, unsigned Mask, T V, int Operand, int Width) {
  Thread &Th = currentThread(warpOpName(Op));
  Scheduler &S = *Active;
  unsigned Lane = S.indexOf(Th) % 32;
  if (!((Mask >> Lane) & 1u))
    fatal("%s: %s(mask=0x%08x) is called by lane %u, which is not in the "
          "mask",
          where(S, &Th), warpOpName(Op), Mask, Lane);
  if (Width < 1 || Width > 32 || (Width & (Width - 1)) != 0)
    fatal("%s: %s width %d is not a power of two in [1, 32]", where(S, &Th),
          warpOpName(Op), Width);
  Th.Op = Op;
  Th.Mask = Mask;
  Th.Operand = static_cast<unsigned>(Operand);
  Th.Width = static_cast<unsigned>(Width);
  Th.ValueBytes = sizeof(T);
  Th.Value = 0;
  std::memcpy(&Th.Value, &V, sizeof(T));
  Th.St = State::AtWarpOp;
  parkCurrent(S, Th);
  T R;
  std::memcpy(&R, &Th.Result, sizeof(T));
  return R;
}

template <typename T> struct IsLdgType : std::false_type {};
#define LRT_CUDA_EMU_LDG(T)                                                    \
  template <> struct IsLdgType<T> : std::true_type {};
LRT_CUDA_EMU_LDG(char)
LRT_CUDA_EMU_LDG(signed char)
LRT_CUDA_EMU_LDG(unsigned char)
LRT_CUDA_EMU_LDG(short)
LRT_CUDA_EMU_LDG(unsigned short)
LRT_CUDA_EMU_LDG(int)
LRT_CUDA_EMU_LDG(unsigned int)
LRT_CUDA_EMU_LDG(long)
LRT_CUDA_EMU_LDG(unsigned long)
LRT_CUDA_EMU_LDG(long long)
LRT_CUDA_EMU_LDG(unsigned long long)
LRT_CUDA_EMU_LDG(float)
LRT_CUDA_EMU_LDG(double)
LRT_CUDA_EMU_LDG(char2)
LRT_CUDA_EMU_LDG(char4)
LRT_CUDA_EMU_LDG(uchar2)
LRT_CUDA_EMU_LDG(uchar4)
LRT_CUDA_EMU_LDG(short2)
LRT_CUDA_EMU_LDG(short4)
LRT_CUDA_EMU_LDG(ushort2)
LRT_CUDA_EMU_LDG(ushort4)
LRT_CUDA_EMU_LDG(int2)
LRT_CUDA_EMU_LDG(int4)
LRT_CUDA_EMU_LDG(uint2)
LRT_CUDA_EMU_LDG(uint4)
LRT_CUDA_EMU_LDG(float2)
LRT_CUDA_EMU_LDG(float4)
LRT_CUDA_EMU_LDG(double2)
LRT_CUDA_EMU_LDG(longlong2)
LRT_CUDA_EMU_LDG(ulonglong2)
#undef LRT_CUDA_EMU_LDG

/// A GPU faults on a load from host memory or from a misaligned address;
/// __ldg is the one load the emulation sees, so it checks both.
inline void checkDeviceLoad(const void *P, size_t Bytes, size_t Align) {
  Thread &Th = currentThread("__ldg");
  Scheduler &S = *Active;
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  if (A % Align != 0)
    fatal("%s: __ldg of a %zu-byte value from %p, which is not %zu-byte "
          "aligned (misaligned address on a GPU)",
          where(S, &Th), Bytes, P, Align);
  if (A >= S.LdgLo && A < S.LdgHi && Bytes <= S.LdgHi - A)
    return;
  if (!findDeviceRange(P, Bytes, &S.LdgLo, &S.LdgHi))
    fatal("%s: __ldg of %zu bytes at %p, which is not inside a live "
          "cudaMalloc allocation (illegal address on a GPU)",
          where(S, &Th), Bytes, P);
}

//===----------------------------------------------------------------------===//
// Half precision
//===----------------------------------------------------------------------===//

inline uint64_t doubleBits(double D) {
  uint64_t U;
  std::memcpy(&U, &D, sizeof(U));
  return U;
}

inline float bitsToFloat(uint32_t U) {
  float F;
  std::memcpy(&F, &U, sizeof(F));
  return F;
}

/// Rounds D to nearest-even in a binary format with ExpBits exponent and
/// ManBits fraction bits (f16: 5/10, bf16: 8/7), with subnormals and
/// overflow to infinity. Rounding once from double is correctly rounded for
/// float inputs too (a float is exactly a double), and avoids the double
/// rounding of a double -> float -> half chain. NaN becomes 0x7fff, CUDA's
/// canonical NaN for both formats.
inline uint16_t roundToNarrow(double D, unsigned ExpBits, unsigned ManBits) {
  uint64_t U = doubleBits(D);
  uint16_t Sign = static_cast<uint16_t>((U >> 63) << 15);
  uint64_t Abs = U & 0x7fffffffffffffffull;
  uint64_t Inf = ((uint64_t(1) << ExpBits) - 1) << ManBits;
  if (Abs > 0x7ff0000000000000ull)
    return 0x7fff;
  if (Abs == 0x7ff0000000000000ull)
    return static_cast<uint16_t>(Sign | Inf);
  int BiasedExp = static_cast<int>(Abs >> 52);
  // Double subnormals are far below half the smallest subnormal of both
  // targets: they round to zero.
  if (BiasedExp == 0)
    return Sign;
  int E = BiasedExp - 1023;
  uint64_t Significand =
      (Abs & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
  int Bias = (1 << (ExpBits - 1)) - 1;
  int EMin = 1 - Bias;
  // Count the result in units of its last place, 2^Quantum.
  int Quantum = (E >= EMin ? E : EMin) - static_cast<int>(ManBits);
  int Shift = Quantum - (E - 52);
  if (Shift >= 64)
    return Sign; // below half the smallest subnormal
  uint64_t Units = Significand >> Shift;
  uint64_t Rest = Significand & ((uint64_t(1) << Shift) - 1);
  uint64_t Half = uint64_t(1) << (Shift - 1);
  if (Rest > Half || (Rest == Half && (Units & 1)))
    ++Units;
  uint64_t Bits;
  if (E >= EMin)
    // A carry out of the fraction bumps the exponent, as the format wants.
    Bits = (uint64_t(E + Bias) << ManBits) + Units - (uint64_t(1) << ManBits);
  else
    Bits = Units; // reaching 1 << ManBits is the smallest normal, also right
  if (Bits > Inf)
    Bits = Inf;
  return static_cast<uint16_t>(Sign | Bits);
}

} // namespace lrt_cuda_emu

//===----------------------------------------------------------------------===//
// Device functions
//===----------------------------------------------------------------------===//

inline void __syncthreads() {
  lrt_cuda_emu::Thread &T = lrt_cuda_emu::currentThread("__syncthreads");
  T.St = lrt_cuda_emu::State::AtBlockBarrier;
  lrt_cuda_emu::parkCurrent(*lrt_cuda_emu::Active, T);
}

inline void __syncwarp(unsigned Mask = 0xffffffffu) {
  (void)lrt_cuda_emu::warpOp<int>(lrt_cuda_emu::WarpOp::SyncWarp, Mask, 0, 0,
                                  32);
}

// One overload per CUDA overload, so argument conversions pick the same
// type as under nvcc.
#define LRT_CUDA_EMU_SHFL(T)                                                   \
  inline T __shfl_sync(unsigned Mask, T V, int SrcLane,                        \
                       int Width = warpSize) {                                 \
    return lrt_cuda_emu::warpOp<T>(lrt_cuda_emu::WarpOp::ShflIdx, Mask, V,     \
                                   SrcLane, Width);                            \
  }                                                                            \
  inline T __shfl_up_sync(unsigned Mask, T V, unsigned Delta,                  \
                          int Width = warpSize) {                              \
    return lrt_cuda_emu::warpOp<T>(lrt_cuda_emu::WarpOp::ShflUp, Mask, V,      \
                                   static_cast<int>(Delta), Width);            \
  }                                                                            \
  inline T __shfl_down_sync(unsigned Mask, T V, unsigned Delta,                \
                            int Width = warpSize) {                            \
    return lrt_cuda_emu::warpOp<T>(lrt_cuda_emu::WarpOp::ShflDown, Mask, V,    \
                                   static_cast<int>(Delta), Width);            \
  }                                                                            \
  inline T __shfl_xor_sync(unsigned Mask, T V, int LaneMask,                   \
                           int Width = warpSize) {                             \
    return lrt_cuda_emu::warpOp<T>(lrt_cuda_emu::WarpOp::ShflXor, Mask, V,     \
                                   LaneMask, Width);                           \
  }
LRT_CUDA_EMU_SHFL(int)
LRT_CUDA_EMU_SHFL(unsigned int)
LRT_CUDA_EMU_SHFL(long)
LRT_CUDA_EMU_SHFL(unsigned long)
LRT_CUDA_EMU_SHFL(long long)
LRT_CUDA_EMU_SHFL(unsigned long long)
LRT_CUDA_EMU_SHFL(float)
LRT_CUDA_EMU_SHFL(double)
#undef LRT_CUDA_EMU_SHFL

template <typename T> inline T __ldg(const T *P) {
  static_assert(lrt_cuda_emu::IsLdgType<T>::value,
                "__ldg is not defined by CUDA for this type");
  lrt_cuda_emu::checkDeviceLoad(P, sizeof(T), alignof(T));
  return *P;
}

// f16 and bf16 values are bits; CUDA's arithmetic operators on them are not
// part of the emulated subset, so these are plain bit holders.
struct __half {
  unsigned short __x;
};
struct __nv_bfloat16 {
  unsigned short __x;
};

inline __half __ushort_as_half(unsigned short Bits) { return __half{Bits}; }
inline unsigned short __half_as_ushort(__half H) { return H.__x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short Bits) {
  return __nv_bfloat16{Bits};
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 B) { return B.__x; }

inline float __half2float(__half H) {
  uint32_t Sign = uint32_t(H.__x & 0x8000u) << 16;
  uint32_t Exp = (H.__x >> 10) & 0x1fu;
  uint32_t Man = H.__x & 0x3ffu;
  if (Exp == 0x1f) // inf, or NaN keeping its payload as the GPU does
    return lrt_cuda_emu::bitsToFloat(Sign | 0x7f800000u | (Man << 13));
  if (Exp != 0)
    return lrt_cuda_emu::bitsToFloat(Sign | ((Exp + 112) << 23) | (Man << 13));
  // Zero or subnormal: Man * 2^-24 is exact in float.
  float Mag = std::ldexp(static_cast<float>(Man), -24);
  return Sign ? -Mag : Mag;
}

inline __half __float2half_rn(float F) {
  return __half{lrt_cuda_emu::roundToNarrow(static_cast<double>(F), 5, 10)};
}
inline __half __double2half(double D) {
  return __half{lrt_cuda_emu::roundToNarrow(D, 5, 10)};
}
inline float __bfloat162float(__nv_bfloat16 B) {
  return lrt_cuda_emu::bitsToFloat(uint32_t(B.__x) << 16);
}
inline __nv_bfloat16 __float2bfloat16_rn(float F) {
  return __nv_bfloat16{
      lrt_cuda_emu::roundToNarrow(static_cast<double>(F), 8, 7)};
}
inline __nv_bfloat16 __double2bfloat16(double D) {
  return __nv_bfloat16{lrt_cuda_emu::roundToNarrow(D, 8, 7)};
}

//===----------------------------------------------------------------------===//
// Runtime API
//===----------------------------------------------------------------------===//

inline cudaError_t cudaGetLastError() {
  cudaError_t E = lrt_cuda_emu::LastError;
  lrt_cuda_emu::LastError = cudaSuccess;
  return E;
}
inline cudaError_t cudaPeekAtLastError() { return lrt_cuda_emu::LastError; }

inline const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInitializationError:
    return "cudaErrorInitializationError";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidMemcpyDirection:
    return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidResourceHandle:
    return "cudaErrorInvalidResourceHandle";
  case cudaErrorNotSupported:
    return "cudaErrorNotSupported";
  case cudaErrorUnknown:
    return "cudaErrorUnknown";
  }
  return "unrecognized error code";
}

inline const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInitializationError:
    return "initialization error";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorNotSupported:
    return "operation not supported";
  case cudaErrorUnknown:
    return "unknown error";
  }
  return "unrecognized error code";
}

inline cudaError_t cudaGetDeviceCount(int *Count) {
  if (!Count)
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  *Count = 1;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *Device) {
  if (!Device)
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int Device) {
  return Device == 0 ? cudaSuccess
                     : lrt_cuda_emu::record(cudaErrorInvalidDevice);
}
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

inline cudaError_t cudaStreamCreate(cudaStream_t *Stream) {
  if (!Stream)
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  lrt_cuda_emu::Registry &R = lrt_cuda_emu::registry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  cudaStream_t S = new CUstream_st{R.NextStreamId++};
  R.Streams.insert(S);
  *Stream = S;
  return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  lrt_cuda_emu::Registry &R = lrt_cuda_emu::registry();
  {
    std::lock_guard<std::mutex> Lock(R.Mutex);
    if (R.Streams.erase(Stream) == 1) {
      delete Stream;
      return cudaSuccess;
    }
  }
  return lrt_cuda_emu::record(cudaErrorInvalidResourceHandle);
}
// Streams run synchronously: every operation is done when its call returns.
inline cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  return lrt_cuda_emu::isValidStream(Stream)
             ? cudaSuccess
             : lrt_cuda_emu::record(cudaErrorInvalidResourceHandle);
}

inline cudaError_t cudaMalloc(void **DevPtr, size_t Size) {
  if (!DevPtr)
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  *DevPtr = nullptr;
  // As CUDA: a zero-byte allocation succeeds with a null pointer.
  if (Size == 0)
    return cudaSuccess;
  // Beyond any GPU's memory; refused up front so that sanitizers, which
  // abort on absurd sizes, see the same error as everyone else.
  if (Size > (uint64_t(1) << 46))
    return lrt_cuda_emu::record(cudaErrorMemoryAllocation);
  void *P = nullptr;
  if (posix_memalign(&P, 64, Size) != 0)
    return lrt_cuda_emu::record(cudaErrorMemoryAllocation);
  // Device memory starts undefined; a recognizable pattern makes a kernel
  // that reads what it never wrote fail instead of seeing zeros.
  std::memset(P, 0xcd, Size);
  lrt_cuda_emu::Registry &R = lrt_cuda_emu::registry();
  {
    std::lock_guard<std::mutex> Lock(R.Mutex);
    R.Allocations[reinterpret_cast<uintptr_t>(P)] = Size;
  }
  *DevPtr = P;
  return cudaSuccess;
}
template <class T> inline cudaError_t cudaMalloc(T **DevPtr, size_t Size) {
  return ::cudaMalloc(reinterpret_cast<void **>(DevPtr), Size);
}

inline cudaError_t cudaFree(void *DevPtr) {
  if (!DevPtr)
    return cudaSuccess;
  lrt_cuda_emu::Registry &R = lrt_cuda_emu::registry();
  {
    std::lock_guard<std::mutex> Lock(R.Mutex);
    if (R.Allocations.erase(reinterpret_cast<uintptr_t>(DevPtr)) != 1)
      return lrt_cuda_emu::record(cudaErrorInvalidValue);
  }
  std::free(DevPtr);
  return cudaSuccess;
}

inline cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                   cudaStream_t Stream) {
  if (!lrt_cuda_emu::isValidStream(Stream))
    return lrt_cuda_emu::record(cudaErrorInvalidResourceHandle);
  return cudaMalloc(DevPtr, Size);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **DevPtr, size_t Size,
                                   cudaStream_t Stream) {
  return ::cudaMallocAsync(reinterpret_cast<void **>(DevPtr), Size, Stream);
}
inline cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream) {
  if (!lrt_cuda_emu::isValidStream(Stream))
    return lrt_cuda_emu::record(cudaErrorInvalidResourceHandle);
  return cudaFree(DevPtr);
}

inline cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                              cudaMemcpyKind Kind) {
  bool DstDevice = false, SrcDevice = false;
  switch (Kind) {
  case cudaMemcpyHostToHost:
  case cudaMemcpyDefault: // unified addressing: any pointer goes
    break;
  case cudaMemcpyHostToDevice:
    DstDevice = true;
    break;
  case cudaMemcpyDeviceToHost:
    SrcDevice = true;
    break;
  case cudaMemcpyDeviceToDevice:
    DstDevice = SrcDevice = true;
    break;
  default:
    return lrt_cuda_emu::record(cudaErrorInvalidMemcpyDirection);
  }
  if (Count == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  if ((DstDevice && !lrt_cuda_emu::isDeviceRange(Dst, Count)) ||
      (SrcDevice && !lrt_cuda_emu::isDeviceRange(Src, Count)))
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  std::memmove(Dst, Src, Count);
  return cudaSuccess;
}

inline cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                                   cudaMemcpyKind Kind,
                                   cudaStream_t Stream = 0) {
  if (!lrt_cuda_emu::isValidStream(Stream))
    return lrt_cuda_emu::record(cudaErrorInvalidResourceHandle);
  return cudaMemcpy(Dst, Src, Count, Kind);
}

inline cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count) {
  if (Count == 0)
    return cudaSuccess;
  if (!lrt_cuda_emu::isDeviceRange(DevPtr, Count))
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  std::memset(DevPtr, Value, Count);
  return cudaSuccess;
}

inline cudaError_t cudaMemsetAsync(void *DevPtr, int Value, size_t Count,
                                   cudaStream_t Stream = 0) {
  if (!lrt_cuda_emu::isValidStream(Stream))
    return lrt_cuda_emu::record(cudaErrorInvalidResourceHandle);
  return cudaMemset(DevPtr, Value, Count);
}

/// CUDA 11+ semantics: any address inside a live allocation is device
/// memory; every other pointer, including null, is unregistered host memory.
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *Attr,
                                            const void *Ptr) {
  if (!Attr)
    return lrt_cuda_emu::record(cudaErrorInvalidValue);
  std::memset(Attr, 0, sizeof(*Attr));
  if (Ptr && lrt_cuda_emu::isDeviceRange(Ptr, 1)) {
    Attr->type = cudaMemoryTypeDevice;
    Attr->device = 0;
    Attr->devicePointer = const_cast<void *>(Ptr);
    Attr->hostPointer = nullptr;
  } else {
    Attr->type = cudaMemoryTypeUnregistered;
    Attr->device = -2;
    Attr->devicePointer = nullptr;
    Attr->hostPointer = const_cast<void *>(Ptr);
  }
  return cudaSuccess;
}

#endif // LAYOUT_RT_CUDA_EMU_H
