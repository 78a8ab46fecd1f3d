// pizarra function explorer: enhances the server-rendered markup; no dependencies.
// The server sends every state's numbers as plain decimals and its shapes as SVG
// path data; this script formats the numbers with Intl (CLDR, as the server does),
// picks counted words with Intl.PluralRules, and writes the URL of the state.

const FIELD = /\{([^{}]*)\}/g;
const ANNOUNCE_DELAY_MS = 600;

function fill(template, values) {
  const once = template.replace(FIELD, (w, n) => (Object.hasOwn(values, n) ? values[n] : w));
  return once.replace(FIELD, (w, n) => (Object.hasOwn(values, n) ? values[n] : w));
}

function fixed(lang, digits) {
  const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return { number: new Intl.NumberFormat(lang, options), plural: new Intl.PluralRules(lang, options) };
}

function withUnit(text, unit) {
  return unit ? `${text}\u00a0${unit}` : text;
}

// What a state says in words: readouts, counted words, chosen texts (shared by kinds).
function words(data, state, formats) {
  const out = {};
  for (const r of data.texts.readouts) {
    out[r.id] = withUnit(formats(r.digits).number.format(state.readouts[r.id]), r.unit);
  }
  for (const w of data.texts.words) {
    const digits = data.texts.readouts.find((r) => r.id === w.count).digits;
    const category = formats(digits).plural.select(Number(state.readouts[w.count]));
    out[w.id] = Object.hasOwn(w.forms, category) ? w.forms[category] : w.forms.other;
  }
  for (const c of data.texts.choices) out[c.id] = c.texts[state.choices[c.id]];
  return out;
}

function enhance(root) {
  const script = root.querySelector("script[data-explorer-data]");
  const ranges = Array.from(root.querySelectorAll("input.px-range"));
  if (!script || !ranges.length || root.dataset.enhanced) return;
  root.dataset.enhanced = "true";
  const data = JSON.parse(script.textContent);
  const cache = new Map();
  const formats = (digits) => {
    if (!cache.has(digits)) cache.set(digits, fixed(data.lang, digits));
    return cache.get(digits);
  };
  const q = (s) => Array.from(root.querySelectorAll(s));
  const live = root.querySelector("[data-live]");
  const summary = root.querySelector("[data-summary]");
  const initial = data.initial;
  const paramFormats = data.params.map(
    (p) => new Intl.NumberFormat(data.lang, { maximumFractionDigits: p.digits }));
  const paramText = (i) => withUnit(
    paramFormats[i].format(data.params[i].values[Number(ranges[i].value)]), data.params[i].unit);
  let timer = 0;

  function index() {
    return ranges.reduce((acc, r, i) => acc * data.params[i].values.length + Number(r.value), 0);
  }

  function writeUrl() {
    const url = new URL(window.location.href);
    data.params.forEach((p, i) => {
      const value = Number(ranges[i].value);
      if (ranges.every((r, j) => Number(r.value) === initial[j])) url.searchParams.delete(p.name);
      else url.searchParams.set(p.name, p.values[value]);
    });
    url.hash = root.id;
    window.history.replaceState(window.history.state, "", url);
  }

  function show(announce) {
    const state = data.states[index()];
    if (!state) return;
    ranges.forEach((range, i) => {
      const p = data.params[i];
      const text = paramText(i);
      range.setAttribute("aria-valuetext", text);
      root.querySelector(`[data-value="${p.name}"]`).textContent = text;
      const links = range.closest(".px-input").querySelectorAll(".px-states a");
      links.forEach((link, j) => {
        if (j === Number(range.value)) link.setAttribute("aria-current", "true");
        else link.removeAttribute("aria-current");
      });
    });
    const values = words(data, state, formats);
    data.params.forEach((p, i) => { values[p.name] = paramText(i); });
    for (const el of q("[data-readout]")) el.textContent = values[el.dataset.readout];
    const sentence = fill(data.texts.summary, values);
    summary.textContent = sentence;
    for (const el of q("[data-path]")) el.setAttribute("d", state.paths[Number(el.dataset.path)]);
    for (const el of q("[data-label]")) el.setAttribute("y", state.labels[Number(el.dataset.label)]);
    for (const el of q("[data-mark]")) {
      const [x, y] = state.marks[Number(el.dataset.mark)];
      el.setAttribute("cx", x);
      el.setAttribute("cy", y);
    }
    for (const el of q("[data-cell]")) {
      const [row, col] = el.dataset.cell.split("-").map(Number);
      el.textContent = formats(data.columns[col]).number.format(state.cells[row][col]);
    }
    clearTimeout(timer);
    if (announce) timer = setTimeout(() => { live.textContent = sentence; }, ANNOUNCE_DELAY_MS);
  }

  // A shared link (?a=2.5) opens its state even where no server rendered it.
  const query = new URLSearchParams(window.location.search);
  data.params.forEach((p, i) => {
    const at = p.values.indexOf(query.get(p.name));
    if (at >= 0) ranges[i].value = String(at);
  });
  for (const range of ranges) {
    range.addEventListener("input", () => {
      show(true);
      writeUrl();
    });
  }
  show(false);
  for (const list of q(".px-nojs")) list.hidden = true;
  for (const range of ranges) {
    range.hidden = false;
    const label = root.querySelector(`label[for="${range.id}"]`);
    if (label) label.htmlFor = range.id;
  }
}

export function enhanceAll(doc = document) {
  doc.querySelectorAll('[data-explorer="function"]').forEach(enhance);
}

enhanceAll();
