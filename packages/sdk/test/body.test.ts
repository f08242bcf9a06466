import { describe, expect, it } from 'vitest';
import { serializeBody, uploadFile } from '../src/media.js';

describe('serializeBody', () => {
  it('when the body holds no Blob, then it is JSON', () => {
    expect(serializeBody({ name: 'Desk', tags: ['a'], when: null })).toBe('{"name":"Desk","tags":["a"],"when":null}');
    expect(serializeBody([1, 2])).toBe('[1,2]');
  });

  it('when the body holds a Blob, then it is FormData with the text fields first and unset fields left out', async () => {
    const form = serializeBody({ file: new File(['bytes'], 'a.png', { type: 'image/png' }), alt_text: 'Alt', note: undefined });

    if (!(form instanceof FormData)) throw new Error('expected FormData');
    expect([...form.keys()]).toEqual(['alt_text', 'file']);
    const file = form.get('file');
    expect(file instanceof File && [file.name, file.type, await file.text()]).toEqual(['a.png', 'image/png', 'bytes']);
  });
});

describe('uploadFile', () => {
  it('when a File is given without options, then its name and type are kept', async () => {
    const file = await uploadFile(new File(['x'], 'keep.gif', { type: 'image/gif' }), {});

    expect([file.name, file.type]).toEqual(['keep.gif', 'image/gif']);
  });

  it('when bytes are given without options, then the part is `upload`, application/octet-stream', async () => {
    const file = await uploadFile(new Uint8Array([1, 2, 3]), {});

    expect([file.name, file.type, file.size]).toEqual(['upload', 'application/octet-stream', 3]);
  });
});
