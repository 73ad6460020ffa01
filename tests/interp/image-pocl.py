#!/usr/bin/python3
# Reads pixels of OpenCL 2D images on pocl (Debian's pocl-opencl-icd, the CPU device, through
# pyopencl): the oracle tests/interp/image.test.ts compares the interpreter's image_load with, and
# tests/interp/sample-pocl.test.ts its image_sample. Input (stdin, JSON): a list of {"order":
# "RGBA"|"BGRA"|"R"|"A", "type": "UNORM_INT8"|..., "width", "height", "pixels": base64 (rows
# packed, no padding), "coords": [x0, y0, x1, y1, ...], "read": "f"|"ui"|"i"}, and to sample
# through a CLK_FILTER_NEAREST sampler, "normalized": bool and "address":
# "REPEAT"|"MIRRORED_REPEAT"|"CLAMP_TO_EDGE"|"CLAMP" (the coordinates then floats; without them
# integers read through CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE). Output (stdout, JSON):
# per image the base64 of 4 dwords per coordinate (read_imagef's float4 / read_imageui's uint4 /
# read_imagei's int4 as they are).
import base64, json, sys
import numpy as np
import pyopencl as cl

SRC = r'''
__constant sampler_t S = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__kernel void rf(__read_only image2d_t img, __global const int2 *c, __global float4 *out) { size_t i = get_global_id(0); out[i] = read_imagef(img, S, c[i]); }
__kernel void rui(__read_only image2d_t img, __global const int2 *c, __global uint4 *out) { size_t i = get_global_id(0); out[i] = read_imageui(img, S, c[i]); }
__kernel void ri(__read_only image2d_t img, __global const int2 *c, __global int4 *out) { size_t i = get_global_id(0); out[i] = read_imagei(img, S, c[i]); }
__kernel void sf(__read_only image2d_t img, sampler_t s, __global const float2 *c, __global float4 *out) { size_t i = get_global_id(0); out[i] = read_imagef(img, s, c[i]); }
__kernel void sui(__read_only image2d_t img, sampler_t s, __global const float2 *c, __global uint4 *out) { size_t i = get_global_id(0); out[i] = read_imageui(img, s, c[i]); }
__kernel void si(__read_only image2d_t img, sampler_t s, __global const float2 *c, __global int4 *out) { size_t i = get_global_id(0); out[i] = read_imagei(img, s, c[i]); }
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
        sampled = 'address' in j
        coords = np.array(j['coords'], dtype=np.float32 if sampled else np.int32)
        n = len(coords) // 2
        cbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
        res = np.zeros(4 * n, dtype=np.uint32)
        rbuf = cl.Buffer(ctx, mf.WRITE_ONLY, res.nbytes)
        if sampled:
            smp = cl.Sampler(ctx, j['normalized'], getattr(cl.addressing_mode, j['address']), cl.filter_mode.NEAREST)
            k = {'f': prg.sf, 'ui': prg.sui, 'i': prg.si}[j['read']]
            k(q, (n,), None, img, smp, cbuf, rbuf)
        else:
            k = {'f': prg.rf, 'ui': prg.rui, 'i': prg.ri}[j['read']]
            k(q, (n,), None, img, cbuf, rbuf)
        cl.enqueue_copy(q, res, rbuf)
        q.finish()
        out.append(base64.b64encode(res.tobytes()).decode())
    json.dump(out, sys.stdout)

main()
