import { fourcc, read, skip, type Walk } from './byte-walker.js';
import type { Declare } from './declare.js';

/**
 * PNG: the canvas in IHDR and, for an animated PNG, each frame in its fcTL chunk (fcTL frames after the
 * first come after the image data, so the walk goes over every chunk, skipping their data by length).
 */
const IHDR = fourcc('IHDR');
const FCTL = fourcc('fcTL');
const IEND = fourcc('IEND');

export function* pngSizes(declare: Declare): Walk {
  yield skip(8); // signature, already checked by the sniffer
  for (;;) {
    const header = yield read(8);
    const length = header.readUInt32BE(0);
    const type = header.readUInt32BE(4);
    let consumed = 0;
    if (type === IHDR && length >= 8) {
      const size = yield read(8);
      declare(size.readUInt32BE(0), size.readUInt32BE(4));
      consumed = 8;
    } else if (type === FCTL && length >= 12) {
      const frame = yield read(12); // sequence number, width, height
      declare(frame.readUInt32BE(4), frame.readUInt32BE(8));
      consumed = 12;
    } else if (type === IEND) {
      return;
    }
    yield skip(length - consumed + 4); // the rest of the data and the CRC
  }
}
