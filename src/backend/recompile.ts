// The recompiler's library entry point: decode, CFG, MODE analysis, translation to IR, passes,
// SPIR-V emission, in that order. Core (no Node APIs).
import type { Shader } from '../container/shader.js';
import { buildCfg } from '../analysis/cfg.js';
import { analyzeMode, type ModeAnalysis } from '../analysis/mode.js';
import type { Diagnostic } from '../analysis/types.js';
import { translate } from '../frontend/index.js';
import type { IrFunction } from '../ir/ir.js';
import { LAVAPIPE_PROFILE, type TargetProfile } from './profile.js';
import { emitSpirv, type EmitResult } from './spirv/emit.js';

export interface RecompileOptions {
  readonly profile?: TargetProfile;
}

export interface RecompileResult {
  readonly spirv: Uint32Array;
  readonly ir: IrFunction;
  readonly diagnostics: readonly Diagnostic[];
  readonly mode: ModeAnalysis;
  readonly floatOps: EmitResult['floatOps'];
}

/** Throws TranslateError / CompileError (with the pc) for what the slice does not cover. */
export function recompile(shader: Shader, options: RecompileOptions = {}): RecompileResult {
  const cfg = buildCfg(shader);
  const mode = analyzeMode(shader, cfg);
  const ir = translate(shader, cfg, mode);
  const { spirv, floatOps } = emitSpirv(ir, options.profile ?? LAVAPIPE_PROFILE);
  return { spirv, ir, diagnostics: [...cfg.diagnostics, ...mode.diagnostics], mode, floatOps };
}
