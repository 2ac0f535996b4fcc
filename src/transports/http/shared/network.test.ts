// What an HTTP client transport tells telemetry of the server it reaches: the URL's host (an IPv6
// address without brackets) and port (the scheme's default when the URL has none), over HTTP/1.1
// with the runtime's fetch, and no version claimed for a fetch of the caller's own.
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../client/streamableClient.js';
import { LegacySseClientTransport } from '../client/legacySseClient.js';
import { HttpClientTransport } from '../client/httpClient.js';
import { httpClientNetwork } from './network.js';

describe('httpClientNetwork', () => {
  it('names the server by the URL’s host and port', () => {
    expect(httpClientNetwork(new URL('https://mcp.example.com/mcp'), false)).toEqual({
      protocolName: 'http',
      protocolVersion: '1.1',
      serverAddress: 'mcp.example.com',
      serverPort: 443,
    });
    expect(httpClientNetwork(new URL('http://[::1]:8080/mcp'), false)).toMatchObject({
      serverAddress: '::1',
      serverPort: 8080,
    });
    expect(httpClientNetwork(new URL('http://127.0.0.1/mcp'), true)).toEqual({
      protocolName: 'http',
      serverAddress: '127.0.0.1',
      serverPort: 80,
    });
  });

  it('is what every HTTP client transport says', () => {
    const url = 'http://localhost:3000/mcp';
    const expected = { protocolName: 'http', serverAddress: 'localhost', serverPort: 3000 };
    expect(new StreamableHttpClientTransport(url).network).toMatchObject(expected);
    expect(new LegacySseClientTransport(url).network).toMatchObject(expected);
    expect(new HttpClientTransport(url).network).toMatchObject(expected);
    expect(new StreamableHttpClientTransport(url, { fetch }).network).not.toHaveProperty(
      'protocolVersion',
    );
  });
});
