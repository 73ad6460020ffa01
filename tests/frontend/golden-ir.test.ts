// The printed IR of small kernels, checked line by line by hand against the RDNA2 semantics
// (these expected texts were reviewed, not generated and accepted): what the translation and the
// passes make of SMEM loads (the 48-bit address masked and dword-aligned; no offset: nothing added), VGPR writes predicated
// on EXEC (inactive lanes keep the old value, here undef; the launch EXEC is the ballot of InGrid,
// so this lane's bit of it is InGrid itself; a register written twice under one EXEC bit keeps the
// value from before both), and not predicated where no instruction writes EXEC or reads another
// lane (a lane outside the launch EXEC is then never active and nothing sees what it holds), a global store through saddr + a
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
import { PORTABLE_PROFILE } from '../../src/backend/profile.js';

const kernel = (name: string, body: string, floatMode?: number) => {
  const s = [...assembleShaders('gfx1030', [{ name, body, ...(floatMode !== undefined ? { floatMode } : {}), directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'] }]).values()][0];
  assert.ok(s);
  return s;
};

const TINY = ['s_load_dwordx2 s[4:5], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v1, 2, v0', 'v_add_nc_u32 v2, 7, v0', 'global_store_dword v1, v2, s[4:5]', 's_endpgm'];

test('golden IR: SMEM load, EXEC-predicated VALU writes, a global store (translate + passes)', () => {
  // The first instruction writes EXEC (its own value): EXEC is then a register the writes read.
  const s = kernel('tinyx', ['s_mov_b32 exec_lo, exec_lo', ...TINY].join('\n'));
  const cfg = buildCfg(s);
  assert.equal(printFunction(translate(s, cfg, analyzeMode(s, cfg))), [
    'function tinyx (wave32)',
    'b0:',
    '  %0 = Undef u32',
    '  %1 = ConstU32 u32 0xffff ; 0x4',
    '  %2 = ConstU32 u32 0xfffffffc ; 0x4',
    '  %3 = ConstU64 u64 0x4 ; 0x4',
    '  %4 = ConstU32 u32 2 ; 0x10',
    '  %5 = ConstU32 u32 0 ; 0x10',
    '  %6 = ConstU32 u32 7 ; 0x14',
    '  %7 = KernargPtr u64',
    '  %8 = Lo32 u32 %7',
    '  %9 = Hi32 u32 %7',
    '  %10 = LocalId u32 0',
    '  %11 = InGrid u1',
    '  Branch b1',
    'b1: ; preds b0',
    '  %12 = And32 u32 %9, %1 ; 0x4',
    '  %13 = And32 u32 %8, %2 ; 0x4',
    '  %14 = Pack64 u64 %13, %12 ; 0x4',
    '  %15 = LoadUniform32 u32 %14 ; 0x4',
    '  %16 = IAdd64 u64 %14, %3 ; 0x4',
    '  %17 = LoadUniform32 u32 %16 ; 0x4',
    '  %18 = Shl32 u32 %10, %4 ; 0x10',
    '  %19 = Select32 u32 %11, %18, %0 ; 0x10',
    '  %20 = IAdd32 u32 %6, %10 ; 0x14',
    '  %21 = Select32 u32 %11, %20, %0 ; 0x14',
    '  %22 = Pack64 u64 %15, %17 ; 0x18',
    '  %23 = Pack64 u64 %19, %5 ; 0x18',
    '  %24 = IAdd64 u64 %22, %23 ; 0x18',
    '  StoreGlobal32 %11, %24, %21 ; 0x18',
    '  EndProgram ; 0x20',
    '',
  ].join('\n'));
});

test('golden IR: no instruction writes EXEC or reads another lane, so the VALU writes are their values (no EXEC select)', () => {
  const s = kernel('tiny', TINY.join('\n'));
  const cfg = buildCfg(s);
  assert.equal(printFunction(translate(s, cfg, analyzeMode(s, cfg))), [
    'function tiny (wave32)',
    'b0:',
    '  %0 = ConstU32 u32 0xffff ; 0x0',
    '  %1 = ConstU32 u32 0xfffffffc ; 0x0',
    '  %2 = ConstU64 u64 0x4 ; 0x0',
    '  %3 = ConstU32 u32 2 ; 0xc',
    '  %4 = ConstU32 u32 7 ; 0x10',
    '  %5 = ConstU32 u32 0 ; 0x14',
    '  %6 = KernargPtr u64',
    '  %7 = Lo32 u32 %6',
    '  %8 = Hi32 u32 %6',
    '  %9 = LocalId u32 0',
    '  %10 = InGrid u1',
    '  Branch b1',
    'b1: ; preds b0',
    '  %11 = And32 u32 %8, %0 ; 0x0',
    '  %12 = And32 u32 %7, %1 ; 0x0',
    '  %13 = Pack64 u64 %12, %11 ; 0x0',
    '  %14 = LoadUniform32 u32 %13 ; 0x0',
    '  %15 = IAdd64 u64 %13, %2 ; 0x0',
    '  %16 = LoadUniform32 u32 %15 ; 0x0',
    '  %17 = Shl32 u32 %9, %3 ; 0xc',
    '  %18 = IAdd32 u32 %4, %9 ; 0x10',
    '  %19 = Pack64 u64 %14, %16 ; 0x14',
    '  %20 = Pack64 u64 %17, %5 ; 0x14',
    '  %21 = IAdd64 u64 %19, %20 ; 0x14',
    '  StoreGlobal32 %10, %21, %18 ; 0x14',
    '  EndProgram ; 0x1c',
    '',
  ].join('\n'));
  // A v_readfirstlane (ReadLane) anywhere in the kernel, even unused, keeps every write's select.
  const r = kernel('tinyr', [...TINY.slice(0, -1), 'v_readfirstlane_b32 s6, v2', 's_endpgm'].join('\n'));
  const rc = buildCfg(r);
  const text = printFunction(translate(r, rc, analyzeMode(r, rc)));
  assert.equal(text.split('\n').filter((l) => l.includes('Select32 u32 %')).length, 2, text);
});

test('golden IR: f32 ops under round toward zero become calls of one helper per (op, mode)', () => {
  // MODE 0xf3: f32 round toward zero, every denormal kept; the portable profile offers no float control: emulated (lavapipe runs the add guarded).
  const s = kernel('tinyf', ['s_load_dwordx2 s[4:5], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v1, 2, v0', 'v_cvt_f32_u32 v2, v0', 'v_add_f32 v2, 0.5, v2', 'global_store_dword v1, v2, s[4:5]', 's_endpgm'].join('\n'), 0xf3);
  const text = printFunction(recompile(s, { profile: PORTABLE_PROFILE }).ir);
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, lines.findIndex((l) => l.startsWith('helper '))), [
    'function tinyf (wave32)',
    'b0:',
    '  %0 = ConstU32 u32 0x3f000000 ; 0x14',
    '  %1 = ConstU32 u32 0xffff ; 0x0',
    '  %2 = ConstU32 u32 0xfffffffc ; 0x0',
    '  %3 = ConstU64 u64 0x4 ; 0x0',
    '  %4 = ConstU32 u32 2 ; 0xc',
    '  %5 = ConstU32 u32 0 ; 0x18',
    '  %6 = KernargPtr u64',
    '  %7 = Lo32 u32 %6',
    '  %8 = Hi32 u32 %6',
    '  %9 = LocalId u32 0',
    '  %10 = InGrid u1',
    '  Branch b1',
    'b1: ; preds b0',
    '  %11 = And32 u32 %8, %1 ; 0x0',
    '  %12 = And32 u32 %7, %2 ; 0x0',
    '  %13 = Pack64 u64 %12, %11 ; 0x0',
    '  %14 = LoadUniform32 u32 %13 ; 0x0',
    '  %15 = IAdd64 u64 %13, %3 ; 0x0',
    '  %16 = LoadUniform32 u32 %15 ; 0x0',
    '  %17 = Shl32 u32 %9, %4 ; 0xc',
    '  %18 = Call u32 %9, 0 ; 0x10',
    '  %19 = Call u32 %0, %18, 1 ; 0x14',
    '  %20 = Pack64 u64 %14, %16 ; 0x18',
    '  %21 = Pack64 u64 %17, %5 ; 0x18',
    '  %22 = IAdd64 u64 %20, %21 ; 0x18',
    '  StoreGlobal32 %10, %22, %19 ; 0x18',
    '  EndProgram ; 0x20',
  ]);
  assert.deepEqual(lines.filter((l) => l.startsWith('helper ')), [
    'helper 0 ConvertF32U32 round=3 flushIn=false flushOut=false ieee=true dx10Clamp=true',
    'helper 1 FAdd32 round=3 flushIn=false flushOut=false ieee=true dx10Clamp=true',
  ]);
});
