#!/usr/bin/python3
# Runs OpenCL C kernels on pocl (Debian's pocl-opencl-icd, the CPU device) with the arguments of an
# rdna ARGS document, and prints the buffers after the run as base64 JSON: the oracle `rdna run` is
# compared with, byte for byte. Written from the format's description (src/interp/args.ts's header),
# not from rdna's code: by-value arguments are packed here with Python's struct and numpy.
#   one dispatch: {"kernel", "grid", "block", "args"} -> {"buffers": [{"arg", "base64"}]} (each buffer argument)
#   a sequence:   {"buffers": {...}, "dispatches": [...]} -> {"buffers": [{"name", "base64"}]} (each named buffer)
# "args" is a list, or an object keyed by argument name (the program must be built with
# -cl-kernel-arg-info for pocl to know the names).
# usage: pocl-run.py SOURCE.cl ARGS.json [BUILD OPTIONS...]
import base64, json, re, struct, sys
import numpy as np
import pyopencl as cl

TYPES = {'f32': np.float32, 'f64': np.float64, 'f16': np.float16, 'u32': np.uint32, 'i32': np.int32,
         'u16': np.uint16, 'i16': np.int16, 'u8': np.uint8, 'i8': np.int8, 'u64': np.uint64, 'i64': np.int64}
INTS = ('u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'u64', 'i64')

def integer(x):
    if isinstance(x, str):
        try:
            return int(x, 0)
        except ValueError:
            return int(x)
    return int(x)

def element(t, x):
    return TYPES[t](integer(x)) if t in INTS else TYPES[t](x)

def buffer_array(a):
    t = TYPES[a['buffer']]
    if 'data' in a:
        return np.array([element(a['buffer'], x) for x in a['data']], dtype=t)
    if 'base64' in a:
        return np.frombuffer(base64.b64decode(a['base64']), dtype=np.uint8).copy()
    return np.zeros(a['size'], dtype=np.uint8)

def by_value(a, counters):
    """The bytes of a by-value argument: {"T": v}, {"T": {"index", "add"}}, {"TxN": [...]}, {"bytes": b64}."""
    (key, v), = a.items()
    if key == 'bytes':
        return base64.b64decode(v)
    m = re.fullmatch(r'([a-z]\d+)x(\d+)', key)
    if m:
        t, n = m.group(1), int(m.group(2))
        arr = np.array([element(t, x) for x in v], dtype=TYPES[t])
        if n == 3:
            arr = np.concatenate([arr, np.zeros(1, dtype=TYPES[t])])
        return arr.tobytes()
    if isinstance(v, dict):
        v = counters[v['index']] + v.get('add', 0)
    return np.array([element(key, v)], dtype=TYPES[key]).tobytes()

def main():
    src = open(sys.argv[1]).read()
    doc = json.load(open(sys.argv[2]))
    opts = sys.argv[3:]
    plat = [p for p in cl.get_platforms() if 'Portable' in p.name][0]
    ctx = cl.Context(plat.get_devices())
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, src).build(options=opts)
    kernels = {}

    def kernel(name):
        if name not in kernels:
            kernels[name] = getattr(prg, name)
        return kernels[name]

    def make_buffer(arr):
        if arr.nbytes:
            return cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=arr)
        return cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1)

    named = {}
    for name, spec in (doc.get('buffers') or {}).items():
        arr = buffer_array(spec)
        named[name] = (make_buffer(arr), arr)
    inline = []  # (arg, buffer, array) of a one-dispatch document

    def dispatch(d, counters):
        k = kernel(d['kernel'])
        args = d.get('args', [])
        if isinstance(args, dict):
            names = [k.get_arg_info(i, cl.kernel_arg_info.NAME) for i in range(k.num_args)]
            args = [args[n] for n in names]
        for i, a in enumerate(args):
            if 'buffer' in a:
                arr = buffer_array(a)
                b = make_buffer(arr)
                inline.append((i, b, arr))
                k.set_arg(i, b)
            elif 'ref' in a:
                k.set_arg(i, named[a['ref']][0])
            elif 'local' in a:
                k.set_arg(i, cl.LocalMemory(a['local']))
            else:
                k.set_arg(i, by_value(a, counters))
        grid = list(d['grid']) + [1] * (3 - len(d['grid']))
        block = list(d['block']) + [1] * (3 - len(d['block']))
        dims = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
        cl.enqueue_nd_range_kernel(q, k, grid[:dims], block[:dims])

    def items(lst, counters):
        for it in lst:
            if 'repeat' in it:
                start, step = it.get('start', 0), it.get('step', 1)
                for r in range(it['repeat']):
                    inner = dict(counters)
                    if 'index' in it:
                        inner[it['index']] = start + r * step
                    items(it['dispatches'], inner)
            else:
                dispatch(it, counters)

    if 'dispatches' in doc:
        items(doc['dispatches'], {})
        out = []
        for name, (b, arr) in named.items():
            if arr.nbytes:
                cl.enqueue_copy(q, arr, b)
            out.append({'name': name, 'base64': base64.b64encode(arr.tobytes()).decode()})
    else:
        dispatch(doc, {})
        out = []
        for i, b, arr in inline:
            if arr.nbytes:
                cl.enqueue_copy(q, arr, b)
            out.append({'arg': i, 'base64': base64.b64encode(arr.tobytes()).decode()})
    q.finish()
    print(json.dumps({'buffers': out}))

main()
