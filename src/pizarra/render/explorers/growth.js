// pizarra growth explorer: enhances the server-rendered markup; no dependencies.
// The server sends every state's exact numbers as plain decimal strings; this
// script only formats them with Intl.NumberFormat (CLDR, as the server does)
// and writes them into the elements the server already filled.

const FIELD = /\{([^{}]*)\}/g;
const ANNOUNCE_DELAY_MS = 600;

function fill(template, values) {
  return template.replace(FIELD, (whole, name) =>
    Object.hasOwn(values, name) ? values[name] : whole);
}

function enhance(root) {
  const script = root.querySelector("script[data-explorer-data]");
  const range = root.querySelector("input.px-range");
  if (!script || !range || root.dataset.enhanced) return;
  root.dataset.enhanced = "true";
  const data = JSON.parse(script.textContent);
  const format = new Intl.NumberFormat(data.lang, { maximumFractionDigits: data.decimals });
  const label = root.querySelector("label.px-label");
  const valueOut = root.querySelector("[data-value]");
  const summary = root.querySelector("[data-summary]");
  const live = root.querySelector("[data-live]");
  const markerLine = root.querySelector("[data-marker]");
  const dots = Array.from(root.querySelectorAll("[data-dot]"));
  const outputs = data.readouts.map((r) => [r, root.querySelector(`[data-readout="${r.id}"]`)]);
  const rows = Array.from(root.querySelectorAll("tbody tr"));
  const links = Array.from(root.querySelectorAll(".px-states a"));
  let timer = 0;

  function texts(state) {
    const result = {};
    for (const r of data.readouts) {
      const text = format.format(state.readouts[r.id]);
      result[r.id] = r.kind === "growth" ? text + data.times : text;
    }
    return result;
  }

  function show(index, announce = true) {
    const state = data.states[index];
    if (!state) return;
    const value = format.format(state.value);
    const values = texts(state);
    const sentence = fill(data.summary, values);
    range.setAttribute("aria-valuetext", fill(data.valuetext, { value }));
    valueOut.textContent = value;
    for (const [r, el] of outputs) if (el) el.textContent = values[r.id];
    summary.textContent = sentence;
    markerLine.style.transform = `translate(${state.x}px, 0px)`;
    dots.forEach((dot, i) => {
      dot.style.transform = `translate(${state.x}px, ${state.ys[i]}px)`;
    });
    links.forEach((link, i) => {
      if (i === index) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
    rows.forEach((row, i) => {
      const current = i === index;
      row.classList.toggle("px-current", current);
      if (current) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
      const mark = row.querySelector("[data-mark]");
      if (mark) mark.textContent = current ? data.mark : "";
    });
    clearTimeout(timer);
    if (announce) timer = setTimeout(() => { live.textContent = sentence; }, ANNOUNCE_DELAY_MS);
  }

  function writeUrl() {
    const url = new URL(window.location.href);
    const value = data.states[Number(range.value) - data.low].value;
    if (value === data.initial) url.searchParams.delete(data.name);
    else url.searchParams.set(data.name, value);
    url.hash = root.id;
    window.history.replaceState(window.history.state, "", url);
  }
  range.addEventListener("input", () => {
    show(Number(range.value) - data.low);
    writeUrl();
  });
  // A shared link (?n=2048) opens its state even where no server rendered it; else a
  // restored form (back button) may hold another value than the server rendered.
  const asked = data.states.findIndex(
    (s) => s.value === new URLSearchParams(window.location.search).get(data.name));
  if (asked >= 0) range.value = String(asked + data.low);
  show(Number(range.value) - data.low, false);
  root.querySelector(".px-nojs").hidden = true;
  range.hidden = false;
  label.htmlFor = range.id;
}

export function enhanceAll(doc = document) {
  doc.querySelectorAll('[data-explorer="growth"]').forEach(enhance);
}

enhanceAll();
