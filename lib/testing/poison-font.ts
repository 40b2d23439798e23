/**
 * A TrueType font whose character map claims one group of `span` code points (format 12): fontkit
 * lists every code point of it in a JavaScript array, so a large span makes a parser allocate
 * without bound (the "poison font" of docs/architecture.md, Threat model). Browsers refuse it.
 */
export function poisonFont(span = 0x7fff_ff00): Buffer {
  const sub = Buffer.alloc(16 + 12);
  sub.writeUInt16BE(12, 0); // format
  sub.writeUInt32BE(sub.length, 4); // length
  sub.writeUInt32BE(0, 8); // language
  sub.writeUInt32BE(1, 12); // numGroups
  sub.writeUInt32BE(0x20, 16); // startCharCode
  sub.writeUInt32BE(0x20 + span, 20); // endCharCode
  sub.writeUInt32BE(1, 24); // startGlyphID
  const cmap = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 3, 0, 10, 0, 0, 0, 12]), sub]);
  const header = Buffer.alloc(12 + 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(1, 4); // numTables
  header.writeUInt16BE(16, 6);
  header.write("cmap", 12, "latin1");
  header.writeUInt32BE(0, 16); // checksum (not checked by the parser)
  header.writeUInt32BE(header.length, 20); // offset
  header.writeUInt32BE(cmap.length, 24);
  return Buffer.concat([header, cmap]);
}
