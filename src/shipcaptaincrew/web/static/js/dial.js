// The table's line, dialled while the page is still loading: a classic script that the server
// puts inline in the head of a table's page (web/pages/release.py), so the WebSocket's opening round
// trip runs alongside the download of the page's script instead of after it.  It only opens
// the socket; line.js takes it over (or dials again if it closed meanwhile) and says hello.
(function () {
  var m = location.pathname.match(/^\/r\/([^/]+)/);
  if (!m || !window.WebSocket) return;
  var code = encodeURIComponent(decodeURIComponent(m[1]).toUpperCase());
  try {
    window.sccLine = new WebSocket((location.protocol === "https:" ? "wss" : "ws") + "://" + location.host + "/ws/rooms/" + code);
  } catch (e) { /* line.js dials itself */ }
})();
