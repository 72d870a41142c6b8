// usage.ts - compiled by tsc (ctest node.types): the declarations of
// index.d.ts against the calls a program makes, and what they must refuse.
import * as http from 'node:http';
import * as ug from '../..';

const b: Buffer = Buffer.from('caf\u00e9');
const ok: boolean = ug.isValid(b) && ug.isValid(new Uint8Array(4), 'field,-newline') &&
  ug.isValid(new DataView(new ArrayBuffer(2))) && ug.isValid(new ArrayBuffer(1), 0);
const f: ug.Finding | null = ug.validate(b, 'url');
if (f !== null) {
  const kind: ug.Kind = f.kind;
  const where: number = f.offset + f.length;
  const text: string = f.message + ug.describe(b, f);
  void [kind, where, text, f.category, f.codePoint, f.hint, f.hintValue];
}
const clean: Buffer = ug.sanitize(b);
const s: string = ug.decode(b);
const p: ug.Finding | null = ug.validatePercent(Buffer.from('%C0%AF'), 'url');
const decoded: Buffer = ug.percentDecode(Buffer.from('%41'));
const j: ug.Finding | null = ug.validateJson(Buffer.from('"\\ud800"'), 'json');
const jclean: Buffer = ug.sanitizeJson(new Uint8Array(2)) ;
const jok: boolean = ug.isValidJson(new ArrayBuffer(0));
const jv = new ug.Validator({ form: 'json' });
const v = new ug.Validator({ policy: 'field', form: 'percent' });
const vf: ug.Finding | null = v.feed(b) ?? v.finish();
const stream: ug.CheckStream = ug.createCheckStream({ policy: 'strict', highWaterMark: 1024 });
const guard = new ug.Guard({ target: 'url', form: 'off', none: 'off', textCharset: 'declared', contentEncoding: 'pass', detectOnly: true, logger: console });
guard.on('finding', (finding: ug.RequestFinding) => console.log(finding.part, finding.text));
const server = http.createServer(ug.http((req, res) => res.end(), guard));
const mw = ug.express({ headers: 'field,-bidi' });
const frameworkErrors: (error: any, request: any, reply: any) => void = ug.fastify.frameworkErrors(guard);
try {
  ug.decode(Buffer.from([0xff]));
} catch (err) {
  if (err instanceof ug.InvalidTextError) console.log(err.finding.offset);
}
void [frameworkErrors, ok, clean, s, p, decoded, j, jclean, jok, jv, vf, stream, server, mw, ug.version, ug.activeKernel(), ug.categories];

// @ts-expect-error a string is no byte input
ug.isValid('text');
// @ts-expect-error no such form
new ug.Validator({ form: 'base64' });
// @ts-expect-error no such choice
new ug.Guard({ contentEncoding: 'gunzip' });
// @ts-expect-error a rule is text
ug.express({ target: 3 });
