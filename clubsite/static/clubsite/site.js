// Page behaviour, kept out of the HTML so the site can send a strict Content-Security-Policy.
//   <form data-confirm="Question?">   asks before submitting
//   <button data-print>               prints the page
//   <select data-autosubmit>          submits its form when changed
//   <div data-progress-url="…">       a progress bar that follows a JSON {progress, status_display,
//                                     error, finished} and reloads the page when finished
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) {
      window.print();
    }
  });

  document.addEventListener("change", function (event) {
    var field = event.target.closest("[data-autosubmit]");
    if (field && field.form) {
      field.form.submit();
    }
  });

  function followProgress(box) {
    var bar = box.firstElementChild;
    var status = document.getElementById(box.dataset.statusId || "");
    var error = document.getElementById(box.dataset.errorId || "");
    function poll() {
      fetch(box.dataset.progressUrl, { headers: { Accept: "application/json" } })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          bar.style.width = data.progress + "%";
          bar.textContent = data.progress + "%";
          box.setAttribute("aria-valuenow", data.progress);
          if (status) { status.textContent = data.status_display; }
          if (error && data.error) { error.textContent = data.error; error.classList.remove("d-none"); }
          if (data.finished) { window.location.reload(); } else { window.setTimeout(poll, 1000); }
        })
        .catch(function () { window.setTimeout(poll, 3000); });
    }
    window.setTimeout(poll, 1000);
  }

  document.querySelectorAll("[data-progress-url]").forEach(followProgress);
})();
