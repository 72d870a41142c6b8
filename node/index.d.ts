// Type declarations of utf8guard for Node.js (index.js).
/// <reference types="node" />
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse, RequestListener } from 'node:http';
import type { Transform, TransformOptions } from 'node:stream';

/** Bytes viewed in place: a Buffer, any TypedArray, a DataView or an ArrayBuffer. */
export type Input = ArrayBufferView | ArrayBuffer;

export type ProfileName = 'strict' | 'source' | 'field' | 'json' | 'url';
export type CategoryName =
  | 'nul' | 'control' | 'newline' | 'c1' | 'bidi' | 'noncharacter' | 'private_use'
  | 'bom' | 'replacement' | 'bad_escape' | 'double_encoding';
/**
 * A policy: profile and category names separated by commas, each optionally
 * '+' (add) or '-' (remove), as "field,-newline"; or category bits
 * (parsePolicy). undefined or null denies nothing.
 */
export type Policy = string | number | null | undefined;
export type Form = 'raw' | 'percent' | 'json';
export type Kind =
  | 'unexpected_continuation' | 'overlong' | 'surrogate' | 'too_large' | 'invalid_byte'
  | 'truncated' | 'incomplete' | 'disallowed';
export type HintName =
  | 'utf16_bom' | 'modified_utf8_nul' | 'overlong_form' | 'cesu8_pair'
  | 'surrogate_code_point' | 'beyond_unicode' | 'windows1252';

/** The first ill-formed subpart or denied character of an input. */
export interface Finding {
  kind: Kind;
  /** Byte offset of its first byte (encoded bytes for percent-encoded input). */
  offset: number;
  /** Its bytes: 1..3 for an ill-formed subpart, 1..4 for a denied character. */
  length: number;
  /** The denied category (kind 'disallowed'), else null. */
  category: CategoryName | null;
  /** The denied character (kind 'disallowed'), else null. */
  codePoint: number | null;
  /** What typically writes such bytes, or null. */
  hint: HintName | null;
  /** The value the hint says the bytes carry, or null. */
  hintValue: number | null;
  /** Percent-encoded input and JSON text: the same bytes in the decoded stream. */
  decodedOffset?: number;
  decodedLength?: number;
  /** "overlong at byte 2 (C0 AF 63) [overlong_form U+002F]": bytes shown as hex only. */
  message: string;
}

export interface FormOptions {
  policy?: Policy;
  form?: Form;
}

export function isValid(input: Input, policy?: Policy): boolean;
export function validate(input: Input, policy?: Policy): Finding | null;
/** A new Buffer: each ill-formed subpart and denied character replaced by U+FFFD. */
export function sanitize(input: Input, policy?: Policy): Buffer;
/** The text; throws an InvalidTextError (a TypeError) at the first finding. */
export function decode(input: Input, policy?: Policy): string;
export function isValidPercent(input: Input, policy?: Policy): boolean;
export function validatePercent(input: Input, policy?: Policy): Finding | null;
/** JSON text: escapes decoded and checked as characters; a lone surrogate escape is a finding. */
export function isValidJson(input: Input, policy?: Policy): boolean;
export function validateJson(input: Input, policy?: Policy): Finding | null;
/** A new Buffer of JSON text: a raw finding becomes U+FFFD, an escaped one \ufffd. */
export function sanitizeJson(input: Input, policy?: Policy): Buffer;
/** A new Buffer, %XX decoded; a '%' without two hex digits stays. */
export function percentDecode(input: Input): Buffer;
/** The message of a finding over the whole input. */
export function describe(input: Input, finding: Finding, options?: { form?: Form }): string;
/** The longest prefix of at most max bytes that splits no character. */
export function truncate(input: Input, max: number, options?: { keepIllFormed?: boolean }): number;
/** The category bits of a policy; throws a TypeError naming a bad item. */
export function parsePolicy(policy: Policy): number;
export function activeKernel(): string;
export const version: string;
export const categories: readonly CategoryName[];
export const profiles: readonly ProfileName[];

export class InvalidTextError extends TypeError {
  constructor(finding: Finding);
  readonly code: 'ERR_ENCODING_INVALID_ENCODED_DATA';
  readonly finding: Finding;
}

/** A stream checked chunk by chunk, split anywhere, in constant memory. */
export class Validator {
  constructor(options?: Policy | FormOptions);
  /** The first finding once the bytes its message shows have arrived, else null. */
  feed(chunk: Input): Finding | null;
  /** Ends the input; the first finding ('incomplete' included), or null. */
  finish(): Finding | null;
  reset(): this;
  readonly finding: Finding | null;
  readonly pending: boolean;
  readonly position: number;
  readonly finished: boolean;
}

export interface CheckStreamOptions extends TransformOptions, FormOptions {}
/** Passes chunks through; fails with an InvalidTextError at the first finding. */
export class CheckStream extends Transform {
  constructor(options?: CheckStreamOptions);
}
export function createCheckStream(options?: CheckStreamOptions): CheckStream;

/**
 * A finding of the request middleware: the part, and the core's text. Kind
 * 'request_shape' is no byte of a part but the request's shape (a malformed
 * or repeated Content-Type, a Content-Encoding the guard cannot read, a
 * header name that is no token), with null offsets; so is 'multipart'.
 */
export interface RequestFinding extends Omit<Finding, 'kind' | 'offset' | 'length'> {
  /** 'multipart': a multipart body's finding, given by the core as text alone. */
  kind: Kind | 'request_shape' | 'multipart';
  /** The core's PART of a text-only finding ("multipart part 2 field"). */
  label?: string;
  offset: number | null;
  length: number | null;
  part: 'path' | 'query' | 'header' | 'body';
  /** The header's name, bytes outside printable ASCII as \xHH. */
  header?: string;
  /** "PART: MESSAGE", as the nginx module logs it. */
  text: string;
}

/** Each part's rule: 'off' or a policy's text; unset parts keep the defaults. */
export interface GuardOptions {
  /** Path and query, percent-decoded; default "url". */
  target?: string;
  /** Header names and values; default "field". */
  headers?: string;
  /** application/x-www-form-urlencoded bodies, percent-decoded; default "url,-newline". */
  form?: string;
  /** JSON bodies, as JSON text (escapes decoded); default "json,nul,bidi,bad_escape". */
  json?: string;
  /** text/* bodies; default "strict". */
  text?: string;
  /** Bodies of any other media type; default "off". */
  other?: string;
  /** The files of multipart/form-data bodies; default "off". */
  file?: string;
  /** Bodies without a Content-Type; default "strict". */
  none?: string;
  /** 'declared': a text body that declares a charset other than UTF-8 takes the "other" rule. */
  textCharset?: 'utf-8' | 'declared';
  /** 'pass': a coded body (Content-Encoding) goes on unchecked, instead of a 400. */
  contentEncoding?: 'refuse' | 'pass';
  /** Report findings and let the request on. */
  detectOnly?: boolean;
  logger?: ((line: string) => void) | { warn(line: string): void };
}

export class Guard extends EventEmitter {
  constructor(options?: GuardOptions);
  readonly detectOnly: boolean;
  /** Checks the head and sets the body's check up; false when the 400 was sent. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  on(event: 'finding', listener: (finding: RequestFinding, req: IncomingMessage) => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
}

export function http<L extends RequestListener>(listener: L, options?: GuardOptions | Guard): L & { guard: Guard };
export function express(options?: GuardOptions | Guard):
  ((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void) & { guard: Guard };
/** The Fastify plugin: fastify.register(utf8guard.fastify, options). */
export function fastify(instance: any, options: GuardOptions & { guard?: Guard }, done: (err?: Error) => void): void;
export namespace fastify {
  /** Fastify's frameworkErrors option: the guard answers a path Fastify's router refuses. */
  function frameworkErrors(options?: GuardOptions | Guard): (error: any, request: any, reply: any) => void;
}
