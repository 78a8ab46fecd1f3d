// pizarra: apply the reader's saved theme before the first paint, so no page flashes the
// wrong one. Loaded without defer in <head>; site.js wires the switch that saves it.
try {
  const theme = localStorage.getItem("pizarra-theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
} catch {
  // Storage may be disabled; the page then follows the system setting.
}
