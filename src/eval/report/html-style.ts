/** The HTML report's stylesheet, inlined: the file opens from file:// with no network. */
export const HTML_STYLE = `
:root { --fg: #1d2126; --muted: #5f6b76; --line: #d9dee3; --bg: #fff; --soft: #f4f6f8;
  --pass: #1a7f37; --fail: #cf222e; --stale: #9a6700; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main { padding: 12px 20px; }
header { border-bottom: 1px solid var(--line); background: var(--soft); }
h1 { font-size: 20px; margin: 0 0 6px; }
h2 { font-size: 16px; margin: 20px 0 8px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
.muted { color: var(--muted); }
.gate-pass { color: var(--pass); font-weight: 600; }
.gate-fail { color: var(--fail); font-weight: 600; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th.group { text-align: center; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; padding: 8px 0; position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line); z-index: 1; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
select, button { font: inherit; padding: 3px 6px; }
button { cursor: pointer; border: 1px solid var(--line); background: var(--soft); border-radius: 4px; }
button:hover { border-color: var(--accent); }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.o-passed { color: var(--pass); } .o-failed, .o-errored { color: var(--fail); } .o-stale, .o-missing { color: var(--stale); }
.d-allow, .d-ask_approved { color: var(--pass); }
.d-deny, .d-hook_deny, .d-ask_denied, .d-invalid, .d-unknown, .d-timeout, .d-failed, .d-cancelled { color: var(--fail); }
pre { white-space: pre-wrap; word-break: break-word; background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; margin: 4px 0; max-height: 420px; overflow: auto; font-size: 12.5px; }
pre.error { border-color: var(--fail); }
.message { border-left: 4px solid var(--fail); padding-left: 8px; }
.stale-box { border-left: 4px solid var(--stale); padding-left: 8px; }
.turn { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
.turn-head { font-size: 12px; color: var(--muted); }
.tool { border-left: 3px solid var(--accent); padding-left: 8px; margin: 6px 0; }
.answer { border: 2px solid var(--accent); border-radius: 6px; padding: 6px 10px; white-space: pre-wrap; }
.user { background: #eef5ff; border-radius: 6px; padding: 6px 10px; white-space: pre-wrap; }
.text { white-space: pre-wrap; margin: 4px 0; }
.trials td { cursor: default; }
.side { display: grid; grid-template-columns: repeat(auto-fit, minmax(380px, 1fr)); gap: 12px; }
.panel { border-top: 2px solid var(--line); margin-top: 16px; }
.bar { display: inline-block; height: 10px; background: var(--accent); vertical-align: middle; }
`;
