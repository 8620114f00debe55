import { VIEWER_APP } from './html-script-app.js';
import { VIEWER_CORE } from './html-script-core.js';
import { VIEWER_LIST } from './html-script-list.js';
import { VIEWER_PLOTS } from './html-script-plots.js';
import { VIEWER_SCORES } from './html-script-scores.js';
import { VIEWER_TRANSCRIPT } from './html-script-transcript.js';

/**
 * The HTML report's viewer: one inline script of plain browser JavaScript (no framework, no
 * network), built from small modules in one scope, the app last. It parses the scores and the
 * trial index at once and a trial's details only when the trial is opened. Every recorded text
 * goes in through textContent or an attribute value, never as HTML.
 */
export const HTML_SCRIPT = [
  "(function () {\n'use strict';",
  VIEWER_CORE,
  VIEWER_SCORES,
  VIEWER_PLOTS,
  VIEWER_LIST,
  VIEWER_TRANSCRIPT,
  VIEWER_APP,
  '})();',
].join('\n');
