#!/usr/bin/python3
# Samples OpenCL 2D images on pocl (Debian's pocl-opencl-icd, the CPU device, through pyopencl)
# with CLK_FILTER_NEAREST samplers: the oracle tests/interp/sample-pocl.test.ts compares the
# interpreter's image_sample with. Input (stdin, JSON): a list of {"order": "RGBA"|"R", "type":
# "FLOAT"|"UNSIGNED_INT32"|"SIGNED_INT32", "width", "height", "pixels": base64 (rows packed),
# "normalized": bool, "address": "REPEAT"|"MIRRORED_REPEAT"|"CLAMP_TO_EDGE"|"CLAMP", "coords":
# [x0, y0, x1, y1, ...] (floats), "read": "f"|"ui"|"i"}. Output (stdout, JSON): per image the
# base64 of 4 dwords per coordinate (read_imagef's float4 / read_imageui's uint4 / read_imagei's
# int4 as they are).
import base64, json, sys
import numpy as np
import pyopencl as cl

SRC = r'''
__kernel void rf(__read_only image2d_t img, sampler_t s, __global const float2 *c, __global float4 *out) { size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i]); }
__kernel void rui(__read_only image2d_t img, sampler_t s, __global const float2 *c, __global uint4 *out) { size_t i = get_global_id(0); out[i] = read_imageui(img, s, c[i]); }
__kernel void ri(__read_only image2d_t img, sampler_t s, __global const float2 *c, __global int4 *out) { size_t i = get_global_id(0); out[i] = read_imagei(img, s, c[i]); }
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
        pixels = np.frombuffer(base64.b64decode(j['pixels']), dtype=np.uint8)
        img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(j['width'], j['height']), hostbuf=pixels)
        smp = cl.Sampler(ctx, j['normalized'], getattr(cl.addressing_mode, j['address']), cl.filter_mode.NEAREST)
        coords = np.array(j['coords'], dtype=np.float32)
        n = len(coords) // 2
        cbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
        res = np.zeros(4 * n, dtype=np.uint32)
        rbuf = cl.Buffer(ctx, mf.WRITE_ONLY, res.nbytes)
        k = {'f': prg.rf, 'ui': prg.rui, 'i': prg.ri}[j['read']]
        k(q, (n,), None, img, smp, cbuf, rbuf)
        cl.enqueue_copy(q, res, rbuf)
        q.finish()
        out.append(base64.b64encode(res.tobytes()).decode())
    json.dump(out, sys.stdout)

main()
