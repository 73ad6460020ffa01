// mpmath (Debian's python3-mpmath) as the oracle of the transcendental model: the true function
// at 160 bits, rounded to f16/f32 by Python integer arithmetic written here (not src/float), in
// every rounding direction, with denormals and overflow. One python process per batch.
import { spawnSync } from 'node:child_process';

const PYTHON = String.raw`
import sys, struct
from fractions import Fraction
from mpmath import mp, mpf
mp.prec = 160
FMT = {'f16': (10, 15, 5), 'f32': (23, 127, 8)}
NEAR = mpf(2) ** -45

def decode(fmt, bits):
    m, bias, eb = FMT[fmt]
    sign = bits >> (m + eb)
    e = (bits >> m) & ((1 << eb) - 1)
    f = bits & ((1 << m) - 1)
    v = Fraction(f, 1 << m) * Fraction(2) ** (1 - bias) if e == 0 else Fraction(f + (1 << m), 1 << m) * Fraction(2) ** (e - bias)
    return -v if sign else v

def is_pow2(q):
    return q > 0 and q.numerator & (q.numerator - 1) == 0 and q.denominator & (q.denominator - 1) == 0

def true_value(fn, q):
    # ('exact', Fraction) or ('approx', mpf); exact where the value is rational.
    if fn == 'exp':
        if q.denominator == 1:
            # Beyond ±300 the value rounds as 2^±300 does in both formats (overflow; below half the smallest denormal).
            return ('exact', Fraction(2) ** max(-300, min(300, int(q))))
        return ('approx', mp.power(2, mpf(q.numerator) / q.denominator))
    if fn == 'log':
        if is_pow2(q):
            return ('exact', Fraction(q.numerator.bit_length() - q.denominator.bit_length()))
        return ('approx', mp.log(mpf(q.numerator) / q.denominator) / mp.log(2))
    x = mpf(q.numerator) / q.denominator
    if (4 * q).denominator == 1:
        k = int(4 * q) % 4
        s = [0, 1, 0, -1][k] if fn == 'sin' else [1, 0, -1, 0][k]
        return ('exact', Fraction(s))
    return ('approx', mp.sinpi(2 * x) if fn == 'sin' else mp.cospi(2 * x))

def round_fmt(fmt, kind, v, mode):
    # (bits, near): v exact Fraction or mpf; mode 0 nearest even, 1 +inf, 2 -inf, 3 zero.
    m, bias, eb = FMT[fmt]
    emax = (1 << eb) - 1
    sign = 1 if v < 0 else 0
    a = -v if sign else v
    sb = sign << (m + eb)
    if a == 0:
        return (sb, False)
    if kind == 'exact':
        E = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** E > a: E -= 1
    else:
        E = mp.frexp(a)[1] - 1
    q = max(E, 1 - bias) - m
    s = a * (Fraction(2) ** -q if kind == 'exact' else mpf(2) ** -q)
    n = int(s) if kind == 'exact' else int(mp.floor(s))
    frac = s - n
    near = False
    if kind == 'approx':
        d = abs(frac - mpf(1) / 2) if mode == 0 else min(frac, 1 - frac)
        near = d * mpf(2) ** q / a < NEAR
    half = Fraction(1, 2) if kind == 'exact' else mpf(1) / 2
    if mode == 0:
        up = frac > half or (frac == half and n % 2 == 1)
    elif mode == 1:
        up = frac != 0 and not sign
    elif mode == 2:
        up = frac != 0 and sign
    else:
        up = False
    if up: n += 1
    if n == 1 << (m + 1):
        n >>= 1; q += 1
    if n < (1 << m):
        return (sb | n, near)
    biased = q + m + bias
    if biased >= emax:
        to_inf = mode == 0 or (mode == 1 and not sign) or (mode == 2 and sign)
        return (sb | ((emax << m) if to_inf else ((emax << m) - 1)), near)
    return (sb | (biased << m) | (n - (1 << m)), near)

def f64bits(v):
    # The f64 nearest (ties to even) to v, as bits (normal values).
    if v == 0: return 0
    sign = 1 if v < 0 else 0
    a = -v if sign else v
    mm, e = mp.frexp(a)  # a = mm 2^e, mm in [1/2, 1)
    s = mp.ldexp(mm, 53)
    n = int(mp.floor(s)); frac = s - n
    if frac > 0.5 or (frac == 0.5 and n % 2 == 1): n += 1
    if n == 1 << 53: n >>= 1; e += 1
    return (sign << 63) | ((e - 1 + 1023) << 52) | (n - (1 << 52))

out = []
for line in sys.stdin:
    p = line.split()
    if not p: continue
    if p[0] == 'const':
        # const <name> <index>: the exact constant, as f64 bits.
        name, i = p[1], int(p[2])
        mp.prec = 400
        ln2, pi = mp.log(2), mp.pi
        if name == 'EXP2_POLY': v = ln2 ** i / mp.factorial(i)
        elif name == 'LOG2_POLY': v = (1 if i % 2 == 0 else -1) / ((i + 1) * ln2)
        elif name == 'SINQ_POLY': v = (-1) ** i * (pi / 2) ** (2 * i + 1) / mp.factorial(2 * i + 1)
        elif name == 'COSQ_POLY': v = (-1) ** i * (pi / 2) ** (2 * i) / mp.factorial(2 * i)
        else:
            # The log2 table: r_j = round(2^12 / (1 + j/32)) / 2^12, ties to even; -log2(r_j) split into hi (given) + lo.
            num, den = 1 << 17, 32 + i
            rq, rem = divmod(num, den)
            if 2 * rem > den or (2 * rem == den and rq % 2 == 1): rq += 1
            r = mpf(rq) / 4096
            if name == 'LOG2_R': v = r
            elif name == 'LOG2_L': v = -mp.log(r) / ln2
            else:
                # LOG2_LO j <hi bits>: -log2(r_j) - hi.
                hi = mpf(struct.unpack('>d', bytes.fromhex(p[3].rjust(16, '0')))[0])
                v = -mp.log(r) / ln2 - hi
        out.append('%x' % f64bits(v))
        mp.prec = 160
        continue
    fn, fmt, bits = p[0], p[1], int(p[2], 16)
    q = decode(fmt, bits)
    if fn == 'log' and q <= 0:
        out.append('skip'); continue
    kind, v = true_value(fn, q)
    if kind == 'exact' and v == 0:
        out.append('Z'); continue
    res = [round_fmt(fmt, kind, v, mode) for mode in range(4)]
    out.append(' '.join('%x' % b for b, _ in res) + ' ' + str(sum((1 << i) for i, (_, nr) in enumerate(res) if nr)))
sys.stdout.write('\n'.join(out) + '\n')
`;

/** Runs the oracle on request lines; one answer line per request. */
export function oracle(requests: readonly string[]): string[] {
  const r = spawnSync('/usr/bin/python3', ['-c', PYTHON], { input: requests.join('\n') + '\n', maxBuffer: 1 << 28, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mpmath oracle failed (is python3-mpmath installed?): ${r.stderr}`);
  const lines = r.stdout.trimEnd().split('\n');
  if (lines.length !== requests.length) throw new Error(`mpmath oracle: ${lines.length} answers for ${requests.length} requests`);
  return lines;
}

export interface Expected { readonly bits: readonly number[]; readonly nearMask: number }
/** An answer line: 'Z' (an exact zero), 'skip', or the four modes' bits and the near-boundary mask. */
export function parse(line: string): Expected | 'Z' | 'skip' {
  if (line === 'Z' || line === 'skip') return line;
  const p = line.split(' ');
  return { bits: p.slice(0, 4).map((h) => parseInt(h, 16)), nearMask: Number(p[4]) };
}
