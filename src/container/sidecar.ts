// The JSON sidecar of a raw shader (`shader.bin` beside `shader.json`): what an emulator captured
// from the hardware registers along with the code. One declarative field table gives both the
// validator (which names the bad field) and the published JSON Schema
// (docs/shader-sidecar.schema.json, checked current by tests/container/sidecar.test.ts).
import { TARGETS, type Target } from '../isa/types.js';
import { CodeObjectError } from './kernel-descriptor.js';
import { type AssumableField, STAGES, type SgprInput, type ShaderInfo, type Stage, type SystemSgprKind } from './shader-info.js';

/** Largest sidecar we parse. */
export const MAX_SIDECAR_BYTES = 1 << 20;

/**
 * The documented defaults for fields a sidecar may leave out. They are an llvm-mc `.amdhsa_kernel`
 * without float directives (FLOAT_MODE 0xC0: round to nearest even, f32 denormals flushed, f16/f64
 * denormals kept; DX10_CLAMP on) and LLVM's rule for non-HSA shaders (IEEE mode off). A shader
 * whose sidecar relies on them reports each one as assumed.
 */
export const SIDECAR_DEFAULTS = {
  floatMode: 0xc0,
  dx10Clamp: true,
  ieeeMode: false,
  fp16Overflow: false,
  tgidEnable: [true, false, false],
  tgSizeEnable: false,
  scratchEnable: false,
  tidigCompCnt: 0,
  sgprs: 106,
  vgprs: 256,
  ldsSize: 0,
  scratchSize: 0,
} as const;

/** gfx10 limits the schema enforces. */
const MAX_USER_SGPRS = 32;
const MAX_LDS = 65536;

type FieldType =
  | { readonly type: 'enum'; readonly values: readonly (string | number)[] }
  | { readonly type: 'integer'; readonly min: number; readonly max: number; readonly multipleOf?: number }
  | { readonly type: 'boolean' }
  | { readonly type: 'string' }
  | { readonly type: 'workgroupSize' }
  | { readonly type: 'flags3' }
  | { readonly type: 'userSgprs' };

interface FieldDef {
  readonly name: string;
  readonly required?: boolean;
  readonly spec: FieldType;
  readonly description: string;
}

/** The sidecar's fields, in the order documentation lists them. */
export const SIDECAR_FIELDS: readonly FieldDef[] = [
  { name: '$schema', spec: { type: 'string' }, description: 'the schema this file follows (ignored)' },
  { name: 'target', required: true, spec: { type: 'enum', values: TARGETS }, description: 'GPU the code is for' },
  { name: 'stage', required: true, spec: { type: 'enum', values: STAGES }, description: 'hardware stage: cs, ps, vs, gs, hs, es or ls' },
  { name: 'waveSize', required: true, spec: { type: 'enum', values: [32, 64] }, description: 'wave size the shader was launched with' },
  { name: 'floatMode', spec: { type: 'integer', min: 0, max: 255 }, description: `MODE bits 7:0 at launch (FLOAT_MODE: FP_ROUND in 3:0, FP_DENORM in 7:4); default 0x${SIDECAR_DEFAULTS.floatMode.toString(16)}` },
  { name: 'dx10Clamp', spec: { type: 'boolean' }, description: `MODE.DX10_CLAMP at launch; default ${SIDECAR_DEFAULTS.dx10Clamp}` },
  { name: 'ieeeMode', spec: { type: 'boolean' }, description: `MODE.IEEE at launch; default ${SIDECAR_DEFAULTS.ieeeMode}` },
  { name: 'fp16Overflow', spec: { type: 'boolean' }, description: `MODE.FP16_OVFL (bit 23) at launch: an overflowed f16 result is clamped to the largest finite value; default ${SIDECAR_DEFAULTS.fp16Overflow}` },
  { name: 'userSgprCount', spec: { type: 'integer', min: 0, max: MAX_USER_SGPRS }, description: 'user-data SGPRs preloaded from s0; default: the end of the userSgprs layout, else 0' },
  { name: 'userSgprs', spec: { type: 'userSgprs' }, description: 'user-data layout: [{"name", "sgpr", "count"}], inside userSgprCount, not overlapping' },
  { name: 'tgidEnable', spec: { type: 'flags3' }, description: `cs only: COMPUTE_PGM_RSRC2.TGID_X/Y/Z_EN (bits 7..9), the workgroup id SGPRs x, y, z loaded after the user SGPRs; default ${JSON.stringify(SIDECAR_DEFAULTS.tgidEnable)}` },
  { name: 'tgSizeEnable', spec: { type: 'boolean' }, description: `cs only: COMPUTE_PGM_RSRC2.TG_SIZE_EN (bit 10), the TG_SIZE SGPR (waves in the workgroup, the wave's index) after the workgroup ids; default ${SIDECAR_DEFAULTS.tgSizeEnable}` },
  { name: 'scratchEnable', spec: { type: 'boolean' }, description: `cs only: COMPUTE_PGM_RSRC2.SCRATCH_EN (bit 0), the scratch wave offset SGPR after TG_SIZE; default ${SIDECAR_DEFAULTS.scratchEnable}` },
  { name: 'tidigCompCnt', spec: { type: 'integer', min: 0, max: 2 }, description: `cs only: COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT (bits 12:11), the workitem id VGPRs loaded: 0 x in v0, 1 x and y, 2 x, y and z in v0..v2; default ${SIDECAR_DEFAULTS.tidigCompCnt}` },
  { name: 'sgprs', spec: { type: 'integer', min: 1, max: 106 }, description: `SGPRs the shader may name (s0 up to sgprs-1); default ${SIDECAR_DEFAULTS.sgprs}` },
  { name: 'vgprs', spec: { type: 'integer', min: 1, max: 256 }, description: `VGPRs allocated; default ${SIDECAR_DEFAULTS.vgprs}` },
  { name: 'workgroupSize', spec: { type: 'workgroupSize' }, description: 'cs only: [x, y, z], each 1..1024, at most 1024 lanes in all' },
  { name: 'ldsSize', spec: { type: 'integer', min: 0, max: MAX_LDS }, description: `LDS bytes allocated; default ${SIDECAR_DEFAULTS.ldsSize}` },
  { name: 'scratchSize', spec: { type: 'integer', min: 0, max: 0x7fffffff }, description: `scratch bytes per lane; default ${SIDECAR_DEFAULTS.scratchSize}` },
  { name: 'entry', spec: { type: 'integer', min: 0, max: 0x7ffffffc, multipleOf: 4 }, description: 'byte offset of the first instruction in the code file; default 0' },
];

export interface UserSgprSlot { readonly name: string; readonly sgpr: number; readonly count: number }

export interface Sidecar {
  readonly target: Target;
  readonly stage: Stage;
  readonly waveSize: 32 | 64;
  readonly floatMode?: number;
  readonly dx10Clamp?: boolean;
  readonly ieeeMode?: boolean;
  readonly fp16Overflow?: boolean;
  readonly tgidEnable?: readonly [boolean, boolean, boolean];
  readonly tgSizeEnable?: boolean;
  readonly scratchEnable?: boolean;
  readonly tidigCompCnt?: number;
  readonly userSgprCount?: number;
  readonly userSgprs?: readonly UserSgprSlot[];
  readonly sgprs?: number;
  readonly vgprs?: number;
  readonly workgroupSize?: readonly [number, number, number];
  readonly ldsSize?: number;
  readonly scratchSize?: number;
  readonly entry?: number;
}

const shown = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function bad(where: string, field: string, want: string, got: unknown): never {
  throw new CodeObjectError(`${where}: field '${field}' ${want} (got ${shown(got)})`);
}

function checkField(where: string, f: FieldDef, v: unknown): void {
  const s = f.spec;
  switch (s.type) {
    case 'enum':
      if (!s.values.includes(v as string | number)) bad(where, f.name, `must be one of ${s.values.join(', ')}`, v);
      return;
    case 'integer':
      if (!isInt(v, s.min, s.max) || (s.multipleOf !== undefined && v % s.multipleOf !== 0)) {
        bad(where, f.name, `must be an integer from ${s.min} to ${s.max}${s.multipleOf ? `, a multiple of ${s.multipleOf}` : ''}`, v);
      }
      return;
    case 'boolean':
      if (typeof v !== 'boolean') bad(where, f.name, 'must be true or false', v);
      return;
    case 'string':
      if (typeof v !== 'string') bad(where, f.name, 'must be a string', v);
      return;
    case 'workgroupSize':
      if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => isInt(x, 1, 1024))) bad(where, f.name, 'must be three integers from 1 to 1024', v);
      return;
    case 'flags3':
      if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'boolean')) bad(where, f.name, 'must be three booleans [x, y, z]', v);
      return;
    case 'userSgprs': {
      if (!Array.isArray(v) || v.length > MAX_USER_SGPRS) bad(where, f.name, `must be a list of at most ${MAX_USER_SGPRS} slots`, v);
      v.forEach((slot: unknown, i: number) => {
        const at = `${f.name}[${i}]`;
        if (typeof slot !== 'object' || slot === null || Array.isArray(slot)) bad(where, at, 'must be an object {"name", "sgpr", "count"}', slot);
        const o = slot as Record<string, unknown>;
        for (const k of Object.keys(o)) if (k !== 'name' && k !== 'sgpr' && k !== 'count') bad(where, `${at}.${k}`, 'is not a field of a user SGPR slot', o[k]);
        if (typeof o.name !== 'string' || o.name.length === 0 || o.name.length > 64) bad(where, `${at}.name`, 'must be a string of 1 to 64 characters', o.name);
        if (!isInt(o.sgpr, 0, MAX_USER_SGPRS - 1)) bad(where, `${at}.sgpr`, `must be an integer from 0 to ${MAX_USER_SGPRS - 1}`, o.sgpr);
        if (!isInt(o.count, 1, 16)) bad(where, `${at}.count`, 'must be an integer from 1 to 16', o.count);
      });
      return;
    }
  }
}

/** Parses and validates sidecar text; throws CodeObjectError naming the file and the bad field. */
export function parseSidecar(text: string, where: string): Sidecar {
  if (text.length > MAX_SIDECAR_BYTES) throw new CodeObjectError(`${where}: sidecar is too large (${text.length} bytes; the limit is ${MAX_SIDECAR_BYTES})`);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    throw new CodeObjectError(`${where}: not valid JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0] ?? ''}`);
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new CodeObjectError(`${where}: the sidecar must be a JSON object`);
  const o = root as Record<string, unknown>;
  const byName = new Map(SIDECAR_FIELDS.map((f) => [f.name, f]));
  for (const k of Object.keys(o)) if (!byName.has(k)) bad(where, k, `is not a sidecar field (known: ${SIDECAR_FIELDS.map((f) => f.name).join(', ')})`, o[k]);
  for (const f of SIDECAR_FIELDS) {
    if (!(f.name in o)) {
      if (f.required) throw new CodeObjectError(`${where}: field '${f.name}' is missing (${f.description})`);
      continue;
    }
    checkField(where, f, o[f.name]);
  }
  const sc = o as unknown as Sidecar;
  // Rules across fields.
  if (sc.workgroupSize) {
    if (sc.stage !== 'cs') bad(where, 'workgroupSize', 'is for compute shaders (stage cs) only', sc.stage);
    const lanes = sc.workgroupSize[0] * sc.workgroupSize[1] * sc.workgroupSize[2];
    if (lanes > 1024) bad(where, 'workgroupSize', 'must have at most 1024 lanes in all', sc.workgroupSize);
  }
  for (const k of ['tgidEnable', 'tgSizeEnable', 'scratchEnable', 'tidigCompCnt'] as const) {
    if (sc[k] !== undefined && sc.stage !== 'cs') bad(where, k, 'is for compute shaders (stage cs) only', sc.stage);
  }
  const slots = [...(sc.userSgprs ?? [])].sort((a, b) => a.sgpr - b.sgpr);
  const count = sc.userSgprCount ?? Math.max(0, ...slots.map((s) => s.sgpr + s.count));
  if (count > MAX_USER_SGPRS) bad(where, 'userSgprs', `must end by s${MAX_USER_SGPRS - 1}`, sc.userSgprs);
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i] as UserSgprSlot;
    if (s.sgpr + s.count > count) bad(where, 'userSgprs', `slot '${s.name}' (s${s.sgpr}, ${s.count} SGPRs) runs past userSgprCount ${count}`, s);
    const next = slots[i + 1];
    if (next && next.sgpr < s.sgpr + s.count) bad(where, 'userSgprs', `slots '${s.name}' and '${next.name}' overlap`, [s, next]);
  }
  const system = sc.stage === 'cs' ? computeSystemSgprs(sc, count).length : 0;
  if (sc.sgprs !== undefined && count + system > sc.sgprs) bad(where, 'sgprs', `must cover the ${count} user SGPRs${system ? ` and the ${system} system SGPRs after them` : ''}`, sc.sgprs);
  return sc;
}

/**
 * A compute shader's system SGPRs, after its user SGPRs in this order (COMPUTE_PGM_RSRC2; the
 * order of AMDGPUUsage's "Initial Kernel Execution State": workgroup id x, y, z, workgroup info,
 * private segment wave offset): the enabled workgroup ids, TG_SIZE, the scratch wave offset.
 */
function computeSystemSgprs(sc: Sidecar, userSgprCount: number): SgprInput<SystemSgprKind>[] {
  const tgid = sc.tgidEnable ?? SIDECAR_DEFAULTS.tgidEnable;
  const kinds: SystemSgprKind[] = [];
  (['workgroup_id_x', 'workgroup_id_y', 'workgroup_id_z'] as const).forEach((k, d) => { if (tgid[d]) kinds.push(k); });
  if (sc.tgSizeEnable ?? SIDECAR_DEFAULTS.tgSizeEnable) kinds.push('workgroup_info');
  if (sc.scratchEnable ?? SIDECAR_DEFAULTS.scratchEnable) kinds.push('private_segment_wave_offset');
  return kinds.map((kind, k) => ({ kind, first: userSgprCount + k, count: 1 }));
}

/** ShaderInfo for a raw shader of `codeBytes` bytes described by a sidecar. */
export function sidecarShaderInfo(sc: Sidecar, name: string, codeBytes: number, where: string): ShaderInfo {
  const entry = sc.entry ?? 0;
  const end = codeBytes & ~3;
  if (entry >= end) throw new CodeObjectError(`${where}: field 'entry' is ${entry}, but the code has ${end} bytes of whole dwords`);
  const assumed: AssumableField[] = [];
  const pick = <K extends AssumableField & keyof typeof SIDECAR_DEFAULTS>(k: K): (typeof SIDECAR_DEFAULTS)[K] | NonNullable<Sidecar[K]> => {
    const v = sc[k];
    if (v !== undefined) return v;
    assumed.push(k);
    return SIDECAR_DEFAULTS[k];
  };
  const floatMode = pick('floatMode');
  const dx10Clamp = pick('dx10Clamp');
  const ieeeMode = pick('ieeeMode');
  const fp16Overflow = pick('fp16Overflow');
  const slots = [...(sc.userSgprs ?? [])].sort((a, b) => a.sgpr - b.sgpr);
  let userSgprCount = sc.userSgprCount;
  if (userSgprCount === undefined) {
    assumed.push('userSgprCount');
    userSgprCount = Math.max(0, ...slots.map((s) => s.sgpr + s.count));
  }
  const cs = sc.stage === 'cs';
  if (cs) for (const k of ['tgidEnable', 'tgSizeEnable', 'scratchEnable', 'tidigCompCnt'] as const) if (sc[k] === undefined) assumed.push(k);
  const tidig = sc.tidigCompCnt ?? SIDECAR_DEFAULTS.tidigCompCnt;
  const sgprs = pick('sgprs');
  const vgprs = pick('vgprs');
  const ldsSize = pick('ldsSize');
  const scratchSize = pick('scratchSize');
  const userSgprs: SgprInput<string>[] = slots.map((s) => ({ kind: s.name, first: s.sgpr, count: s.count }));
  return {
    target: sc.target,
    stage: sc.stage,
    name,
    source: 'sidecar',
    assumed,
    entry,
    codeSection: '(raw)',
    codeRange: { start: entry, end },
    waveSize: sc.waveSize,
    floatMode: floatMode as number,
    dx10Clamp: dx10Clamp as boolean,
    ieeeMode: ieeeMode as boolean,
    fp16Overflow: fp16Overflow as boolean,
    userSgprs,
    userSgprCount,
    systemSgprs: cs ? computeSystemSgprs(sc, userSgprCount) : [],
    workitemIdVgprs: cs ? (['x', 'y', 'z'] as const).slice(0, tidig + 1) : [],
    vgprCount: vgprs as number,
    sgprCount: 128,
    addressableSgprs: sgprs as number,
    ldsSize: ldsSize as number,
    scratchSize: scratchSize as number,
    kernargSize: 0,
    ...(sc.workgroupSize ? { workgroupSize: sc.workgroupSize } : {}),
  };
}

/** The sidecar's JSON Schema (draft 2020-12), derived from SIDECAR_FIELDS. */
export function sidecarJsonSchema(): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const f of SIDECAR_FIELDS) {
    const s = f.spec;
    let p: Record<string, unknown>;
    switch (s.type) {
      case 'enum': p = { enum: [...s.values] }; break;
      case 'integer': p = { type: 'integer', minimum: s.min, maximum: s.max, ...(s.multipleOf ? { multipleOf: s.multipleOf } : {}) }; break;
      case 'boolean': p = { type: 'boolean' }; break;
      case 'string': p = { type: 'string' }; break;
      case 'workgroupSize': p = { type: 'array', items: { type: 'integer', minimum: 1, maximum: 1024 }, minItems: 3, maxItems: 3 }; break;
      case 'flags3': p = { type: 'array', items: { type: 'boolean' }, minItems: 3, maxItems: 3 }; break;
      case 'userSgprs':
        p = {
          type: 'array', maxItems: MAX_USER_SGPRS,
          items: {
            type: 'object', additionalProperties: false, required: ['name', 'sgpr', 'count'],
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 64 },
              sgpr: { type: 'integer', minimum: 0, maximum: MAX_USER_SGPRS - 1 },
              count: { type: 'integer', minimum: 1, maximum: 16 },
            },
          },
        };
        break;
    }
    props[f.name] = { description: f.description, ...p };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'rdna-recompiler raw shader sidecar',
    description: 'What a raw RDNA2 shader declares about itself. Cross-field rules (not expressible here): userSgprs slots lie inside userSgprCount and do not overlap; workgroupSize, tgidEnable, tgSizeEnable, scratchEnable and tidigCompCnt only for stage cs, workgroupSize at most 1024 lanes; sgprs covers userSgprCount and the compute shader system SGPRs after the user SGPRs.',
    type: 'object',
    additionalProperties: false,
    required: SIDECAR_FIELDS.filter((f) => f.required).map((f) => f.name),
    properties: props,
  };
}
