import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { buildReport } from './build-report.js';
import { EvalReportSchema, parseReport } from './report-schema.js';
import { sampleRecords } from './testing/records.js';

const report = buildReport({
  records: sampleRecords(),
  trials: 3,
  floors: [],
  reference: { generatedAt: '2025-12-31T00:00:00.000Z', tasks: [] },
  generatedAt: '2026-01-09T10:00:00.000Z',
});

describe('EvalReportSchema', () => {
  it('round-trips a built report through JSON text', () => {
    const text = JSON.stringify(report, null, 2);
    expect(parseReport(text, 'reports/latest.json')).toEqual(report);
    expect(EvalReportSchema.parse(JSON.parse(text))).toEqual(report);
  });

  it('keeps null for k above the counted trials in JSON', () => {
    const parsed = parseReport(JSON.stringify(report), 'reports/latest.json');
    const t6 = parsed.tasks.find((task) => task.task === 'T6');
    expect(t6?.passHatK).toEqual({ '1': null, '2': null, '3': null });
  });

  it('rejects a corrupt reference with a ConfigError naming the file and the field', () => {
    const corrupt = JSON.parse(JSON.stringify(report));
    corrupt.tasks[1].passAt1 = 'high';
    expect(() => parseReport(corrupt, 'reports/reference.json')).toThrow(ConfigError);
    expect(() => parseReport(corrupt, 'reports/reference.json')).toThrow(
      /^reports\/reference\.json: tasks\.1\.passAt1: /,
    );
  });

  it('rejects another schema version, unknown fields and a non-numeric k', () => {
    const source = 'reports/reference.json';
    expect(() => parseReport({ ...report, schemaVersion: 1 }, source)).toThrow(
      /schemaVersion 1 is not 3 .*npm run eval -- --update-reference/,
    );
    expect(() => parseReport({ ...report, extra: true }, source)).toThrow(/extra/);
    const badKey = JSON.parse(JSON.stringify(report));
    badKey.tasks[0].passHatK = { max: 1 };
    expect(() => parseReport(badKey, source)).toThrow(/tasks\.0\.passHatK/);
  });

  it('rejects text that is not JSON, naming the file', () => {
    expect(() => parseReport('{"schemaVersion": 1,', 'reports/reference.json')).toThrow(
      /^reports\/reference\.json: not valid JSON/,
    );
  });
});
