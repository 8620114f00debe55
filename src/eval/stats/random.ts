import { mulberry32 } from '../../core/mulberry32.js';

/** The seeded PRNG of the bootstrap: the same seed gives the same intervals on every machine. */
export const seededRandom = mulberry32;

/** The seed the reports use. */
export const BOOTSTRAP_SEED = 20261202;
export const BOOTSTRAP_RESAMPLES = 2000;
