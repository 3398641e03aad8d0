// Page behaviour, kept out of the HTML so the site can send a strict Content-Security-Policy.
//   <form data-confirm="Question?">   asks before submitting
//   <button data-print>               prints the page
//   <select data-autosubmit>          submits its form when changed
//   <button data-add-row="prefix">   adds a row to the formset `prefix` in the page, from
//                                     <template id="prefix-empty"> into #prefix-rows, up to its
//                                     MAX_NUM_FORMS (without JavaScript it submits and the server adds it)
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

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-add-row]");
    if (!button || !button.form) {
      return;
    }
    var prefix = button.dataset.addRow;
    var total = button.form.querySelector('[name="' + prefix + '-TOTAL_FORMS"]');
    var most = button.form.querySelector('[name="' + prefix + '-MAX_NUM_FORMS"]');
    var template = document.getElementById(prefix + "-empty");
    var rows = document.getElementById(prefix + "-rows");
    if (!total || !most || !template || !rows) {
      return; // the server adds the row
    }
    event.preventDefault();
    var count = parseInt(total.value, 10);
    var bound = parseInt(most.value, 10);
    if (count < bound) {
      var html = template.innerHTML.replace(/__prefix__/g, String(count)).replace(/__number__/g, String(count + 1));
      rows.insertAdjacentHTML("beforeend", html);
      total.value = String(count + 1);
      var first = rows.lastElementChild && rows.lastElementChild.querySelector("input, select");
      if (first) {
        first.focus();
      }
    }
    if (count + 1 >= bound) {
      button.classList.add("d-none");
      var note = document.getElementById(prefix + "-bound");
      if (note) {
        note.classList.remove("d-none");
      }
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
