import { describe, expect, it } from 'vitest';
import { DEFAULT_URI_SCHEMES } from './outputPolicy.js';
import { iconSrcProblem, schemeEntryProblem, uriProblem } from './uriSchemes.js';

describe('uriProblem with the default allow-list', () => {
  it.each([
    'https://example.com/a?b#c',
    'HTTPS://EXAMPLE.COM/',
    'http://localhost:8080/x',
    'file:///project/src/main.rs',
    'File:///C:/Users/jörg/Dokumente/x.txt',
    'git://github.com/a/b.git',
    'urn:toolwire:content:0',
    'file:///My Documents/a.txt',
  ])('lets %s through', (uri) => {
    expect(uriProblem(uri, DEFAULT_URI_SCHEMES)).toBeUndefined();
  });

  it.each([
    ['javascript:alert(1)', 'the URI scheme "javascript" runs script'],
    ['JaVaScRiPt:alert(document.cookie)', 'the URI scheme "javascript" runs script'],
    ['vbscript:msgbox(1)', 'the URI scheme "vbscript" runs script'],
    ['data:text/html,<script>alert(1)</script>', 'the URI scheme "data" is not allowed'],
    ['memo://notes/1', 'the URI scheme "memo" is not allowed'],
    ['ftp://example.com/f', 'the URI scheme "ftp" is not allowed'],
    [' javascript:alert(1)', 'the URI does not start with a scheme'],
    ['\x01javascript:alert(1)', 'the URI does not start with a scheme'],
    ['\u202ejavascript:alert(1)', 'the URI does not start with a scheme'],
    ['java\tscript:alert(1)', 'the URI does not start with a scheme'],
    ['java\nscript:alert(1)', 'the URI does not start with a scheme'],
    ['https://example.com/\x1b[2Jx', 'the URI contains control or bidi characters'],
    ['https://example.com/\u202egnp.exe', 'the URI contains control or bidi characters'],
    ['https://example.com/\tx', 'the URI contains control or bidi characters'],
    ['https://example.com/\r\nx', 'the URI contains control or bidi characters'],
    ['https://example.com/\x85', 'the URI contains control or bidi characters'],
    ['https://example.com/\u{e0041}', 'the URI contains control or bidi characters'],
    ['/relative/path', 'the URI does not start with a scheme'],
    ['', 'the URI does not start with a scheme'],
    ['1http://x', 'the URI does not start with a scheme'],
  ])('refuses %j', (uri, reason) => {
    expect(uriProblem(uri, DEFAULT_URI_SCHEMES)).toBe(reason);
  });
});

describe('uriProblem with data: allowed', () => {
  const withData = [...DEFAULT_URI_SCHEMES, 'data'];

  it.each([
    'data:,hello',
    'data:text/plain;charset=utf-8,hello',
    'data:application/json;base64,e30=',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:IMAGE/JPEG;base64,/9j/',
    'data:audio/ogg;base64,T2dn',
    'DATA:video/mp4;base64,AAAA',
  ])('lets %s through', (uri) => {
    expect(uriProblem(uri, withData)).toBeUndefined();
  });

  it.each([
    'data:text/html,<script>alert(1)</script>',
    'data:TEXT/HTML;base64,PHNjcmlwdD4=',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'data:application/xhtml+xml,<x/>',
    'data:text/javascript,alert(1)',
    'data:application/pdf;base64,JVBERi0=',
    'data:text/xml,<a/>',
    'data:text/plainx,<script>',
    'data:text/html;text/plain,<script>',
    'data: text/plain,x',
  ])('still refuses %s', (uri) => {
    expect(uriProblem(uri, withData)).toMatch(/^a data: URI of type ".*" could run script$/);
  });
});

describe('uriProblem with a custom check', () => {
  it('asks the check with the lower-case scheme', () => {
    const seen: string[] = [];
    const check = (scheme: string, uri: string) => (
      seen.push(`${scheme} ${uri}`),
      scheme === 'memo'
    );
    expect(uriProblem('MEMO://a', check)).toBeUndefined();
    expect(uriProblem('ftp://a', check)).toBe('the URI scheme "ftp" is not allowed');
    expect(seen).toEqual(['memo MEMO://a', 'ftp ftp://a']);
  });

  it('refuses script schemes and script-capable data: URIs before asking', () => {
    const all = () => true;
    expect(uriProblem('JavaScript:alert(1)', all)).toBe('the URI scheme "javascript" runs script');
    expect(uriProblem('vbscript:x', all)).toBe('the URI scheme "vbscript" runs script');
    expect(uriProblem('data:text/html,x', all)).toBe(
      'a data: URI of type "text/html" could run script',
    );
    expect(uriProblem('data:image/png;base64,AA==', all)).toBeUndefined();
    expect(uriProblem(' https://x', all)).toBe('the URI does not start with a scheme');
  });
});

describe('schemeEntryProblem', () => {
  it('refuses script schemes and malformed names in an allow-list', () => {
    expect(schemeEntryProblem('javascript')).toBe('the "javascript:" scheme runs script');
    expect(schemeEntryProblem('vbscript')).toBe('the "vbscript:" scheme runs script');
    expect(schemeEntryProblem('my app')).toBe('"my app" is not a URI scheme');
    expect(schemeEntryProblem('s3')).toBeUndefined();
    expect(schemeEntryProblem('git+ssh')).toBeUndefined();
  });
});

describe('iconSrcProblem', () => {
  it('allows https: and raster data: images only', () => {
    expect(iconSrcProblem('https://example.com/i.png')).toBeUndefined();
    expect(iconSrcProblem('data:image/png;base64,iVBORw0KGgo=')).toBeUndefined();
    expect(iconSrcProblem('http://example.com/i.png')).toBe('the URI scheme "http" is not allowed');
    expect(iconSrcProblem('file:///etc/passwd')).toBe('the URI scheme "file" is not allowed');
    expect(iconSrcProblem('javascript:alert(1)')).toBe('the URI scheme "javascript" runs script');
    expect(iconSrcProblem('data:image/svg+xml,<svg/>')).toBe(
      'a data: URI of type "image/svg+xml" could run script',
    );
    expect(iconSrcProblem('data:application/json,{}')).toBe('an icon data: URI must be an image');
  });
});
