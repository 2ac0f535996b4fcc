// The stdio ceiling: the bare JSON-lines loop (stdioLines.ts) answering with the result shapes
// toolwire sends.
import { resultOf } from './ceilingAnswers.js';
import { serveLines } from './stdioLines.js';

serveLines(resultOf);
