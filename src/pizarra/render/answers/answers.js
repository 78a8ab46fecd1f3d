// pizarra answer fields: exact checking in the page, no dependencies, never eval.
// A port of pizarra.check.answers (lexer, reader, values, algebra and the six
// types), judged on the same JSON key; a parity test holds the two equal.
// Rationals are BigInt pairs. What cannot be decided exactly is "unchecked".

const MAX_INPUT = 200, MAX_DIGITS = 60, MAX_TOKENS = 120, MAX_DEPTH = 40;
const MAX_BITS = 200000, MAX_EXPONENT = 100000, MAX_ROOT_INDEX = 64;
const MAX_TERMS = 200, MAX_POWER = 8, MAX_LETTER_EXPONENT = 64, MAX_ITEMS = 32;

// ---- rationals -------------------------------------------------------------
const abs = (x) => (x < 0n ? -x : x);
function gcd(a, b) { a = abs(a); b = abs(b); while (b) [a, b] = [b, a % b]; return a; }
function Q(n, d = 1n) {
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}
const ZERO = Q(0n), ONE_Q = Q(1n);
const qadd = (a, b) => Q(a.n * b.d + b.n * a.d, a.d * b.d);
const qsub = (a, b) => Q(a.n * b.d - b.n * a.d, a.d * b.d);
const qmul = (a, b) => Q(a.n * b.n, a.d * b.d);
const qdiv = (a, b) => Q(a.n * b.d, a.d * b.n);
const qneg = (a) => ({ n: -a.n, d: a.d });
const qeq = (a, b) => a.n === b.n && a.d === b.d;
const qcmp = (a, b) => { const x = a.n * b.d - b.n * a.d; return x < 0n ? -1 : x > 0n ? 1 : 0; };
const qstr = (a) => `${a.n}/${a.d}`;
const isQ = (v) => typeof v === "object" && v !== null && typeof v.n === "bigint";
const bitLength = (x) => (x === 0n ? 0 : abs(x).toString(2).length);
function qpowInt(a, p) {
  if (p >= 0n) return Q(a.n ** p, a.d ** p);
  return Q(a.d ** -p, a.n ** -p);
}

class Unread { constructor(code) { this.code = code; } }
class Outside { constructor(reason = "uncheckable") { this.reason = reason; } }

// ---- lexer (check/answers/lexer.py) ----------------------------------------
const CHARS = {
  "\u2212": "-", "\u2013": "-", "\u2010": "-", "\u2011": "-",
  "\u00b7": "*", "\u22c5": "*", "\u00d7": "*", "\u2219": "*", "\u2022": "*",
  "\u00f7": "/", "\u2215": "/", "\u2044": "/", ":": "/",
  "\u221e": " inf ", "\u00b1": " pm ", "\u221a": " sqrt ",
  "\u2264": "<=", "\u2265": ">=",
  "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2007": " ", "\t": " ", "\n": " ",
};
const SUPERSCRIPTS = {
  "\u2070": "0", "\u00b9": "1", "\u00b2": "2", "\u00b3": "3", "\u2074": "4",
  "\u2075": "5", "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9",
  "\u207b": "-", "\u207a": "+",
};
const COMMANDS = {
  frac: "frac", dfrac: "frac", tfrac: "frac", sqrt: "sqrt",
  cdot: "*", times: "*", div: "/", infty: "inf", pm: "pm",
  le: "<=", leq: "<=", ge: ">=", geq: ">=", lt: "<", gt: ">",
};
const SPACES = [",", ";", "!", " ", ":"];
const WORDS = { sqrt: "sqrt", inf: "inf", infinity: "inf", infinito: "inf", pm: "pm" };
const OPS = ["<=", ">=", "+", "-", "*", "/", "^", "(", ")", "{", "}", "[", "]", ";", ",", "=", "<", ">"];
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isDigit = (c) => c !== undefined && c >= "0" && c <= "9";
const isLetter = (c) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
const tok = (kind, text, value = ZERO, decimals = -1) => ({ kind, text, value, decimals });

function stripSpaces(s) { return s.replace(/^ +/, "").replace(/ +$/, ""); }

export function prepare(text) {
  text = text.split("**").join("^");
  let out = "";
  for (const ch of text) out += has(SUPERSCRIPTS, ch) ? ch : has(CHARS, ch) ? CHARS[ch] : ch;
  return stripSpaces(out);
}

function tokens(text, lang, letters, joins) {
  if ([...text].length > MAX_INPUT) throw new Unread("too_long");
  let s = prepare(text);
  if (s.endsWith(".") && !s.endsWith("..")) s = s.slice(0, -1).replace(/ +$/, "");
  const spanish = lang.split("-")[0].toLowerCase() === "es";
  const found = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === " ") i += 1;
    else if (isDigit(c)) i = lexNumber(s, i, spanish, found);
    else if (has(SUPERSCRIPTS, c)) i = lexSuperscript(s, i, found);
    else if (c === "\\") i = lexCommand(s, i, found);
    else if (isLetter(c)) i = lexWord(s, i, letters, joins, found);
    else {
      const op = OPS.find((o) => s.startsWith(o, i));
      if (op === undefined) throw new Unread("unreadable");
      found.push(tok("op", op));
      i += op.length;
    }
  }
  return found;
}

function digitsEnd(s, i) { while (i < s.length && isDigit(s[i])) i += 1; return i; }

function lexNumber(s, start, spanish, found) {
  let end = digitsEnd(s, start);
  const whole = s.slice(start, end);
  let fraction = "";
  let mark = end < s.length ? s[end] : "";
  const follows = end + 1 < s.length && isDigit(s[end + 1]);
  if ((mark === "," || mark === ".") && follows) {
    const after = digitsEnd(s, end + 1);
    const digits = s.slice(end + 1, after);
    if (spanish && mark === "." && digits.length === 3 && whole.replace(/^0+/, "") !== "") {
      throw new Unread("ambiguous_point");
    }
    if (!spanish && mark === ",") {
      if (digits.length === 3) throw new Unread("ambiguous_comma");
      mark = "";
    }
    if (mark) {
      fraction = digits;
      end = after;
      const again = end + 1 < s.length && (s[end] === "," || s[end] === ".") && isDigit(s[end + 1]);
      if (again && (spanish || s[end] === ".")) throw new Unread("unreadable");
    }
  }
  if (whole.length + fraction.length > MAX_DIGITS) throw new Unread("too_long");
  const scale = 10n ** BigInt(fraction.length);
  const value = Q(BigInt(whole) * scale + (fraction ? BigInt(fraction) : 0n), scale);
  found.push(tok("num", s.slice(start, end), value, fraction ? fraction.length : -1));
  return end;
}

function lexSuperscript(s, i, found) {
  let run = "";
  while (i < s.length && has(SUPERSCRIPTS, s[i])) { run += SUPERSCRIPTS[s[i]]; i += 1; }
  const sign = run[0] === "+" || run[0] === "-" ? run[0] : "";
  const digits = run.slice(sign.length);
  if (!/^[0-9]+$/.test(digits) || digits.length > MAX_DIGITS) throw new Unread("unreadable");
  found.push(tok("op", "^"), tok("op", "("));
  if (sign) found.push(tok("op", sign));
  found.push(tok("num", digits, Q(BigInt(digits))), tok("op", ")"));
  return i;
}

function lexCommand(s, i, found) {
  let j = i + 1;
  while (j < s.length && isLetter(s[j])) j += 1;
  const name = s.slice(i + 1, j);
  if (!name) {
    if (j < s.length && SPACES.includes(s[j])) return j + 1;
    throw new Unread("unknown_command");
  }
  if (name === "left" || name === "right") return j < s.length && s[j] === "." ? j + 1 : j;
  if (!has(COMMANDS, name)) throw new Unread("unknown_command");
  const kind = COMMANDS[name];
  found.push(["frac", "sqrt", "inf", "pm"].includes(kind) ? tok(kind, kind) : tok("op", kind));
  return j;
}

function lexWord(s, i, letters, joins, found) {
  let j = i;
  while (j < s.length && isLetter(s[j])) j += 1;
  const word = s.slice(i, j);
  const lower = word.toLowerCase();
  if (word.length === 1 || [...word].every((c) => letters.has(c))) {
    for (const c of word) found.push(tok("letter", c));
  } else if (has(WORDS, lower)) found.push(tok(WORDS[lower], WORDS[lower]));
  else if (joins.has(lower)) found.push(tok("join", lower));
  else throw new Unread("unknown_word");
  if (word.length === 1 && joins.has(lower) && !letters.has(word)) found[found.length - 1] = tok("join", lower);
  return j;
}

// ---- reader (check/answers/reader.py) ---------------------------------------
const ATOM_START = ["num", "letter", "frac", "sqrt"];

class Parser {
  constructor(found) {
    if (found.length > MAX_TOKENS) throw new Unread("too_long");
    this.tokens = found; this.i = 0; this.depth = 0;
  }
  peek() { return this.i < this.tokens.length ? this.tokens[this.i] : null; }
  at(text) { const t = this.peek(); return t !== null && t.kind === "op" && t.text === text; }
  take() { const t = this.peek(); if (t === null) throw new Unread("unreadable"); this.i += 1; return t; }
  expect(text) { if (!this.at(text)) throw new Unread("unreadable"); this.i += 1; }
  done() { return this.i >= this.tokens.length; }
  enter() { this.depth += 1; if (this.depth > MAX_DEPTH) throw new Unread("too_long"); }
  expr() {
    this.enter();
    let node;
    if (this.at("-")) { this.i += 1; node = { k: "neg", a: this.term() }; }
    else { if (this.at("+")) this.i += 1; node = this.term(); }
    while (this.at("+") || this.at("-")) {
      const op = this.take().text;
      node = { k: "bin", op, l: node, r: this.term() };
    }
    this.depth -= 1;
    return node;
  }
  term() {
    let node = this.factor();
    let divided = false;
    for (;;) {
      if (this.at("*") || this.at("/")) {
        const op = this.take().text;
        node = { k: "bin", op, l: node, r: this.factor() };
        divided = op === "/";
      } else if (this.startsAtom()) {
        if (divided) throw new Unread("ambiguous_division");
        const t = this.peek();
        if (t !== null && t.kind === "num" && endsInNumber(node)) throw new Unread("unreadable");
        node = { k: "bin", op: "*", l: node, r: this.factor() };
      } else return node;
    }
  }
  startsAtom() {
    const t = this.peek();
    if (t === null) return false;
    return ATOM_START.includes(t.kind) || (t.kind === "op" && (t.text === "(" || t.text === "{"));
  }
  factor() {
    if (this.at("-") || this.at("+")) {
      const negative = this.take().text === "-";
      this.enter();
      const inner = this.factor();
      this.depth -= 1;
      return negative ? { k: "neg", a: inner } : inner;
    }
    return this.power();
  }
  power() {
    const base = this.atom();
    if (this.at("^")) { this.i += 1; return { k: "pow", b: base, e: this.exponent() }; }
    return base;
  }
  exponent() {
    this.enter();
    let node;
    if (this.at("-") || this.at("+")) {
      const negative = this.take().text === "-";
      const inner = this.exponent();
      node = negative ? { k: "neg", a: inner } : inner;
    } else {
      const base = this.atom();
      if (this.at("^")) { this.i += 1; node = { k: "pow", b: base, e: this.exponent() }; }
      else node = base;
    }
    this.depth -= 1;
    return node;
  }
  atom() {
    this.enter();
    const t = this.take();
    let node;
    if (t.kind === "num") node = { k: "num", v: t.value, dec: t.decimals };
    else if (t.kind === "letter") node = { k: "letter", name: t.text };
    else if (t.kind === "op" && (t.text === "(" || t.text === "{")) {
      node = this.expr();
      this.expect(t.text === "(" ? ")" : "}");
    } else if (t.kind === "frac") {
      const top = this.group();
      node = { k: "bin", op: "/", l: top, r: this.group() };
    } else if (t.kind === "sqrt") {
      let index = null;
      if (this.at("[")) { this.i += 1; index = this.expr(); this.expect("]"); }
      node = { k: "root", a: this.at("{") || this.at("(") ? this.group() : this.atom(), index };
    } else throw new Unread("unreadable");
    this.depth -= 1;
    return node;
  }
  group() {
    const opener = this.take();
    if (opener.kind !== "op" || (opener.text !== "{" && opener.text !== "(")) throw new Unread("unreadable");
    const node = this.expr();
    this.expect(opener.text === "{" ? "}" : ")");
    return node;
  }
}

function endsInNumber(node) {
  while (node.k === "bin" && node.op === "*") node = node.r;
  return node.k === "num";
}

function readExpression(found) {
  const parser = new Parser(found);
  if (parser.done()) throw new Unread("empty");
  const node = parser.expr();
  if (!parser.done()) throw new Unread(parser.at(",") || parser.at(";") ? "one_value" : "unreadable");
  return node;
}

function splitItems(found) {
  const items = [[]];
  let depth = 0;
  for (const t of found) {
    if (t.kind === "op" && ["(", "{", "["].includes(t.text)) depth += 1;
    else if (t.kind === "op" && [")", "}", "]"].includes(t.text)) depth -= 1;
    if (depth === 0 && (t.kind === "join" || (t.kind === "op" && (t.text === "," || t.text === ";")))) items.push([]);
    else items[items.length - 1].push(t);
  }
  return items;
}

// ---- values (check/answers/values.py) ----------------------------------------
const UNDEFINED = "undefined", NO_REAL = "no-real", UNCHECKABLE = "uncheckable", LETTER = "letter";

function value(node) {
  switch (node.k) {
    case "num": return node.v;
    case "letter": return LETTER;
    case "neg": { const v = value(node.a); return isQ(v) ? qneg(v) : v; }
    case "bin": {
      const l = value(node.l); if (!isQ(l)) return l;
      const r = value(node.r); if (!isQ(r)) return r;
      return arithmetic(node.op, l, r);
    }
    case "pow": {
      const b = value(node.b); if (!isQ(b)) return b;
      const e = value(node.e); if (!isQ(e)) return e;
      return power(b, e);
    }
    default: {
      const r = value(node.a); if (!isQ(r)) return r;
      const index = node.index === null ? Q(2n) : value(node.index);
      if (!isQ(index)) return index;
      if (index.d !== 1n || index.n < 2n) return UNCHECKABLE;
      return power(r, Q(1n, index.n));
    }
  }
}

function arithmetic(op, l, r) {
  if (op === "/" && r.n === 0n) return UNDEFINED;
  const result = op === "+" ? qadd(l, r) : op === "-" ? qsub(l, r) : op === "*" ? qmul(l, r) : qdiv(l, r);
  return bounded(result);
}

function bounded(x) { return bitLength(x.n) + bitLength(x.d) > MAX_BITS ? UNCHECKABLE : x; }

function exactRoot(number, degree) {
  if (degree === 1n || number === 1n) return number;
  const bits = BigInt(bitLength(number));
  let root = 1n << ((bits + degree - 1n) / degree);
  for (;;) {
    const lower = ((degree - 1n) * root + number / root ** (degree - 1n)) / degree;
    if (lower >= root) break;
    root = lower;
  }
  return root ** degree === number ? root : null;
}

function exactPower(base, e) { // pizarra.math.exact.rational.exact_power
  const p = e.n, q = e.d;
  if (base.n === 0n || abs(p) > BigInt(MAX_EXPONENT) || q > BigInt(MAX_ROOT_INDEX)) return null;
  if (base.n < 0n && q % 2n === 0n) return null;
  const bits = BigInt(bitLength(base.n) + bitLength(base.d));
  if (bits * abs(p) > BigInt(MAX_BITS) * q) return null;
  const rn = exactRoot(abs(base.n), q), rd = exactRoot(base.d, q);
  if (rn === null || rd === null) return null;
  const result = qpowInt(Q(rn, rd), p);
  return base.n < 0n && abs(p) % 2n === 1n ? qneg(result) : result;
}

function power(base, e) {
  if (base.n === 0n) {
    if (e.n > 0n) return ZERO;
    return e.n < 0n ? UNDEFINED : UNCHECKABLE;
  }
  if (base.n < 0n && e.d % 2n === 0n) return e.d <= BigInt(MAX_ROOT_INDEX) ? NO_REAL : UNCHECKABLE;
  if (abs(e.n) > BigInt(MAX_EXPONENT)) return UNCHECKABLE;
  const result = exactPower(base, e);
  return result === null ? UNCHECKABLE : result;
}

// ---- algebra (check/answers/algebra.py) --------------------------------------
// A term: {mono: [[letter, Q], ...] sorted by letter, c: Q}; a sum: Map key -> term.
const monoKey = (mono) => mono.map(([x, e]) => `${x}:${qstr(e)}`).join(",");
const constant = (c) => (c.n === 0n ? new Map() : new Map([["", { mono: [], c }]]));
const ONE = constant(ONE_Q);
function polyEq(a, b) {
  if (a.size !== b.size) return false;
  for (const [k, t] of a) { const u = b.get(k); if (!u || !qeq(u.c, t.c)) return false; }
  return true;
}
function coefficient(c) { const v = bounded(c); if (!isQ(v)) throw new Outside(); return v; }
function terms(p) { if (p.size > MAX_TERMS) throw new Outside(); return p; }
function padd(a, b, sign = 1) {
  const result = new Map(a);
  for (const [k, t] of b) {
    const old = result.get(k);
    const total = qadd(old ? old.c : ZERO, sign === 1 ? t.c : qneg(t.c));
    if (total.n === 0n) result.delete(k);
    else result.set(k, { mono: t.mono, c: coefficient(total) });
  }
  return terms(result);
}
function makeMono(exponents) {
  for (const e of exponents.values()) if (qcmp(Q(abs(e.n), e.d), Q(BigInt(MAX_LETTER_EXPONENT))) > 0) throw new Outside();
  return [...exponents.entries()].filter(([, e]) => e.n !== 0n).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
}
function monoMul(a, b) {
  const exponents = new Map(a);
  for (const [x, e] of b) exponents.set(x, qadd(exponents.get(x) || ZERO, e));
  return makeMono(exponents);
}
function pmul(a, b) {
  if (a.size * b.size > MAX_TERMS * MAX_TERMS) throw new Outside();
  const result = new Map();
  for (const ta of a.values()) {
    for (const tb of b.values()) {
      const mono = monoMul(ta.mono, tb.mono);
      const k = monoKey(mono);
      const old = result.get(k);
      const total = qadd(old ? old.c : ZERO, qmul(ta.c, tb.c));
      if (total.n === 0n) result.delete(k);
      else result.set(k, { mono, c: coefficient(total) });
    }
  }
  return terms(result);
}
const single = (mono, c) => new Map([[monoKey(mono), { mono, c }]]);
const INVERTIBLE = ["nonzero", "positive"];
function invertible(mono, domains) {
  return mono.every(([x, e]) => domains[x] === "positive" || (domains[x] === "nonzero" && e.d === 1n));
}
function monoPower(mono, r, domains) {
  const exponents = new Map();
  for (const [x, a] of mono) {
    const domain = domains[x], result = qmul(a, r);
    if (domain === "positive") { /* any rational power */ }
    else if (r.d === 1n) {
      if (result.n < 0n && !(domain === "nonzero" && result.d === 1n)) return null;
    } else if (!(domain === "nonnegative" && a.n > 0n && r.n > 0n)) return null;
    exponents.set(x, result);
  }
  return makeMono(exponents);
}
function only(p) { return p.values().next().value; }

function quotient(node, domains) {
  switch (node.k) {
    case "num": return [constant(node.v), ONE];
    case "letter": return [single([[node.name, ONE_Q]], ONE_Q), ONE];
    case "neg": { const [n, d] = quotient(node.a, domains); return [padd(new Map(), n, -1), d]; }
    case "bin": {
      const a = quotient(node.l, domains), b = quotient(node.r, domains);
      if (node.op === "+" || node.op === "-") {
        const sign = node.op === "+" ? 1 : -1;
        if (polyEq(a[1], b[1])) return [padd(a[0], b[0], sign), a[1]];
        return [padd(pmul(a[0], b[1]), pmul(b[0], a[1]), sign), pmul(a[1], b[1])];
      }
      if (node.op === "*") return normal(pmul(a[0], b[0]), pmul(a[1], b[1]), domains);
      if (b[0].size === 0) throw new Outside(UNDEFINED);
      return normal(pmul(a[0], b[1]), pmul(a[1], b[0]), domains);
    }
    case "pow": {
      const e = value(node.e);
      if (!isQ(e)) throw new Outside(e === UNDEFINED ? UNDEFINED : "uncheckable");
      return qpower(quotient(node.b, domains), e, domains);
    }
    default: {
      const index = node.index === null ? Q(2n) : value(node.index);
      if (!isQ(index) || index.d !== 1n || index.n < 2n) throw new Outside();
      return qpower(quotient(node.a, domains), Q(1n, index.n), domains);
    }
  }
}

function normal(n, d, domains) {
  if (d.size === 1) {
    const { mono, c } = only(d);
    if (invertible(mono, domains)) {
      const inverse = monoPower(mono, Q(-1n), domains);
      return [pmul(n, single(inverse, qdiv(ONE_Q, c))), ONE];
    }
  }
  return [n, d];
}

function qpower(base, r, domains) {
  let [n, d] = base;
  if (polyEq(d, ONE) && n.size === 1) {
    const { mono, c } = only(n);
    const factor = power(c, r);
    if (!isQ(factor)) throw new Outside(factor === UNDEFINED ? UNDEFINED : "uncheckable");
    if (r.n === 0n && mono.length && !invertible(mono, domains)) throw new Outside();
    const result = monoPower(mono, r, domains);
    if (result !== null) return [factor.n !== 0n ? single(result, coefficient(factor)) : new Map(), ONE];
    if (r.d === 1n && r.n < 0n) {
      const positive = monoPower(mono, qneg(r), domains);
      if (positive !== null) return [ONE, single(positive, coefficient(qdiv(ONE_Q, factor)))];
    }
    throw new Outside();
  }
  if (r.d !== 1n || abs(r.n) > BigInt(MAX_POWER) || r.n === 0n) throw new Outside();
  let times = r.n;
  if (times < 0n) {
    if (n.size === 0) throw new Outside(UNDEFINED);
    [n, d] = [d, n];
    times = -times;
  }
  let top = ONE, bottom = ONE;
  for (let k = 0n; k < times; k += 1n) { top = pmul(top, n); bottom = pmul(bottom, d); }
  return normal(top, bottom, domains);
}

function lead(p, letters) {
  let best = null, bestKey = null;
  for (const t of p.values()) {
    const exps = new Map(t.mono);
    const key = letters.map((x) => exps.get(x) || ZERO);
    if (bestKey === null || compareKeys(key, bestKey) > 0) { best = t; bestKey = key; }
  }
  return best;
}
function compareKeys(a, b) {
  for (let i = 0; i < a.length; i += 1) { const c = qcmp(a[i], b[i]); if (c) return c; }
  return 0;
}

function equivalent(expected, answer, domains) {
  const [ne, de] = expected, [na, da] = answer;
  if (padd(pmul(ne, da), pmul(na, de), -1).size) return false;
  if (polyEq(da, ONE)) return true;
  const letters = Object.keys(domains).sort();
  const la = lead(da, letters), le = lead(de, letters);
  const ratioExponents = new Map(la.mono);
  for (const [x, e] of le.mono) ratioExponents.set(x, qsub(ratioExponents.get(x) || ZERO, e));
  const ratio = makeMono(ratioExponents);
  const scale = qdiv(la.c, le.c);
  if (padd(da, pmul(de, single(ratio, scale)), -1).size) return null;
  return ratio.every(([x]) => INVERTIBLE.includes(domains[x])) ? true : null;
}

// ---- common (check/answers/common.py) ----------------------------------------
const J = (verdict, code = "", feedback = "") => ({ verdict, code, feedback });
const CORRECT = J("correct");
const BLANKS = ".\u00a0\u2009\u202f\u2007";

function words(text) {
  let plain = "";
  for (const c of text.toLowerCase().normalize("NFD")) {
    if (c >= "\u0300" && c <= "\u036f") continue;
    plain += c <= " " || BLANKS.includes(c) ? " " : c;
  }
  return plain.split(" ").filter((p) => p).join(" ");
}
const blank = (text) => prepare(text) === "";
function special(text, key) {
  const said = words(text);
  for (const name of ["undefined", "no-real"]) if (key.words[name].includes(said)) return name;
  return null;
}
const readTokens = (text, key) =>
  tokens(text, key.lang, new Set(Object.keys(key.letters || {})), new Set(key.words.joins));

function isPlainNumber(node) {
  if (node.k === "neg") node = node.a;
  if (node.k === "num") return true;
  return node.k === "bin" && node.op === "/" && isInteger(node.l) && isInteger(node.r);
}
function isInteger(node) { if (node.k === "neg") node = node.a; return node.k === "num" && node.dec < 0; }
function hasDecimal(node) {
  switch (node.k) {
    case "num": return node.dec >= 0;
    case "neg": return hasDecimal(node.a);
    case "bin": return hasDecimal(node.l) || hasDecimal(node.r);
    case "pow": return hasDecimal(node.b) || hasDecimal(node.e);
    case "root": return hasDecimal(node.a) || (node.index !== null && hasDecimal(node.index));
    default: return false;
  }
}
function negativeExponent(node) {
  switch (node.k) {
    case "pow": {
      const e = value(node.e);
      if (isQ(e) && e.n < 0n) return true;
      return negativeExponent(node.b) || negativeExponent(node.e);
    }
    case "neg": return negativeExponent(node.a);
    case "bin": return negativeExponent(node.l) || negativeExponent(node.r);
    case "root": return negativeExponent(node.a);
    default: return false;
  }
}
const unsigned = (node) => (node.k === "neg" ? node.a : node);
function formProblem(node, forms) {
  for (const form of forms) {
    if (form === "no-negative-exponents" && negativeExponent(node)) return "form_negative_exponents";
    if (["evaluated", "simplified", "fraction", "decimal"].includes(form) && !isPlainNumber(node)) return "form_evaluated";
    const u = unsigned(node);
    if ((form === "simplified" || form === "fraction") && u.k === "bin") {
      const top = value(u.l), bottom = value(u.r);
      if (qeq(bottom, ONE_Q) || bottom.n < 0n || qdiv(top, bottom).d !== abs(bottom.n)) return "form_simplified";
    }
    if (form === "fraction" && hasDecimal(node)) return "form_fraction";
    if (form === "decimal" && u.k !== "num") return "form_decimal";
  }
  return "";
}
function guard(fn) {
  try { return fn(); } catch (e) { if (e instanceof Unread) return J("unread", e.code); throw e; }
}

// ---- number ----------------------------------------------------------------------
function readNumber(text, key) {
  const said = special(text, key);
  if (said !== null) return [null, said];
  const node = readExpression(readTokens(text, key));
  return [node, value(node)];
}
function decimals(node) {
  if (node !== null && node.k === "neg") node = node.a;
  return node !== null && node.k === "num" ? node.dec : -1;
}
function same(key, answer, target, targetNode) {
  if (isQ(answer) && isQ(target) && key.approx) {
    const places = BigInt(Math.max(decimals(targetNode), 0));
    const diff = qsub(answer, target);
    return qcmp(qmul(Q(abs(diff.n), diff.d), Q(2n * 10n ** places)), ONE_Q) <= 0;
  }
  if (isQ(answer) && isQ(target)) return qeq(answer, target);
  return answer === target;
}
function judgeNumber(key, text) {
  if (blank(text)) return J("unread", "empty");
  return guard(() => {
    const [node, answer] = readNumber(text, key);
    if (answer === LETTER) return J("unread", "unknown_letter");
    if (answer === UNCHECKABLE) return J("unchecked", "cannot_check");
    const [targetNode, target] = readNumber(key.value[0], key);
    if (node !== null && (answer === UNDEFINED || answer === NO_REAL)) return J("incorrect", "input_" + answer.replace("-", "_"));
    if (same(key, answer, target, targetNode)) {
      if (node === null) return CORRECT;
      if (key.approx && decimals(node) >= 0 && decimals(node) < decimals(targetNode)) return J("incorrect", "more_digits");
      const problem = formProblem(node, key.form);
      return problem ? J("incorrect", problem) : CORRECT;
    }
    const places = decimals(node);
    if (key.approx && isQ(answer) && places >= 0 && places < decimals(targetNode)) {
      const diff = qsub(answer, target);
      if (qcmp(qmul(Q(abs(diff.n), diff.d), Q(2n * 10n ** BigInt(places))), ONE_Q) <= 0) return J("incorrect", "more_digits");
    }
    for (const m of key.mistakes) {
      let read;
      try { read = readNumber(m.answer[0], key); } catch (e) { if (e instanceof Unread) continue; throw e; }
      if (same(key, answer, read[1], read[0])) return J("incorrect", "", m.feedback);
    }
    return J("incorrect");
  });
}

// ---- expression --------------------------------------------------------------------
function letters(node) {
  switch (node.k) {
    case "letter": return new Set([node.name]);
    case "neg": return letters(node.a);
    case "bin": return new Set([...letters(node.l), ...letters(node.r)]);
    case "pow": return new Set([...letters(node.b), ...letters(node.e)]);
    case "root": return new Set([...letters(node.a), ...(node.index !== null ? letters(node.index) : [])]);
    default: return new Set();
  }
}
function readLetters(text, key) {
  const node = readExpression(readTokens(text, key));
  for (const x of letters(node)) if (!has(key.letters, x)) throw new Unread("unknown_letter");
  return node;
}
function judgeExpression(key, text) {
  if (blank(text)) return J("unread", "empty");
  return guard(() => {
    const node = readLetters(text, key);
    const domains = key.letters;
    const target = quotient(readLetters(key.value[0], key), domains);
    let sameValue;
    let answer;
    try {
      answer = quotient(node, domains);
      sameValue = equivalent(target, answer, domains);
    } catch (e) {
      if (!(e instanceof Outside)) throw e;
      return e.reason === UNDEFINED ? J("incorrect", "input_undefined") : J("unchecked", "cannot_check");
    }
    if (sameValue === null) return J("unchecked", "cannot_check");
    if (sameValue) { const problem = formProblem(node, key.form); return problem ? J("incorrect", problem) : CORRECT; }
    for (const m of key.mistakes) {
      try {
        const wrong = quotient(readLetters(m.answer[0], key), domains);
        if (equivalent(wrong, answer, domains) !== false) return J("incorrect", "", m.feedback);
      } catch (e) { if (e instanceof Unread || e instanceof Outside) continue; throw e; }
    }
    return J("incorrect");
  });
}

// ---- choice ---------------------------------------------------------------------------
function judgeChoice(key, text) {
  const picked = text.split(",").map(stripSpaces).filter((p) => p);
  if (!picked.length) return J("unread", "choose");
  if (picked.some((p) => !key.options.includes(p)) || new Set(picked).size !== picked.length) return J("unread", "unknown_option");
  if (!key.several && picked.length > 1) return J("unread", "choose_one");
  const sameSet = (a, b) => a.length === new Set(b).size && a.every((x) => b.includes(x)) && new Set(a).size === a.length;
  if (sameSet(picked, key.value)) return CORRECT;
  for (const m of key.mistakes) if (sameSet(picked, m.answer)) return J("incorrect", "", m.feedback);
  const target = new Set(key.value);
  if (key.several && picked.every((p) => target.has(p)) && picked.length < target.size) return J("incorrect", "missing_items");
  return J("incorrect");
}

// ---- set and list ------------------------------------------------------------------
function items(text, key) {
  const nodes = [];
  const parts = splitItems(readTokens(text, key));
  if (parts.length > MAX_ITEMS) throw new Unread("too_long");
  for (let part of parts) {
    part = unnamed(part, key);
    if (!part.length) throw new Unread("unreadable");
    if (part.length && part[0].kind === "pm") {
      const node = readExpression(part.slice(1));
      nodes.push(node, { k: "neg", a: node });
    } else nodes.push(readExpression(part));
  }
  return nodes;
}
function unnamed(part, key) {
  if (part.length >= 2 && part[0].kind === "letter" && part[1].kind === "op" && part[1].text === "=") {
    if (!has(key.letters || {}, part[0].text)) throw new Unread("unknown_letter");
    return part.slice(2);
  }
  return part;
}
function itemValues(nodes) {
  const found = [];
  for (const node of nodes) {
    const v = value(node);
    if (v === LETTER) return J("unread", "unknown_letter");
    if (v === UNDEFINED || v === NO_REAL) return J("incorrect", "input_" + v.replace("-", "_"));
    if (!isQ(v)) return J("unchecked", "cannot_check");
    found.push(qstr(v));
  }
  return found;
}
const setOf = (xs) => new Set(xs);
const setEq = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const subset = (a, b) => a.size < b.size && [...a].every((x) => b.has(x));
function sameItems(key, a, b) {
  if (key.type === "list") return a.length === b.length && a.every((x, i) => x === b[i]);
  return setEq(setOf(a), setOf(b));
}
function judgeCollection(key, text) {
  if (blank(text)) return J("unread", "empty");
  return guard(() => {
    const nodes = items(text, key);
    const answer = itemValues(nodes);
    if (!Array.isArray(answer)) return answer;
    const target = itemValues(items(key.value.join(";"), key));
    if (sameItems(key, answer, target)) {
      for (const node of nodes) { const problem = formProblem(node, key.form); if (problem) return J("incorrect", problem); }
      return CORRECT;
    }
    for (const m of key.mistakes) {
      let wrong;
      try { wrong = itemValues(items(m.answer.join(";"), key)); } catch (e) { if (e instanceof Unread) continue; throw e; }
      if (Array.isArray(wrong) && sameItems(key, answer, wrong)) return J("incorrect", "", m.feedback);
    }
    if (key.type === "list" && [...answer].sort().join(" ") === [...target].sort().join(" ")) return J("incorrect", "wrong_order");
    if (subset(setOf(answer), setOf(target))) return J("incorrect", "missing_items");
    if (subset(setOf(target), setOf(answer))) return J("incorrect", "extra_items");
    return J("incorrect");
  });
}

// ---- interval ----------------------------------------------------------------------
const OPEN = { "(": false, "[": true, "]": false }, CLOSE = { ")": false, "]": true, "[": false };
const RELATIONS = ["<", "<=", ">", ">="];
class Verdict { constructor(judgement) { this.judgement = judgement; } }
function endpoint(part, signOfInfinity) {
  const signs = part.slice(0, -1).map((t) => t.text);
  if (part.length && part[part.length - 1].kind === "inf" && signs.every((s) => s === "+" || s === "-") && signs.length <= 1) {
    const negative = signs.length === 1 && signs[0] === "-";
    if ((negative ? -1 : 1) !== signOfInfinity) throw new Verdict(J("incorrect", "empty_interval"));
    return null;
  }
  const v = value(readExpression(part));
  if (v === LETTER) throw new Unread("unknown_letter");
  if (v === UNDEFINED || v === NO_REAL) throw new Verdict(J("incorrect", "input_" + v.replace("-", "_")));
  if (!isQ(v)) throw new Verdict(J("unchecked", "cannot_check"));
  return v;
}
const isOp = (t, list) => t.kind === "op" && list.includes(t.text);
function brackets(found) {
  const first = found[0], last = found[found.length - 1];
  if (first.kind !== "op" || !has(OPEN, first.text) || last.kind !== "op" || !has(CLOSE, last.text)) throw new Unread("unreadable");
  const inner = found.slice(1, -1);
  let depth = 0, cut = -1;
  inner.forEach((t, i) => {
    if (isOp(t, ["(", "{"])) depth += 1;
    else if (isOp(t, [")", "}"])) depth -= 1;
    else if (depth === 0 && isOp(t, [",", ";"])) {
      if (cut >= 0) throw new Unread("unreadable");
      cut = i;
    }
  });
  if (cut < 0) throw new Unread("two_endpoints");
  const low = endpoint(inner.slice(0, cut), -1), high = endpoint(inner.slice(cut + 1), 1);
  const lowClosed = OPEN[first.text], highClosed = CLOSE[last.text];
  if ((low === null && lowClosed) || (high === null && highClosed)) throw new Verdict(J("incorrect", "closed_infinity"));
  return { low, lowClosed, high, highClosed };
}
function inequality(found, key) {
  const pieces = [[]], relations = [];
  for (const t of found) {
    if (isOp(t, RELATIONS)) { relations.push(t.text); pieces.push([]); }
    else pieces[pieces.length - 1].push(t);
  }
  const isLetterPiece = (p) => p.length === 1 && p[0].kind === "letter" && has(key.letters || {}, p[0].text);
  if (pieces.length === 3 && isLetterPiece(pieces[1]) && relations[0][0] === relations[1][0]) {
    let low = pieces[0], high = pieces[2], rels = relations;
    if (relations[0][0] === ">") {
      [low, high] = [high, low];
      rels = [...relations].reverse().map((r) => ({ ">": "<", ">=": "<=" })[r]);
    }
    const a = endpoint(low, -1), b = endpoint(high, 1);
    return { low: a, lowClosed: rels[0] === "<=", high: b, highClosed: rels[1] === "<=" };
  }
  if (pieces.length === 2 && (isLetterPiece(pieces[0]) || isLetterPiece(pieces[1]))) {
    let relation = relations[0], bound;
    if (isLetterPiece(pieces[1])) {
      relation = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" }[relation];
      bound = pieces[0];
    } else bound = pieces[1];
    if (relation[0] === ">") return { low: endpoint(bound, -1), lowClosed: relation === ">=", high: null, highClosed: false };
    return { low: null, lowClosed: false, high: endpoint(bound, 1), highClosed: relation === "<=" };
  }
  throw new Unread("unreadable");
}
function readInterval(text, key) {
  const found = readTokens(text, key);
  if (!found.length) throw new Unread("empty");
  if (found.some((t) => isOp(t, RELATIONS))) return inequality(found, key);
  return brackets(found);
}
const endEq = (a, b) => (a === null || b === null ? a === b : qeq(a, b));
const intervalEq = (a, b) => endEq(a.low, b.low) && a.lowClosed === b.lowClosed && endEq(a.high, b.high) && a.highClosed === b.highClosed;
function judgeInterval(key, text) {
  if (blank(text)) return J("unread", "empty");
  let answer;
  try { answer = readInterval(text, key); } catch (e) {
    if (e instanceof Unread) return J("unread", e.code);
    if (e instanceof Verdict) return e.judgement;
    throw e;
  }
  const target = readInterval(key.value[0], key);
  if (intervalEq(answer, target)) return CORRECT;
  for (const m of key.mistakes) {
    try { if (intervalEq(readInterval(m.answer[0], key), answer)) return J("incorrect", "", m.feedback); } catch (e) {
      if (e instanceof Unread || e instanceof Verdict) continue;
      throw e;
    }
  }
  if (endEq(answer.low, target.low) && endEq(answer.high, target.high)) return J("incorrect", "endpoints_closed");
  return J("incorrect");
}

const JUDGES = {
  number: judgeNumber, expression: judgeExpression, choice: judgeChoice,
  set: judgeCollection, list: judgeCollection, interval: judgeInterval,
};

/** The verdict on `text` typed into the field whose key is `key`. */
export function judge(key, text) {
  return JUDGES[key.type](key, text);
}

// ---- the page -------------------------------------------------------------------------
function storageKey() { return "pizarra-answers:" + location.pathname; }
function load() {
  try { return JSON.parse(localStorage.getItem(storageKey()) || "{}") || {}; } catch { return {}; }
}
function save(saved) {
  try { localStorage.setItem(storageKey(), JSON.stringify(saved)); } catch { /* storage refused: keep going */ }
}

function statusText(strings, result) {
  const first = strings[result.verdict];
  const why = result.feedback || (result.code ? strings["code_" + result.code] || "" : "");
  return why ? `${first} ${why}` : first;
}

/** Puts words in a status region so that a screen reader reads them even when they repeat.
 * A live region is read when its text changes, and the same verdict again is no change: the
 * region is emptied, stays empty for one rendered frame (a single frame's callback would run
 * before that frame is rendered), and then gets the words. */
function announcer(region) {
  let frame = 0;
  return (words) => {
    cancelAnimationFrame(frame);
    if (region.textContent !== words) { region.textContent = words; return; }
    region.textContent = "";
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => { region.textContent = words; });
    });
  };
}

function enhance() {
  const stringsEl = document.querySelector("script[data-answer-strings]");
  const blocks = document.querySelectorAll("[data-answers]");
  if (!stringsEl || !blocks.length) return;
  const strings = JSON.parse(stringsEl.textContent);
  const saved = load();
  const fields = [];
  for (const block of blocks) {
    const keyEl = block.querySelector("script[data-answer-key]");
    if (!keyEl) continue;
    for (const key of JSON.parse(keyEl.textContent)) {
      const root = block.querySelector(`[data-answer-field="${key.id}"]`);
      if (!root) continue;
      const status = root.querySelector("[data-answer-status]");
      const input = root.querySelector("input[type=text]");
      const typed = () => input ? input.value
        : [...root.querySelectorAll("input:checked")].map((el) => el.value).join(",");
      const announce = announcer(status);
      const show = (text, remember) => {
        const result = judge(key, text);
        announce(statusText(strings, result));
        root.dataset.verdict = result.verdict;
        if (remember) { saved[key.id] = text; save(saved); }
      };
      root.querySelector("[data-answer-check]").addEventListener("click", () => show(typed(), true));
      if (input) input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") { event.preventDefault(); show(typed(), true); }
      });
      if (typeof saved[key.id] === "string") {
        const text = saved[key.id];
        if (input) input.value = text;
        else for (const el of root.querySelectorAll("input")) el.checked = text.split(",").includes(el.value);
        show(text, false);
      }
      fields.push({ root, input, announce });
    }
    block.hidden = false;
  }
  const reset = document.createElement("p");
  reset.className = "answers-reset";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = strings.reset;
  const done = document.createElement("span");
  done.setAttribute("role", "status");
  const announceDone = announcer(done);
  button.addEventListener("click", () => {
    for (const id of Object.keys(saved)) delete saved[id];
    try { localStorage.removeItem(storageKey()); } catch { /* nothing kept */ }
    for (const { root, input, announce } of fields) {
      if (input) input.value = "";
      for (const el of root.querySelectorAll("input[type=radio], input[type=checkbox]")) el.checked = false;
      announce("");
      delete root.dataset.verdict;
    }
    announceDone(strings.reset_done);
  });
  reset.append(button, " ", done);
  const last = blocks[blocks.length - 1].closest("section") || blocks[blocks.length - 1];
  last.after(reset);
}

if (typeof document !== "undefined") enhance();
