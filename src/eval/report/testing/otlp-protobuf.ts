import type {
  IAnyValue,
  IKeyValue,
} from '@opentelemetry/otlp-transformer/build/src/common/internal-types.js';
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';
import type {
  IEvent,
  IExportTraceServiceRequest,
  IResourceSpans,
  IScopeSpans,
  ISpan,
} from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';

/**
 * Test support: an OTLP protobuf `ExportTraceServiceRequest` read into the otlp-transformer's
 * request types (ids as hex, times as decimal strings, as the JSON encoding has them), with the
 * otlp-transformer's own protobuf reader and the field numbers of opentelemetry-proto's
 * trace.proto, common.proto and trace_service.proto. Fields this export never sets are skipped.
 */
type Fields = (field: number, reader: ProtobufReader, bytes: Uint8Array) => boolean;

function readMessage(bytes: Uint8Array, fields: Fields): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (!fields(fieldNumber, reader, bytes)) reader.skip(wireType);
  }
}

function fixed64(reader: ProtobufReader, bytes: Uint8Array): DataView {
  const view = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8);
  reader.pos += 8;
  return view;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function anyValue(bytes: Uint8Array): IAnyValue {
  const value: IAnyValue = {};
  readMessage(bytes, (field, reader, all) => {
    if (field === 1) value.stringValue = reader.readString();
    else if (field === 2) value.boolValue = reader.readVarint() !== 0;
    else if (field === 3) value.intValue = reader.readVarint();
    else if (field === 4) value.doubleValue = fixed64(reader, all).getFloat64(0, true);
    else if (field === 5) {
      const values: IAnyValue[] = [];
      readMessage(reader.readBytes(), (item, inner) => {
        if (item !== 1) return false;
        values.push(anyValue(inner.readBytes()));
        return true;
      });
      value.arrayValue = { values };
    } else return false;
    return true;
  });
  return value;
}

function keyValue(bytes: Uint8Array): IKeyValue {
  const entry: IKeyValue = { key: '', value: {} };
  readMessage(bytes, (field, reader) => {
    if (field === 1) entry.key = reader.readString();
    else if (field === 2) entry.value = anyValue(reader.readBytes());
    else return false;
    return true;
  });
  return entry;
}

function event(bytes: Uint8Array): IEvent {
  const decoded: IEvent = {
    timeUnixNano: '0',
    name: '',
    attributes: [],
    droppedAttributesCount: 0,
  };
  readMessage(bytes, (field, reader, all) => {
    if (field === 1) decoded.timeUnixNano = fixed64(reader, all).getBigUint64(0, true).toString();
    else if (field === 2) decoded.name = reader.readString();
    else if (field === 3) decoded.attributes.push(keyValue(reader.readBytes()));
    else return false;
    return true;
  });
  return decoded;
}

function span(bytes: Uint8Array): ISpan {
  const decoded: ISpan = {
    ...{ traceId: '', spanId: '', name: '', kind: 0, startTimeUnixNano: '0', endTimeUnixNano: '0' },
    ...{ attributes: [], droppedAttributesCount: 0, events: [], droppedEventsCount: 0 },
    ...{ links: [], droppedLinksCount: 0, status: { code: 0 } },
  };
  readMessage(bytes, (field, reader, all) => {
    if (field === 1) decoded.traceId = hex(reader.readBytes());
    else if (field === 2) decoded.spanId = hex(reader.readBytes());
    else if (field === 4) decoded.parentSpanId = hex(reader.readBytes());
    else if (field === 5) decoded.name = reader.readString();
    else if (field === 6) decoded.kind = reader.readVarint();
    else if (field === 7 || field === 8) {
      const nanos = fixed64(reader, all).getBigUint64(0, true).toString();
      if (field === 7) decoded.startTimeUnixNano = nanos;
      else decoded.endTimeUnixNano = nanos;
    } else if (field === 9) decoded.attributes.push(keyValue(reader.readBytes()));
    else if (field === 11) decoded.events.push(event(reader.readBytes()));
    else if (field === 15) {
      readMessage(reader.readBytes(), (item, inner) => {
        if (item === 2) decoded.status.message = inner.readString();
        else if (item === 3) decoded.status.code = inner.readVarint();
        else return false;
        return true;
      });
    } else return false;
    return true;
  });
  return decoded;
}

function scopeSpans(bytes: Uint8Array): IScopeSpans {
  const decoded: IScopeSpans = { spans: [] };
  readMessage(bytes, (field, reader) => {
    if (field === 1) {
      const scope = { name: '' };
      readMessage(reader.readBytes(), (item, inner) => {
        if (item !== 1) return false;
        scope.name = inner.readString();
        return true;
      });
      decoded.scope = scope;
    } else if (field === 2) decoded.spans?.push(span(reader.readBytes()));
    else return false;
    return true;
  });
  return decoded;
}

/** An ExportTraceServiceRequest's protobuf bytes as the request types hold it. */
export function decodeProtobufRequest(bytes: Uint8Array): IExportTraceServiceRequest {
  const resourceSpans: IResourceSpans[] = [];
  readMessage(bytes, (field, reader) => {
    if (field !== 1) return false;
    const decoded: IResourceSpans = { scopeSpans: [] };
    readMessage(reader.readBytes(), (item, inner) => {
      if (item === 1) {
        const attributes: IKeyValue[] = [];
        readMessage(inner.readBytes(), (entry, attribute) => {
          if (entry !== 1) return false;
          attributes.push(keyValue(attribute.readBytes()));
          return true;
        });
        decoded.resource = { attributes, droppedAttributesCount: 0 };
      } else if (item === 2) decoded.scopeSpans.push(scopeSpans(inner.readBytes()));
      else return false;
      return true;
    });
    resourceSpans.push(decoded);
    return true;
  });
  return { resourceSpans };
}
