/** The protobuf wire format, read side only: varints, length-delimited fields, fixed 32/64. */

export interface WireField {
  number: number;
  /** 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32. */
  wireType: number;
  /** The varint value (wire type 0). */
  varint?: bigint;
  /** The bytes (wire type 2). */
  bytes?: Uint8Array;
}

export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let i = pos; i < buf.length && shift < 70n; i++) {
    const b = buf[i] as number;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, i + 1];
    shift += 7n;
  }
  throw new ProtobufError('truncated varint');
}

/** Every field of one message, in wire order. */
export function readFields(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [tag, p1] = readVarint(buf, pos);
    pos = p1;
    const number = Number(tag >> 3n);
    const wireType = Number(tag & 7n);
    switch (wireType) {
      case 0: {
        const [v, p2] = readVarint(buf, pos);
        pos = p2;
        out.push({ number, wireType, varint: v });
        break;
      }
      case 1:
        pos += 8;
        out.push({ number, wireType });
        break;
      case 2: {
        const [len, p2] = readVarint(buf, pos);
        const end = p2 + Number(len);
        if (end > buf.length) throw new ProtobufError('truncated length-delimited field');
        out.push({ number, wireType, bytes: buf.subarray(p2, end) });
        pos = end;
        break;
      }
      case 5:
        pos += 4;
        out.push({ number, wireType });
        break;
      default:
        throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
    if (pos > buf.length) throw new ProtobufError('truncated field');
  }
  return out;
}
