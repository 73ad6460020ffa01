// The printed IR of small kernels, checked line by line by hand against the RDNA2 semantics
// (these expected texts were reviewed, not generated and accepted): what the translation and the
// passes make of SMEM loads (the 48-bit address masked and dword-aligned), VGPR writes predicated
// on EXEC (inactive lanes keep the old value, here undef), a global store through saddr + a
// zero-extended 32-bit offset, constants and launch values hoisted into the entry block; and,
// through recompile(), f32 ops under a mode lavapipe cannot express (round toward zero) as calls
// of one helper per (op, mode), a constant operand's bit cast folded at the call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleShaders } from '../harness/kernel.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { printFunction } from '../../src/ir/print.js';
import { recompile } from '../../src/backend/recompile.js';

const kernel = (name: string, body: string, floatMode?: number) => {
  const s = [...assembleShaders('gfx1030', [{ name, body, ...(floatMode !== undefined ? { floatMode } : {}), directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'] }]).values()][0];
  assert.ok(s);
  return s;
};

test('golden IR: SMEM load, EXEC-predicated VALU writes, a global store (translate + passes)', () => {
  const s = kernel('tiny', ['s_load_dwordx2 s[4:5], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v1, 2, v0', 'v_add_nc_u32 v2, 7, v0', 'global_store_dword v1, v2, s[4:5]', 's_endpgm'].join('\n'));
  const cfg = buildCfg(s);
  assert.equal(printFunction(translate(s, cfg, analyzeMode(s, cfg))), [
    'function tiny (wave32)',
    'b0:',
    '  %0 = ConstU32 u32 0xffff ; 0x0',
    '  %1 = ConstU32 u32 0 ; 0x0',
    '  %2 = ConstU64 u64 0x0 ; 0x0',
    '  %3 = ConstU32 u32 0xfffffffc ; 0x0',
    '  %4 = ConstU64 u64 0x4 ; 0x0',
    '  %5 = ConstU32 u32 2 ; 0xc',
    '  %6 = LaneId u32 ; 0xc',
    '  %7 = ConstU32 u32 7 ; 0x10',
    '  %8 = Undef u32',
    '  %9 = KernargPtr u64',
    '  %10 = Lo32 u32 %9',
    '  %11 = Hi32 u32 %9',
    '  %12 = LocalId u32 0',
    '  %13 = InGrid u1',
    '  %14 = BallotLo u32 %13',
    '  Branch b1',
    'b1: ; preds b0',
    '  %15 = And32 u32 %11, %0 ; 0x0',
    '  %16 = Pack64 u64 %10, %15 ; 0x0',
    '  %17 = IAdd64 u64 %16, %2 ; 0x0',
    '  %18 = Lo32 u32 %17 ; 0x0',
    '  %19 = And32 u32 %18, %3 ; 0x0',
    '  %20 = Hi32 u32 %17 ; 0x0',
    '  %21 = Pack64 u64 %19, %20 ; 0x0',
    '  %22 = LoadUniform32 u32 %21 ; 0x0',
    '  %23 = IAdd64 u64 %21, %4 ; 0x0',
    '  %24 = LoadUniform32 u32 %23 ; 0x0',
    '  %25 = Shl32 u32 %12, %5 ; 0xc',
    '  %26 = LaneBit u1 %14, %1, %6 ; 0xc',
    '  %27 = Select32 u32 %26, %25, %8 ; 0xc',
    '  %28 = IAdd32 u32 %7, %12 ; 0x10',
    '  %29 = Select32 u32 %26, %28, %8 ; 0x10',
    '  %30 = Pack64 u64 %22, %24 ; 0x14',
    '  %31 = Pack64 u64 %27, %1 ; 0x14',
    '  %32 = IAdd64 u64 %30, %31 ; 0x14',
    '  StoreGlobal32 %26, %32, %29 ; 0x14',
    '  EndProgram ; 0x1c',
    '',
  ].join('\n'));
});

test('golden IR: f32 ops under round toward zero become calls of one helper per (op, mode)', () => {
  // MODE 0xf3: f32 round toward zero, every denormal kept; lavapipe has no RTZ it promises: emulated.
  const s = kernel('tinyf', ['s_load_dwordx2 s[4:5], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v1, 2, v0', 'v_cvt_f32_u32 v2, v0', 'v_add_f32 v2, 0.5, v2', 'global_store_dword v1, v2, s[4:5]', 's_endpgm'].join('\n'), 0xf3);
  const text = printFunction(recompile(s).ir);
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, lines.findIndex((l) => l.startsWith('helper '))), [
    'function tinyf (wave32)',
    'b0:',
    '  %0 = ConstU32 u32 0x3f000000 ; 0x14',
    '  %1 = ConstU32 u32 0xffff ; 0x0',
    '  %2 = ConstU32 u32 0 ; 0x0',
    '  %3 = ConstU64 u64 0x0 ; 0x0',
    '  %4 = ConstU32 u32 0xfffffffc ; 0x0',
    '  %5 = ConstU64 u64 0x4 ; 0x0',
    '  %6 = ConstU32 u32 2 ; 0xc',
    '  %7 = LaneId u32 ; 0xc',
    '  %8 = Undef u32',
    '  %9 = KernargPtr u64',
    '  %10 = Lo32 u32 %9',
    '  %11 = Hi32 u32 %9',
    '  %12 = LocalId u32 0',
    '  %13 = InGrid u1',
    '  %14 = BallotLo u32 %13',
    '  Branch b1',
    'b1: ; preds b0',
    '  %15 = And32 u32 %11, %1 ; 0x0',
    '  %16 = Pack64 u64 %10, %15 ; 0x0',
    '  %17 = IAdd64 u64 %16, %3 ; 0x0',
    '  %18 = Lo32 u32 %17 ; 0x0',
    '  %19 = And32 u32 %18, %4 ; 0x0',
    '  %20 = Hi32 u32 %17 ; 0x0',
    '  %21 = Pack64 u64 %19, %20 ; 0x0',
    '  %22 = LoadUniform32 u32 %21 ; 0x0',
    '  %23 = IAdd64 u64 %21, %5 ; 0x0',
    '  %24 = LoadUniform32 u32 %23 ; 0x0',
    '  %25 = Shl32 u32 %12, %6 ; 0xc',
    '  %26 = LaneBit u1 %14, %2, %7 ; 0xc',
    '  %27 = Select32 u32 %26, %25, %8 ; 0xc',
    '  %28 = Call u32 %12, 0 ; 0x10',
    '  %29 = Select32 u32 %26, %28, %8 ; 0x10',
    '  %30 = Call u32 %0, %29, 1 ; 0x14',
    '  %31 = Select32 u32 %26, %30, %29 ; 0x14',
    '  %32 = Pack64 u64 %22, %24 ; 0x18',
    '  %33 = Pack64 u64 %27, %2 ; 0x18',
    '  %34 = IAdd64 u64 %32, %33 ; 0x18',
    '  StoreGlobal32 %26, %34, %31 ; 0x18',
    '  EndProgram ; 0x20',
  ]);
  assert.deepEqual(lines.filter((l) => l.startsWith('helper ')), [
    'helper 0 ConvertF32U32 round=3 flushIn=false flushOut=false ieee=true dx10Clamp=true',
    'helper 1 FAdd32 round=3 flushIn=false flushOut=false ieee=true dx10Clamp=true',
  ]);
});
