// Loaded as a classic script in <head>, before the first paint: html[data-theme] is "dark" or
// "light" before anything is drawn, so a dark room never flashes white.  The choice made with
// the header's switch wins; without one the page follows the system's prefers-color-scheme,
// also when it changes (a phone switching to night mode at the table).
(function () {
  var root = document.documentElement;
  var query = window.matchMedia ? matchMedia("(prefers-color-scheme: dark)") : null;
  function chosen() {
    try { return localStorage.getItem("scc:theme"); } catch (e) { return null; }
  }
  function apply() {
    var theme = chosen();
    if (theme !== "light" && theme !== "dark") theme = query && query.matches ? "dark" : "light";
    root.dataset.theme = theme;
  }
  apply();
  if (query && query.addEventListener) query.addEventListener("change", apply);
})();
