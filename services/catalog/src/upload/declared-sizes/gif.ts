import { read, skip, SUB_BLOCKS, type Walk } from './byte-walker.js';
import type { Declare } from './declare.js';

/** Bytes of a colour table whose presence and size are in a packed field (logical screen or image descriptor). */
function colourTableBytes(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}

/**
 * GIF: the logical screen and every frame's image descriptor. A frame is declared with its extent (offset
 * plus size), since decoders that meet a frame beyond the screen enlarge the canvas to hold it. The walk
 * is the GIF block structure: descriptors, extensions and their sub-blocks, to the trailer.
 */
export function* gifSizes(declare: Declare): Walk {
  yield skip(6); // GIF87a / GIF89a
  const screen = yield read(7);
  declare(screen.readUInt16LE(0), screen.readUInt16LE(2));
  yield skip(colourTableBytes(screen[4] ?? 0));
  for (;;) {
    const introducer = (yield read(1))[0];
    if (introducer === 0x2c) {
      const descriptor = yield read(9); // left, top, width, height, packed
      declare(descriptor.readUInt16LE(0) + descriptor.readUInt16LE(4), descriptor.readUInt16LE(2) + descriptor.readUInt16LE(6));
      yield skip(colourTableBytes(descriptor[8] ?? 0) + 1); // the local colour table and the LZW minimum code size
      yield SUB_BLOCKS;
    } else if (introducer === 0x21) {
      yield skip(1); // extension label
      yield SUB_BLOCKS;
    } else {
      return; // the trailer (0x3b), or bytes no decoder reads as a frame
    }
  }
}
