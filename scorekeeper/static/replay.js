// The replay: the arrow keys step back and forth (Home and End to the first and last
// step), through the same links a tap follows; never while typing in a field.
(() => {
  "use strict";
  const KEYS = {ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last"};
  document.addEventListener("keydown", (event) => {
    const name = KEYS[event.key];
    if (!name || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey
        || event.target.closest("input, select, textarea, [contenteditable]")) {
      return;
    }
    const link = document.querySelector(`#replay a[data-step="${name}"]`);
    if (link) {
      event.preventDefault();
      link.click();
    }
  });
})();
