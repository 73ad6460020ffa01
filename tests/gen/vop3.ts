import type { CaseGenerator } from './types.js';

export const GENERATORS: readonly CaseGenerator[] = [];
