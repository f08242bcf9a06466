import { fourcc, read, skip, type Walk } from './byte-walker.js';
import type { Declare } from './declare.js';

/**
 * Boxes the walk enters instead of skipping, with the bytes before their first child: the item
 * properties of a still image (meta/iprp/ipco) and, for an image sequence, the sample descriptions of its
 * tracks (moov/trak/mdia/minf/stbl/stsd). meta is a full box (4 bytes of version and flags); stsd adds an
 * entry count.
 */
const CONTAINERS = new Map<number, number>([
  [fourcc('meta'), 4],
  [fourcc('iprp'), 0],
  [fourcc('ipco'), 0],
  [fourcc('moov'), 0],
  [fourcc('trak'), 0],
  [fourcc('mdia'), 0],
  [fourcc('minf'), 0],
  [fourcc('stbl'), 0],
  [fourcc('stsd'), 8],
]);

/**
 * AVIF (ISO BMFF): every `ispe` property (the primary image, its alpha plane, grid tiles and thumbnails
 * each have one) and every AV1 sample entry of an animation (`av01`, a visual sample entry with its
 * width and height). Boxes are walked in file order, so a meta box after the media data is read too.
 */
const ISPE = fourcc('ispe');
const AV01 = fourcc('av01');

export function* avifSizes(declare: Declare): Walk {
  for (;;) {
    const header = yield read(8);
    let size = header.readUInt32BE(0);
    const type = header.readUInt32BE(4);
    let headerBytes = 8;
    if (size === 1) {
      size = Number((yield read(8)).readBigUInt64BE(0));
      headerBytes = 16;
    }
    const container = CONTAINERS.get(type);
    if (container !== undefined) {
      yield skip(container);
      continue; // its children follow
    }
    if (size === 0) return; // the box runs to the end of the file
    if (size < headerBytes) return; // no reader goes past a malformed box
    let consumed = 0;
    if (type === ISPE && size - headerBytes >= 12) {
      const property = yield read(12); // version and flags, width, height
      declare(property.readUInt32BE(4), property.readUInt32BE(8));
      consumed = 12;
    } else if (type === AV01 && size - headerBytes >= 28) {
      const entry = yield read(28); // reserved (6), data reference index (2), pre-defined and reserved (16), width, height
      declare(entry.readUInt16BE(24), entry.readUInt16BE(26));
      consumed = 28;
    }
    yield skip(size - headerBytes - consumed);
  }
}
