// The state of one wave: scalar registers (indexed by their 8-bit operand code, so s0..s105,
// vcc, ttmp, m0, null and exec live in one array), SCC, per-lane VGPRs, MODE and the pc.
// Lane masks (EXEC, VCC, compare results) are wave-size wide: wave32 uses the low dword only.

export const VCC_LO = 106;
export const M0 = 124;
export const NULL_REG = 125;
export const EXEC_LO = 126;

export class WaveState {
  /** Scalar register file by operand code 0..127. */
  readonly sgpr = new Uint32Array(128);
  scc = 0;
  /** VGPRs: register r of lane l at r * 64 + l (64 lanes reserved whatever the wave size). */
  readonly vgpr: Uint32Array;
  mode = 0;
  pc = 0;
  ended = false;
  /** Waiting at s_barrier. */
  atBarrier = false;
  /** Instructions executed (for the step budget and stats). */
  steps = 0;
  /** Lane-instructions executed by VALU (active lanes summed). */
  laneOps = 0;

  constructor(readonly waveSize: 32 | 64, readonly vgprCount: number) {
    this.vgpr = new Uint32Array(Math.max(1, vgprCount) * 64);
  }

  /** The EXEC lane mask as a bigint (wave32: 32 bits). */
  exec(): bigint {
    return this.mask(EXEC_LO);
  }

  /** A wave-size lane mask read from scalar code `code` (and code + 1 in wave64). */
  mask(code: number): bigint {
    const lo = BigInt(this.sgpr[code] ?? 0);
    return this.waveSize === 32 ? lo : lo | (BigInt(this.sgpr[code + 1] ?? 0) << 32n);
  }

  setMask(code: number, m: bigint): void {
    if (code === NULL_REG) return;
    this.sgpr[code] = Number(m & 0xffffffffn);
    if (this.waveSize === 64) this.sgpr[code + 1] = Number((m >> 32n) & 0xffffffffn);
  }

  /** Whether lane `l` is active (EXEC bit set). */
  active(l: number): boolean {
    return l < 32 ? ((this.sgpr[EXEC_LO] ?? 0) >>> l & 1) === 1 : ((this.sgpr[EXEC_LO + 1] ?? 0) >>> (l - 32) & 1) === 1;
  }

  execZero(): boolean {
    return (this.sgpr[EXEC_LO] ?? 0) === 0 && (this.waveSize === 32 || (this.sgpr[EXEC_LO + 1] ?? 0) === 0);
  }

  vccZero(): boolean {
    return (this.sgpr[VCC_LO] ?? 0) === 0 && (this.waveSize === 32 || (this.sgpr[VCC_LO + 1] ?? 0) === 0);
  }
}
