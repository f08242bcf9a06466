import { MARKER, read, skip, type Walk } from './byte-walker.js';
import type { Declare } from './declare.js';

const SOI = 0xd8;
const EOI = 0xd9;
const DNL = 0xdc;
const DHP = 0xde;

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC); DHP declares a hierarchical image's size the same way. */
function declaresFrame(marker: number): boolean {
  return (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === DHP;
}

/** Markers without a length: SOI, EOI and TEM (restart markers RST0–RST7 never reach the walk). */
function standalone(marker: number): boolean {
  return marker === SOI || marker === EOI || marker === 0x01;
}

/**
 * JPEG: every frame header (SOFn, DHP) and the height a DNL marker sets later. Segments are skipped by
 * their length; after a scan (SOS) the entropy-coded data is searched for the next marker (0xFF not
 * followed by 0x00 stuffing or a restart marker). After EOI only another SOI counts, since MPF files and
 * gain-map (Ultra HDR) JPEGs append further images that decoders read too; other trailing bytes are not
 * read as markers.
 */
export function* jpegSizes(declare: Declare): Walk {
  let inImage = false;
  let frameWidth = 0;
  for (;;) {
    const marker = (yield MARKER)[0] ?? 0;
    if (!inImage) {
      inImage = marker === SOI;
      continue;
    }
    if (marker === EOI) inImage = false;
    if (standalone(marker)) continue;
    const length = (yield read(2)).readUInt16BE(0);
    if (length < 2) return; // no decoder reads past a malformed segment
    let consumed = 2;
    if (declaresFrame(marker) && length >= 7) {
      const frame = yield read(5); // precision, height, width
      frameWidth = frame.readUInt16BE(3);
      declare(frameWidth, frame.readUInt16BE(1));
      consumed += 5;
    } else if (marker === DNL && length >= 4) {
      declare(frameWidth, (yield read(2)).readUInt16BE(0));
      consumed += 2;
    }
    // After a scan header (SOS) comes entropy-coded data: the next MARKER demand searches it for the next marker.
    yield skip(length - consumed);
  }
}
