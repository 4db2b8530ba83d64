/** The p-th percentile of the samples (nearest rank, from below); 50 gives the median. */
export const percentile = (xs: readonly number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
