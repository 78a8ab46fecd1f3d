// pizarra: progressive enhancements shared by every page. Each works on markup the server
// already rendered complete, so the page is whole without this script.

const THEME_KEY = "pizarra-theme";

function themeSwitch() {
  const select = document.querySelector("[data-theme-switch]");
  if (!select) return;
  const root = document.documentElement;
  select.value = root.dataset.theme || "auto";
  select.addEventListener("change", () => {
    const theme = select.value;
    if (theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = theme;
    try {
      if (theme === "auto") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Without storage the choice lasts for this page only.
    }
  });
  select.closest("label").hidden = false;
}

function copyButtons() {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const code = button.closest(".cell")?.querySelector(".cell-code code");
    if (!code || !navigator.clipboard) continue;
    const label = button.textContent;
    let timer = 0;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = button.dataset.copied;
      clearTimeout(timer);
      timer = setTimeout(() => { button.textContent = label; }, 2000);
    });
    button.hidden = false;
  }
}

let searchDialog = null;

function loadSearch(base) {
  return new Promise((resolve, reject) => {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = base + "pagefind/pagefind-ui.css";
    document.head.append(css);
    const script = document.createElement("script");
    script.src = base + "pagefind/pagefind-ui.js";
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  });
}

async function openSearch(link) {
  if (!searchDialog) {
    const base = new URL(link.dataset.search || "./", location.href).href;
    const dialog = document.createElement("dialog");
    dialog.className = "search-dialog";
    dialog.setAttribute("aria-labelledby", "search-title");
    const heading = document.createElement("h2");
    heading.id = "search-title";
    heading.textContent = link.dataset.searchTitle;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "search-close";
    close.textContent = link.dataset.searchClose;
    close.addEventListener("click", () => dialog.close());
    const box = document.createElement("div");
    box.id = "search";
    dialog.append(heading, close, box);
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    document.body.append(dialog);
    searchDialog = dialog;
    dialog.showModal();
    await loadSearch(base);
    new window.PagefindUI({
      element: box,
      bundlePath: base + "pagefind/",
      baseUrl: new URL(base).pathname,
      showSubResults: true,
      showImages: false,
      resetStyles: false,
      autofocus: true,
    });
    return;
  }
  searchDialog.showModal();
  searchDialog.querySelector("input")?.focus();
}

function search() {
  const link = document.querySelector("a[data-search]");
  if (!link) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = link.className;
  button.textContent = link.textContent;
  button.setAttribute("aria-haspopup", "dialog");
  Object.assign(button.dataset, link.dataset);
  button.addEventListener("click", () => openSearch(button));
  link.replaceWith(button);
}

themeSwitch();
copyButtons();
search();
