#!/usr/bin/python3
# Writes pixels of OpenCL 2D images on pocl (Debian's pocl-opencl-icd, the CPU device, through
# pyopencl) with write_imagef / write_imageui / write_imagei and reads the images' bytes back: the
# oracle tests/interp/image-store-pocl.test.ts compares the interpreter's converting image_store
# with. Input (stdin, JSON): a list of {"order": "RGBA"|"R", "type": "UNORM_INT8"|..., "width",
# "height", "write": "f"|"ui"|"i", "values": base64 of 4 dwords per pixel (row-major: float32 bits
# or 32-bit integers)}. Output (stdout, JSON): per image the base64 of its packed pixel bytes.
import base64, json, sys
import numpy as np
import pyopencl as cl

SRC = r'''
__kernel void wf(__write_only image2d_t img, int w, __global const float4 *v) { int i = get_global_id(0); write_imagef(img, (int2)(i % w, i / w), v[i]); }
__kernel void wui(__write_only image2d_t img, int w, __global const uint4 *v) { int i = get_global_id(0); write_imageui(img, (int2)(i % w, i / w), v[i]); }
__kernel void wi(__write_only image2d_t img, int w, __global const int4 *v) { int i = get_global_id(0); write_imagei(img, (int2)(i % w, i / w), v[i]); }
'''

def main():
    jobs = json.load(sys.stdin)
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SRC).build()
    mf = cl.mem_flags
    out = []
    for j in jobs:
        fmt = cl.ImageFormat(getattr(cl.channel_order, j['order']), getattr(cl.channel_type, j['type']))
        w, h = j['width'], j['height']
        img = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
        vals = np.frombuffer(base64.b64decode(j['values']), dtype=np.uint32).copy()
        vbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=vals)
        k = {'f': prg.wf, 'ui': prg.wui, 'i': prg.wi}[j['write']]
        k(q, (w * h,), None, img, np.int32(w), vbuf)
        bpe = fmt.itemsize
        res = np.zeros(w * h * bpe, dtype=np.uint8)
        cl.enqueue_copy(q, res, img, origin=(0, 0), region=(w, h))
        q.finish()
        out.append(base64.b64encode(res.tobytes()).decode())
    json.dump(out, sys.stdout)

main()
