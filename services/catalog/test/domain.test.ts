import { describe, expect, it } from 'vitest';
import { acceptedImageType } from '../src/domain/image-type.js';
import { insertPosition, movePosition } from '../src/domain/image-order.js';
import { cleanFilename, filenameProblem, publicFileName } from '../src/domain/media-names.js';
import { nextFreeSlug, slugFromName } from '../src/domain/slug.js';

describe('slugFromName', () => {
  it.each([
    ['Crème Brûlée', 'creme-brulee'],
    ['  Hello   World  ', 'hello-world'],
    ['Straße & Co.', 'strasse-and-co'],
    ['a -- b', 'a-b'],
    ['C++ / C#', 'c-c'],
    ['日本語', 'product'],
    ['!!!', 'product'],
    ['x'.repeat(300), 'x'.repeat(180)],
  ])('when the name is %j, then the slug is %j', (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });
});

describe('nextFreeSlug', () => {
  it.each([
    ['mug', [], 'mug'],
    ['mug', ['mug'], 'mug-2'],
    ['mug', ['mug', 'mug-2', 'mug-3'], 'mug-4'],
    ['mug', ['mug', 'mug-3'], 'mug-2'],
    ['mug', ['mug-2'], 'mug'],
    ['mug', ['mug', 'mug-cup', 'mug-x-2'], 'mug-2'],
  ])('when %j is wanted and %j are taken, then %j is free', (base, taken, expected) => {
    expect(nextFreeSlug(base, taken)).toBe(expected);
  });
});

describe('image positions', () => {
  it.each([
    [undefined, 0, 0],
    [undefined, 3, 3],
    [0, 3, 0],
    [2, 3, 2],
    [3, 3, 3],
    [99, 3, 3],
  ])('when inserting at %j among %j, then the position is %j', (requested, count, expected) => {
    expect(insertPosition(requested, count)).toBe(expected);
  });

  it.each([
    [0, 3, 0],
    [2, 3, 2],
    [5, 3, 2],
    [0, 1, 0],
    [4, 1, 0],
  ])('when moving to %j among %j, then the position is %j', (requested, count, expected) => {
    expect(movePosition(requested, count)).toBe(expected);
  });
});

describe('media names', () => {
  it.each([
    ['photo.png', 'png', 'photo.png', 'photo.png'],
    ['Holiday Photo.JPG', 'jpg', 'Holiday Photo.JPG', 'holiday-photo.jpg'],
    ['C:\\Users\\me\\cat.png', 'png', 'cat.png', 'cat.png'],
    ['../../etc/passwd', 'png', 'passwd', 'passwd.png'],
    ['', 'webp', 'image.webp', 'image.webp'],
    [undefined, 'gif', 'image.gif', 'image.gif'],
    ['lie.png', 'jpg', 'lie.png', 'lie.jpg'],
    ['.hidden', 'png', '.hidden', 'hidden.png'],
    ['日本.png', 'png', '日本.png', 'image.png'],
  ])('when the client names the file %j (%s), then it is kept as %j and served as %j', (raw, ext, filename, publicName) => {
    const cleaned = cleanFilename(raw, ext);
    expect(cleaned).toBe(filename);
    expect(publicFileName(cleaned, ext)).toBe(publicName);
  });
});

describe('filenameProblem', () => {
  it.each([
    ['a.png\u0000.html', /NUL/],
    ...['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'].map(
      (control) => [`a${control}.png`, /bidirectional/] as [string, RegExp],
    ),
    ['half a pair \uD83D.png', /lone surrogates/],
    ['caf\uFFFD.png', /UTF-8/],
  ])('when the filename is %j, then it is refused (%s)', (raw, problem) => {
    expect(filenameProblem(raw)).toMatch(problem);
  });

  it.each(['photo.png', 'Crème brûlée.jpg', '日本.png', 'emoji \u{1F600}.png', 'right-to-left mark \u200F.png'])(
    'when the filename is %j, then it is accepted',
    (raw) => {
      expect(filenameProblem(raw)).toBeNull();
    },
  );
});

describe('acceptedImageType', () => {
  it.each([
    [{ mime: 'image/jpeg' }, { mime: 'image/jpeg', ext: 'jpg' }],
    [{ mime: 'image/png' }, { mime: 'image/png', ext: 'png' }],
    [{ mime: 'image/apng' }, { mime: 'image/png', ext: 'png' }],
    [{ mime: 'image/webp' }, { mime: 'image/webp', ext: 'webp' }],
    [{ mime: 'image/gif' }, { mime: 'image/gif', ext: 'gif' }],
    [{ mime: 'image/avif' }, { mime: 'image/avif', ext: 'avif' }],
    [{ mime: 'image/svg+xml' }, null],
    [{ mime: 'image/bmp' }, null],
    [{ mime: 'application/pdf' }, null],
    [{ mime: 'toString' }, null],
    [undefined, null],
  ])('when the bytes are %j, then the accepted type is %j', (detected, expected) => {
    expect(acceptedImageType(detected)).toEqual(expected);
  });
});
