/* Wall displays that page through long lists and reload themselves when a result or pairing changes.
   No inline handlers: everything is bound here, from data attributes (print buttons: site.js). */
(function () {
  "use strict";

  var wall = document.querySelector("[data-wall]");
  if (!wall) { return; }

  // Paging: one page of rows at a time, turning every `data-turn` seconds.
  var pages = Array.prototype.slice.call(wall.querySelectorAll(".wall-page"));
  var counter = wall.querySelector("[data-page-counter]");
  var current = 0;
  function show(index) {
    pages.forEach(function (page, i) { page.hidden = i !== index; });
    if (counter) { counter.textContent = pages.length > 1 ? "Page " + (index + 1) + " of " + pages.length : ""; }
  }
  if (pages.length > 1) {
    show(0);
    window.setInterval(function () {
      current = (current + 1) % pages.length;
      show(current);
    }, 1000 * (parseInt(wall.dataset.turn, 10) || 12));
  }

  // Refreshing: poll the cheap version address; reload when it no longer matches the page's.
  var version = wall.dataset.version;
  var url = wall.dataset.versionUrl;
  var every = 1000 * (parseInt(wall.dataset.poll, 10) || 5);
  function poll() {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && data.version && data.version !== version) { window.location.reload(); return; }
        window.setTimeout(poll, every);
      })
      .catch(function () { window.setTimeout(poll, every); });  // the hall's network may drop: keep trying
  }
  window.setTimeout(poll, every);
})();
