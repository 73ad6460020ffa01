#!/usr/bin/python3
# Runs one OpenCL C kernel on pocl (Debian's pocl-opencl-icd, the CPU device) with the arguments of
# an rdna ARGS document, and prints every buffer argument after the run as base64 JSON: the
# oracle `rdna run --engine interp` is compared with, byte for byte.
# usage: pocl-run.py SOURCE.cl ARGS.json [BUILD OPTIONS...]
import base64, json, struct, sys
import numpy as np
import pyopencl as cl

TYPES = {'f32': np.float32, 'f64': np.float64, 'f16': np.float16, 'u32': np.uint32, 'i32': np.int32,
         'u16': np.uint16, 'i16': np.int16, 'u8': np.uint8, 'i8': np.int8, 'u64': np.uint64, 'i64': np.int64}

def main():
    src = open(sys.argv[1]).read()
    doc = json.load(open(sys.argv[2]))
    opts = sys.argv[3:]
    plat = [p for p in cl.get_platforms() if 'Portable' in p.name][0]
    ctx = cl.Context(plat.get_devices())
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, src).build(options=opts)
    k = getattr(prg, doc['kernel'])
    bufs, host, params = [], [], []
    for i, a in enumerate(doc['args']):
        if 'buffer' in a:
            t = TYPES[a['buffer']]
            if 'data' in a:
                arr = np.array([int(x) if a['buffer'] in ('u64', 'i64') else x for x in a['data']], dtype=t)
            elif 'base64' in a:
                arr = np.frombuffer(base64.b64decode(a['base64']), dtype=np.uint8).copy()
            else:
                arr = np.zeros(a['size'], dtype=np.uint8)
            b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=arr) if arr.nbytes else cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1)
            bufs.append((i, b, arr))
            params.append(b)
        else:
            (t, v), = a.items()
            params.append(TYPES[t](int(v) if t in ('u64', 'i64') else v))
    grid = list(doc['grid']) + [1] * (3 - len(doc['grid']))
    block = list(doc['block']) + [1] * (3 - len(doc['block']))
    dims = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
    k(q, grid[:dims], block[:dims], *params)
    out = []
    for i, b, arr in bufs:
        if arr.nbytes:
            cl.enqueue_copy(q, arr, b)
        out.append({'arg': i, 'base64': base64.b64encode(arr.tobytes()).decode()})
    q.finish()
    print(json.dumps({'buffers': out}))

main()
