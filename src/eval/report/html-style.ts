/** The HTML report's stylesheet, inlined (allowed by its hash): the file opens from file:// with no network. */
export const HTML_STYLE = `
:root { --fg: #1d2126; --muted: #5f6b76; --line: #d9dee3; --bg: #fff; --soft: #f4f6f8;
  --pass: #1a7f37; --fail: #cf222e; --stale: #9a6700; --accent: #0969da; --select: #ddf4ff; }
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; display: flex; flex-direction: column; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 8px 20px; border-bottom: 1px solid var(--line); background: var(--soft); max-height: calc(100vh / 6); overflow: auto; flex: none; }
header ul { margin: 2px 0; }
nav { display: flex; gap: 4px; align-items: end; padding: 6px 20px 0; border-bottom: 1px solid var(--line); flex: none; }
nav a { padding: 4px 12px; border: 1px solid var(--line); border-bottom: none; border-radius: 6px 6px 0 0; color: var(--fg); text-decoration: none; background: var(--soft); }
nav a.current { background: var(--bg); font-weight: 600; margin-bottom: -1px; border-bottom: 1px solid var(--bg); }
nav .keys { margin-left: auto; font-size: 12px; padding-bottom: 4px; }
main { flex: 1; min-height: 0; overflow: auto; }
#graders { flex: none; max-height: calc(100vh / 6); overflow: auto; border-top: 1px solid var(--line); background: var(--soft); }
#graders:empty { display: none; }
#graders > details { padding: 4px 20px; }
#graders summary { cursor: pointer; font-weight: 600; }
main > div { padding: 4px 20px 20px; }
main > div.view-trials { padding: 0; height: 100%; }
[hidden] { display: none !important; }
h1 { font-size: 18px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 18px 0 8px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
.muted { color: var(--muted); }
.small { font-size: 12px; }
.gate-pass { color: var(--pass); font-weight: 600; }
.gate-fail { color: var(--fail); font-weight: 600; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.scores tr.task-first > * { border-top: 2px solid #b8c0c8; }
select, button, input { font: inherit; padding: 3px 6px; }
button { cursor: pointer; border: 1px solid var(--line); background: var(--soft); border-radius: 4px; }
button:hover { border-color: var(--accent); }
td button { font-size: 12px; padding: 0 6px; }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.o-passed { color: var(--pass); } .o-failed, .o-errored, .o-judge_error { color: var(--fail); } .o-stale, .o-missing { color: var(--stale); }
.d-allow, .d-ask_approved { color: var(--pass); }
.d-deny, .d-hook_deny, .d-ask_denied, .d-invalid, .d-unknown, .d-timeout, .d-failed, .d-cancelled { color: var(--fail); }
.mark { display: inline-block; margin: 0 4px 2px 0; padding: 0 6px; border-radius: 4px; font-size: 12px; border: 1px solid var(--stale); color: var(--stale); }
.mark-mixed-models, .mark-mixed-sources { border-color: var(--accent); color: var(--accent); }
.variant { font-weight: 600; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; margin: 4px 0; max-height: 420px; overflow: auto; font-size: 12.5px; }
pre.error { border-color: var(--fail); }
.message { border-left: 4px solid var(--fail); padding-left: 8px; }
.stale-box { border-left: 4px solid var(--stale); padding-left: 8px; }
.notice { border: 1px solid var(--stale); background: #fff8c5; border-radius: 6px; padding: 8px 10px; }
.turn { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
.turn-head { font-size: 12px; color: var(--muted); }
.tool { border-left: 3px solid var(--accent); padding-left: 8px; margin: 6px 0; }
.answer { border: 2px solid var(--accent); border-radius: 6px; padding: 6px 10px; white-space: pre-wrap; }
.user { background: #eef5ff; border-radius: 6px; padding: 6px 10px; white-space: pre-wrap; }
.text { white-space: pre-wrap; margin: 4px 0; }
.bar { display: inline-block; height: 10px; background: var(--accent); vertical-align: middle; }
.label-grid { display: grid; grid-template-columns: minmax(280px, 380px) 1fr; gap: 16px; }
.label-list { font-size: 12px; max-height: 60vh; overflow: auto; margin: 0; padding-left: 28px; }
.label-list li.current { background: var(--select); font-weight: 600; }
.md { display: grid; grid-template-columns: minmax(300px, 400px) 1fr; height: 100%; }
.master { display: flex; flex-direction: column; border-right: 1px solid var(--line); min-height: 0; }
.master input { margin: 8px 8px 2px; }
.master .count { padding: 0 10px 4px; font-size: 12px; }
.list { flex: 1; overflow: auto; position: relative; outline: none; border-top: 1px solid var(--line); }
.list:focus { box-shadow: inset 0 0 0 2px var(--accent); }
.list-inner { position: relative; }
.row { position: absolute; left: 0; right: 0; height: 26px; line-height: 26px; padding: 0 10px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.row.group { background: var(--soft); font-size: 12.5px; border-bottom: 1px solid var(--line); }
.row.trial { cursor: pointer; }
.row.trial:hover { background: #f0f3f6; }
.row.selected, .row.selected:hover { background: var(--select); box-shadow: inset 3px 0 0 var(--accent); }
.row.pinned { background: #fff8c5; box-shadow: inset 3px 0 0 var(--stale); }
.row .badge { line-height: 17px; }
.row .n { display: inline-block; min-width: 44px; font-variant-numeric: tabular-nums; }
.row .msg { color: var(--muted); margin-left: 6px; font-size: 12.5px; }
.detail { overflow: auto; padding: 0 16px 16px; min-width: 0; }
.detail.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; align-items: start; }
.pane { min-width: 0; }
.compare .differs { outline: 2px solid #d4a72c; outline-offset: 1px; background-color: #fff8c5; }
.pane-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; position: sticky; top: 0; background: var(--bg); padding: 6px 0; border-bottom: 1px solid var(--line); z-index: 1; }
.pane-head h2 { margin: 0; font-size: 15px; }
.trace table { font-size: 12.5px; }
.plot { display: block; max-width: 100%; height: auto; font-size: 11px; }
.plot-grid { display: flex; flex-wrap: wrap; gap: 12px; }
.plot .grid { stroke: #e6e9ec; } .plot .zero { stroke: #8c959f; stroke-dasharray: 3 3; }
.plot .tick { fill: var(--muted); } .plot .axis { fill: var(--fg); text-anchor: middle; }
.plot .plot-title { fill: var(--fg); font-weight: 600; font-size: 12px; }
.plot .row-label { fill: var(--fg); } .plot .strong { font-weight: 700; }
.plot .whisker { stroke: currentColor; stroke-width: 2; } .plot .median { stroke: var(--fg); stroke-width: 2; }
.plot .point { fill: currentColor; }
.forest-row.up { color: var(--pass); } .forest-row.down { color: var(--fail); } .forest-row.flat { color: #8c959f; }
.plot .curve { fill: none; stroke-width: 2; } .plot .curve.dashed { stroke-dasharray: 5 3; }
.plot .band { stroke: none; opacity: 0.08; } .plot .box { opacity: 0.25; } .plot .dot { opacity: 0.7; }
.legend { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 6px; }
.legend .key::before { content: ""; display: inline-block; width: 18px; height: 3px; margin-right: 4px; vertical-align: middle; background: currentColor; }
label.inline { display: inline-flex; gap: 6px; align-items: center; }
.v0 { color: #0969da; stroke: #0969da; fill: #0969da; } .v1 { color: #bf3989; stroke: #bf3989; fill: #bf3989; }
.v2 { color: #1a7f37; stroke: #1a7f37; fill: #1a7f37; } .v3 { color: #9a6700; stroke: #9a6700; fill: #9a6700; }
.v4 { color: #8250df; stroke: #8250df; fill: #8250df; } .v5 { color: #57606a; stroke: #57606a; fill: #57606a; }
span.v0, span.v1, span.v2, span.v3, span.v4, span.v5 { fill: none; stroke: none; }
.plot .curve.v0, .plot .curve.v1, .plot .curve.v2, .plot .curve.v3, .plot .curve.v4, .plot .curve.v5 { fill: none; }
`;
