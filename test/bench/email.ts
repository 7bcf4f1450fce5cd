// The e-mail conversions' part of `npm run bench` (no workbench; a few seconds): a 200 KB Outlook
// thread as text, each sample paired with the floor (htmlparser2 reading the same HTML into a
// tree, the least any reading of it does), and what the agent's answer costs in tokens as text
// against the raw HTML (gpt-tokenizer's o200k encoding, as the unit tests count).
import { encode } from 'gpt-tokenizer';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, as src/email/ takes it
import htmlparser2 = require('htmlparser2');
import { emailText } from '../../src/email/toText';
import { GMAIL_MESSAGE, longThread, OUTLOOK_REPLY } from '../server/demoEmails';
import { median } from './stats';

export interface EmailFigures {
  /** The message's length in characters. */
  chars: number;
  pairs: number;
  /** Medians, ms: the conversion to text, the floor, and the paired difference. */
  textMs: number;
  floorMs: number;
  pairedMs: number;
  /** Tokens of a typical e-mail (Outlook's reply; Gmail's), raw HTML and as the agent's answer quotes it. */
  tokens: { name: string; html: number; text: number }[];
}

const WARM_UP = 5;

export function measureEmail(say: (line: string) => void, pairs = 30): EmailFigures {
  const html = longThread(200_000);
  const convert = () => emailText(html).text.length;
  const floor = () => htmlparser2.parseDocument(html).children.length;
  for (let i = 0; i < WARM_UP; i++) {
    convert();
    floor();
  }
  const time = (run: () => number) => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };
  const texts: number[] = [];
  const floors: number[] = [];
  const differences: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternating which goes first, so neither always runs on a warmer heap.
    let text: number;
    let bare: number;
    if (i % 2 === 0) {
      text = time(convert);
      bare = time(floor);
    } else {
      bare = time(floor);
      text = time(convert);
    }
    texts.push(text);
    floors.push(bare);
    differences.push(text - bare);
  }
  const tokens = [
    { name: "Outlook's reply", html: OUTLOOK_REPLY },
    { name: "Gmail's message", html: GMAIL_MESSAGE },
  ].map(({ name, html }) => ({ name, html: encode(html).length, text: encode(emailText(html).text).length }));
  const figures = { chars: html.length, pairs, textMs: median(texts), floorMs: median(floors), pairedMs: median(differences), tokens };
  say(
    `E-mail: ${Math.round(html.length / 1024)} KB as text in ${figures.textMs.toFixed(1)} ms (floor ${figures.floorMs.toFixed(1)} ms); tokens ${tokens
      .map((t) => `${t.name} ${t.html} → ${t.text} (${(t.html / t.text).toFixed(1)}×)`)
      .join(', ')}.`,
  );
  return figures;
}
