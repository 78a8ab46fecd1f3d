// pizarra serve: reload the page when the site is rebuilt; show build errors in place.
const source = new EventSource("/_pizarra/events");
let banner = null;
source.addEventListener("reload", () => location.reload());
source.addEventListener("errors", (event) => {
  if (!banner) {
    banner = document.createElement("div");
    banner.setAttribute("role", "alert");
    banner.style.cssText =
      "position:fixed;inset:auto 0 0 0;max-height:50vh;overflow:auto;margin:0;padding:1rem;" +
      "background:#5b0d0d;color:#fff;font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;z-index:1000";
    document.body.append(banner);
  }
  banner.textContent = event.data;
});
