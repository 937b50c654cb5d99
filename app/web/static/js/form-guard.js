// Every form of ours is sent by its page's script. Until that script has bound it, the
// browser would send it itself: the page again, with every field in the address (a
// password too). So the browser sends none; a <form method="dialog"> still closes its
// dialog. A classic script in <head>, so it runs before any form can be used.
document.addEventListener("submit", (event) => {
  if (event.target.method !== "dialog") event.preventDefault();
}, true);
