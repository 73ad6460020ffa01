// Seeded PRNG for reproducible corpora (sfc32).
export class Rng {
  private a: number; private b: number; private c: number; private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9; this.b = 0x243f6a88; this.c = 0xb7e15162; this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.u32();
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** Integer in [0, n). */
  int(n: number): number { return Math.floor((this.u32() / 4294967296) * n); }
  bool(p = 0.5): boolean { return this.u32() / 4294967296 < p; }
  pick<T>(xs: readonly T[]): T {
    const x = xs[this.int(xs.length)];
    if (x === undefined) throw new Error('pick from empty list');
    return x;
  }
  /** Random value of `width` bits. */
  bits(width: number): number { return width >= 32 ? this.u32() : this.u32() & ((1 << width) - 1); }
}
