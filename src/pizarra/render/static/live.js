// pizarra serve: reload the page when a rebuild starts (the server answers the reload
// once it is done); show the errors of a build that failed while the page was open.
// While the last build failed the server puts the banner in every page it sends, so a
// reload or a new tab shows it too; this script styles it and keeps it current.
const STYLE =
  "position:fixed;inset:auto 0 0 0;max-height:50vh;overflow:auto;margin:0;padding:1rem;" +
  "background:#5b0d0d;color:#fff;font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;" +
  "z-index:1000";
let banner = document.querySelector("[data-pizarra-errors]");

function show(text) {
  if (!banner) {
    banner = document.createElement("div");
    banner.setAttribute("data-pizarra-errors", "");
    banner.setAttribute("role", "alert");
    document.body.append(banner);
  }
  banner.style.cssText = STYLE;
  banner.textContent = text;
}

if (banner) show(banner.textContent);
const source = new EventSource("/_pizarra/events");
source.addEventListener("reload", () => {
  source.close(); // the new page opens its own
  location.reload();
});
source.addEventListener("errors", (event) => show(event.data));
