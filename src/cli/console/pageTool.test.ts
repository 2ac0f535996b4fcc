import { describe, expect, it } from 'vitest';
import type { Tool } from '../../index.js';
import { pageTool } from './pageTool.js';

describe('a tool as the page is sent it', () => {
  it('keeps what the page reads, of the types it reads', () => {
    const tool: Tool = {
      name: 'weather',
      title: 'Weather',
      description: 'Gets the weather',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png' }],
      execution: { taskSupport: 'optional' },
    };
    expect(pageTool(tool, true)).toEqual(tool);
  });

  it('sends remote icons of trusted servers only: data: images otherwise (issue 19)', () => {
    const tool: Tool = {
      name: 'weather',
      inputSchema: { type: 'object' },
      icons: [
        { src: 'https://tracker.example/pixel.png?user=1' },
        { src: 'http://tracker.example/pixel.png' },
        { src: 'data:image/svg+xml;base64,PHN2Zy8+' },
      ],
    };
    expect(pageTool(tool).icons).toEqual([{ src: 'data:image/svg+xml;base64,PHN2Zy8+' }]);
    expect(pageTool(tool, true).icons).toEqual([
      { src: 'https://tracker.example/pixel.png?user=1' },
      { src: 'data:image/svg+xml;base64,PHN2Zy8+' },
    ]);
  });

  it('drops what a server filled with anything else (found in review: it broke the page)', () => {
    const hostile = {
      name: 'odd',
      inputSchema: { type: 'object' },
      title: 5,
      description: { text: 'x' },
      icons: 'https://example.com/i.png',
      annotations: 'read-only',
      execution: { taskSupport: 3 },
      outputSchema: [],
    } as unknown as Tool;
    expect(pageTool(hostile)).toEqual({
      name: 'odd',
      inputSchema: { type: 'object' },
      execution: {},
    });
    const someIcons = {
      ...hostile,
      icons: [null, { src: 1 }, { src: 'data:image/png;base64,AA' }],
    };
    expect(pageTool(someIcons as unknown as Tool).icons).toEqual([
      { src: 'data:image/png;base64,AA' },
    ]);
  });
});
