/* Files sent with the answer (loaded by attach.js on first use): each file is POSTed as it is
   to /api/interactions/{id}/draft/files, where it stays with the draft until an answer
   sends it; Remove deletes it there. After each change the list is fetched again from the
   server, which renders it as on a reload. */
(function () {
  "use strict";
  var P = window.ChoicePortal, doc = document;

  function box() { return doc.querySelector("[data-answer-files]"); }
  function api() {
    return "/api/interactions/" + encodeURIComponent(P.interaction().dataset.interactionId) + "/draft/files";
  }
  function say(text, bad) {
    var status = box() && box().querySelector(".answer-files-status");
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("problem", !!bad);
  }
  function refresh() { return P.refreshFiles(); }
  function problem(response) {
    return response.json().then(function (body) {
      return (body.errors || [])[0] ? body.errors[0].message : response.statusText;
    }, function () { return response.statusText; });
  }
  /* null when sent, else what went wrong with this file */
  function send(file) {
    var name = file.name || "pasted.png", most = +box().dataset.maxBytes;
    if (most && file.size > most) {
      return Promise.resolve(P.t("{name} is larger than {mb} MB: send a smaller one.", { name: name, mb: Math.round(most / 1e6) }));
    }
    return fetch(api() + "?name=" + encodeURIComponent(name), {
      method: "POST", body: file, headers: { "Content-Type": file.type || "application/octet-stream" }
    }).then(function (response) {
      return response.ok ? null : problem(response).then(function (why) { return name + ": " + why; });
    }, function () { return P.t("{name} was not sent: the portal cannot be reached.", { name: name }); });
  }

  P.files = {
    add: function (files) {
      say(P.nt("Sending {n} file…", "Sending {n} files…", files.length));
      return files.reduce(function (chain, file) {
        return chain.then(function (problems) {
          return send(file).then(function (why) { return why ? problems.concat(why) : problems; });
        });
      }, Promise.resolve([])).then(function (problems) {
        say(problems.join(" "), true);
        return refresh();
      });
    },
    remove: function (id) {
      return fetch(api() + "/" + encodeURIComponent(id), { method: "DELETE" }).then(function (response) {
        return response.ok ? say("") : problem(response).then(function (why) { say(why, true); });
      }, function () {}).then(refresh);
    }
  };
})();
