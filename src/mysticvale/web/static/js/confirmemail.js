// The confirmation page of an e-mail address (/confirm-email#code=...), issue 22.  The code comes in
// the URL fragment, which browsers never send to a server, so it is in no access log; this script
// takes it out of the address bar at once and posts it when the person presses the button (a link
// preview that only fetches the page confirms nothing).  The texts are in the page, in its language.

const main = document.getElementById("confirm-email");
const text = document.getElementById("confirm-text");
const button = document.getElementById("confirm-btn");
const code = new URLSearchParams(location.hash.slice(1)).get("code");
if (location.hash) history.replaceState(null, "", location.pathname);

function say(key) {
  text.textContent = main.dataset[key];
  text.setAttribute("role", "status");
}

if (!code) {
  say("noCode");
  button.hidden = true;
} else {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const resp = await fetch("/api/people/email/confirm", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }),
      });
      if (resp.ok) { say("done"); button.hidden = true; return; }
      if (resp.status === 404 || resp.status === 422) { say("unknown"); button.hidden = true; return; }
      say("failed");
    } catch {
      say("failed");
    }
    button.disabled = false;
  });
}
