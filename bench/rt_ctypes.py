"""ctypes binding of include/reduce_tensor.h, for compare_torch.py.

The structures mirror the header field for field (enums are C ints, bool is
one byte); check_layout() pins their sizes and offsets on LP64, and
cpu_smoke.py runs real reductions through them so a drift in the header
shows up as a failed check, not as silent garbage.
"""
import ctypes
import glob
import os

RT_MAX_DIMS = 16

# Enum values from include/reduce_tensor.h (fixed; they only grow at the end).
DTYPES = {"f32": 0, "f64": 1, "f16": 2, "bf16": 3, "i8": 4, "u8": 5,
          "i16": 6, "i32": 7, "i64": 8, "bool": 9}
DTYPE_SIZE = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i8": 1, "u8": 1,
              "i16": 2, "i32": 4, "i64": 8, "bool": 1}
OPS = {"sum": 0, "prod": 1, "mean": 2, "min": 3, "max": 4, "argmin": 5,
       "argmax": 6, "var": 7, "std": 8, "norm": 9, "any": 10, "all": 11}
DEVICE_CPU, DEVICE_CUDA = 0, 1
POLICIES = {"default": 0, "compat": 1, "tuned": 2}
RT_OK = 0


class RtTensor(ctypes.Structure):
    """rt_tensor: data, dtype, ndim, shape[16], strides[16] (in elements)."""
    _fields_ = [("data", ctypes.c_void_p),
                ("dtype", ctypes.c_int),
                ("ndim", ctypes.c_int),
                ("shape", ctypes.c_int64 * RT_MAX_DIMS),
                ("strides", ctypes.c_int64 * RT_MAX_DIMS)]


class RtReduceArgs(ctypes.Structure):
    """rt_reduce_args, in the header's order."""
    _fields_ = [("op", ctypes.c_int),
                ("in_", ctypes.POINTER(RtTensor)),
                ("dims", ctypes.POINTER(ctypes.c_int)),
                ("ndims", ctypes.c_int),
                ("keepdim", ctypes.c_bool),
                ("out", ctypes.POINTER(RtTensor)),
                ("indices", ctypes.POINTER(RtTensor)),
                ("correction", ctypes.c_double),
                ("p", ctypes.c_double),
                ("policy", ctypes.c_int)]


def check_layout():
    """Raises AssertionError when the structures are not the C layout on an
    LP64 platform (x86-64 and aarch64 Linux)."""
    assert ctypes.sizeof(RtTensor) == 272, ctypes.sizeof(RtTensor)
    assert RtTensor.shape.offset == 16 and RtTensor.strides.offset == 144
    want = {"op": 0, "in_": 8, "dims": 16, "ndims": 24, "keepdim": 28,
            "out": 32, "indices": 40, "correction": 48, "p": 56, "policy": 64}
    got = {name: getattr(RtReduceArgs, name).offset for name in want}
    assert got == want, got
    assert ctypes.sizeof(RtReduceArgs) == 72, ctypes.sizeof(RtReduceArgs)


def make_tensor(data_ptr, dtype, shape, strides):
    """An RtTensor for memory at data_ptr (int address) with the given
    shape and strides in elements."""
    t = RtTensor()
    t.data = data_ptr
    t.dtype = DTYPES[dtype]
    t.ndim = len(shape)
    for i, (n, s) in enumerate(zip(shape, strides)):
        t.shape[i] = n
        t.strides[i] = s
    return t


class RtError(RuntimeError):
    def __init__(self, lib, status, what):
        self.status = status
        super().__init__("%s: %s (%s)" % (what, lib.status_name(status),
                                          lib.status_string(status)))


def find_library(repo_root):
    """The newest build*/libreduce_tensor.so under repo_root, or None."""
    found = glob.glob(os.path.join(repo_root, "build*", "libreduce_tensor.so"))
    return max(found, key=os.path.getmtime) if found else None


class Lib:
    """The loaded library with typed entry points."""

    def __init__(self, path):
        check_layout()
        self.path = path
        c = ctypes.CDLL(path)
        self.c = c
        vp, i32, p_args = ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(RtReduceArgs)
        c.rt_context_create.argtypes = [ctypes.POINTER(vp), i32, i32]
        c.rt_context_create.restype = i32
        c.rt_context_destroy.argtypes = [vp]
        c.rt_context_destroy.restype = None
        c.rt_context_set_stream.argtypes = [vp, vp]
        c.rt_context_set_stream.restype = i32
        c.rt_context_set_policy.argtypes = [vp, i32]
        c.rt_context_set_policy.restype = i32
        c.rt_reduce_args_init.argtypes = [p_args]
        c.rt_reduce_args_init.restype = None
        c.reduce_tensor_ex.argtypes = [vp, p_args]
        c.reduce_tensor_ex.restype = i32
        c.rt_reduce_shape.argtypes = [ctypes.POINTER(RtTensor), ctypes.POINTER(i32), i32,
                                      ctypes.c_bool, ctypes.POINTER(i32),
                                      ctypes.POINTER(ctypes.c_int64)]
        c.rt_reduce_shape.restype = i32
        c.rt_status_string.argtypes = [i32]
        c.rt_status_string.restype = ctypes.c_char_p
        c.rt_status_name.argtypes = [i32]
        c.rt_status_name.restype = ctypes.c_char_p
        # The hot entry point, bound once: compare_torch times calls to it.
        self.reduce_ex = c.reduce_tensor_ex

    def status_string(self, s):
        return self.c.rt_status_string(s).decode()

    def status_name(self, s):
        return self.c.rt_status_name(s).decode()

    def check(self, status, what):
        if status != RT_OK:
            raise RtError(self, status, what)

    def context(self, kind, device=0, stream=None, policy=None):
        """A new context (caller destroys it with destroy())."""
        ctx = ctypes.c_void_p()
        self.check(self.c.rt_context_create(ctypes.byref(ctx), kind, device),
                   "rt_context_create")
        if stream is not None:
            self.check(self.c.rt_context_set_stream(ctx, stream), "rt_context_set_stream")
        if policy is not None:
            self.check(self.c.rt_context_set_policy(ctx, POLICIES[policy]),
                       "rt_context_set_policy")
        return ctx

    def destroy(self, ctx):
        self.c.rt_context_destroy(ctx)

    def set_kinds_off(self, ctx, mask):
        """Turns TUNED's rules in mask off on ctx (the library's internal
        rt__context_set_kinds_off; the bits are src/config/config.h's
        RT__RULE_OFF_* and RT__KIND_BIT, which rt_bench --kinds-off names):
        for A/B series in one process."""
        fn = self.c.rt__context_set_kinds_off
        fn.argtypes = [ctypes.c_void_p, ctypes.c_uint]
        fn.restype = ctypes.c_int
        self.check(fn(ctx, mask), "rt__context_set_kinds_off")

    def reduce_shape(self, tensor, dims, keepdim):
        dims_arr = (ctypes.c_int * max(1, len(dims)))(*dims)
        ndim = ctypes.c_int()
        shape = (ctypes.c_int64 * RT_MAX_DIMS)()
        self.check(self.c.rt_reduce_shape(ctypes.byref(tensor), dims_arr, len(dims), keepdim,
                                          ctypes.byref(ndim), shape), "rt_reduce_shape")
        return [shape[i] for i in range(ndim.value)]

    def make_args(self, op, inp, dims, keepdim, out, indices=None, correction=1.0, p=2.0):
        """An RtReduceArgs that keeps its tensors and dims alive (as
        attributes) for as long as it lives."""
        a = RtReduceArgs()
        self.c.rt_reduce_args_init(ctypes.byref(a))
        a._keep = (inp, out, indices, (ctypes.c_int * max(1, len(dims)))(*dims))
        a.op = OPS[op]
        a.in_ = ctypes.pointer(inp)
        a.dims = ctypes.cast(a._keep[3], ctypes.POINTER(ctypes.c_int))
        a.ndims = len(dims)
        a.keepdim = keepdim
        a.out = ctypes.pointer(out)
        a.indices = ctypes.pointer(indices) if indices is not None else None
        a.correction = correction
        a.p = p
        return a
