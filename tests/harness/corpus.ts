// Builds a reproducible corpus from generators: all systematic cases plus seeded random ones.
import type { Target } from '../../src/isa/types.js';
import type { CaseGenerator } from '../gen/types.js';
import { Rng } from './rng.js';

export function buildCorpus(gens: readonly CaseGenerator[], target: Target, randomPerGen: number, seed: number): number[][] {
  const cases: number[][] = [];
  gens.forEach((g, gi) => {
    for (const c of g.systematic(target)) cases.push(c);
    const rng = new Rng((seed * 1000003 + gi * 7919) >>> 0);
    for (let i = 0; i < randomPerGen; i++) cases.push(g.random(rng, target));
  });
  return cases;
}
