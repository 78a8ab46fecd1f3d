// pizarra distribution explorer: enhances the server-rendered bars; no dependencies.
// Every state's probabilities arrive as plain decimals (already correctly rounded on
// the server); this script formats them with Intl (CLDR, as the server does), picks
// counted words with Intl.PluralRules, and writes the URL of the state.

const FIELD = /\{([^{}]*)\}/g;
const ANNOUNCE_DELAY_MS = 600;

function fill(template, values) {
  const once = template.replace(FIELD, (w, n) => (Object.hasOwn(values, n) ? values[n] : w));
  return once.replace(FIELD, (w, n) => (Object.hasOwn(values, n) ? values[n] : w));
}

function withUnit(text, unit) {
  return unit ? `${text}\u00a0${unit}` : text;
}

function enhance(root) {
  const script = root.querySelector("script[data-explorer-data]");
  const ranges = Array.from(root.querySelectorAll("input.px-range"));
  if (!script || !ranges.length || root.dataset.enhanced) return;
  root.dataset.enhanced = "true";
  const data = JSON.parse(script.textContent);
  const cache = new Map();
  const formats = (digits) => {
    if (!cache.has(digits)) {
      const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
      cache.set(digits, {
        number: new Intl.NumberFormat(data.lang, options),
        plural: new Intl.PluralRules(data.lang, options),
      });
    }
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

  const index = () =>
    ranges.reduce((acc, r, i) => acc * data.params[i].values.length + Number(r.value), 0);

  function writeUrl() {
    const url = new URL(window.location.href);
    const first = ranges.every((r, j) => Number(r.value) === initial[j]);
    data.params.forEach((p, i) => {
      if (first) url.searchParams.delete(p.name);
      else url.searchParams.set(p.name, p.values[Number(ranges[i].value)]);
    });
    url.hash = root.id;
    window.history.replaceState(window.history.state, "", url);
  }

  function words(state) {
    const out = {};
    data.params.forEach((p, i) => { out[p.name] = paramText(i); });
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

  function show(announce) {
    const state = data.states[index()];
    if (!state) return;
    ranges.forEach((range, i) => {
      const p = data.params[i];
      const text = paramText(i);
      range.setAttribute("aria-valuetext", text);
      root.querySelector(`[data-value="${p.name}"]`).textContent = text;
      range.closest(".px-input").querySelectorAll(".px-states a").forEach((link, j) => {
        if (j === Number(range.value)) link.setAttribute("aria-current", "true");
        else link.removeAttribute("aria-current");
      });
    });
    const values = words(state);
    for (const el of q("[data-readout]")) el.textContent = values[el.dataset.readout];
    const sentence = fill(data.texts.summary, values);
    summary.textContent = sentence;
    const percent = (i) => withUnit(formats(data.digits).number.format(state.percents[i]), "%");
    for (const el of q("[data-bar]")) el.setAttribute("width", state.bars[Number(el.dataset.bar)]);
    for (const el of q("[data-percent]")) el.textContent = percent(Number(el.dataset.percent));
    for (const el of q("[data-cell]")) {
      const [row, col] = el.dataset.cell.split("-").map(Number);
      el.textContent = col === 0
        ? formats(data.scoreDigits).number.format(state.scores[row])
        : percent(row);
    }
    clearTimeout(timer);
    if (announce) timer = setTimeout(() => { live.textContent = sentence; }, ANNOUNCE_DELAY_MS);
  }

  // A shared link (?T=0.5) opens its state even where no server rendered it.
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
  for (const range of ranges) range.hidden = false;
}

export function enhanceAll(doc = document) {
  doc.querySelectorAll('[data-explorer="distribution"]').forEach(enhance);
}

enhanceAll();
