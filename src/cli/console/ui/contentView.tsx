/**
 * @module A tool result on the page: text as text; images and audio from their base64 data only
 * (the page's CSP allows `data:` images and media, nothing remote but https images); resource
 * links and embedded resources described, never followed; structured content as JSON; an
 * `isError` result marked. Nothing a server sends is rendered as markup or executed.
 */
import { visible } from './visibleText.js';

type Block = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function BlockView({ block }: { block: Block }) {
  switch (block['type']) {
    case 'text':
      return <pre class="text">{visible(str(block['text']))}</pre>;
    case 'image': {
      const mime = str(block['mimeType']);
      return /^image\/(png|jpeg|gif|webp)$/.test(mime) ? (
        <img
          class="image"
          alt="image from the tool"
          src={`data:${mime};base64,${str(block['data'])}`}
        />
      ) : (
        <div class="note">[image of type {visible(mime)}, not shown]</div>
      );
    }
    case 'audio': {
      const mime = str(block['mimeType']);
      return /^audio\/[\w.+-]+$/.test(mime) ? (
        <audio class="audio" controls src={`data:${mime};base64,${str(block['data'])}`} />
      ) : (
        <div class="note">[audio of type {visible(mime)}, not played]</div>
      );
    }
    case 'resource_link':
      return (
        <div class="link">
          link: {visible(str(block['title']) || str(block['name']))} &lt;
          {visible(str(block['uri']))}&gt;
          {block['description'] ? ` ${visible(str(block['description']))}` : ''}
        </div>
      );
    case 'resource': {
      const r = (block['resource'] ?? {}) as Block;
      return (
        <div class="resource">
          <div class="note">resource {visible(str(r['uri']))}</div>
          {typeof r['text'] === 'string' ? (
            <pre class="text">{visible(r['text'])}</pre>
          ) : (
            <div class="note">[binary, {Math.floor((str(r['blob']).length * 3) / 4)} bytes]</div>
          )}
        </div>
      );
    }
    default:
      return <div class="note">[content of type {visible(String(block['type']))}]</div>;
  }
}

/** One result. */
export function ResultView({ result }: { result: Block }) {
  const content = Array.isArray(result['content']) ? (result['content'] as Block[]) : [];
  return (
    <div class={`result${result['isError'] === true ? ' is-error' : ''}`}>
      {result['isError'] === true ? (
        <div class="badge error">the tool reported an error</div>
      ) : null}
      {content.map((block, i) => (
        <BlockView key={i} block={block} />
      ))}
      {result['structuredContent'] !== undefined ? (
        <div>
          <div class="note">structured content</div>
          <pre class="json">{visible(JSON.stringify(result['structuredContent'], null, 2))}</pre>
        </div>
      ) : null}
    </div>
  );
}
