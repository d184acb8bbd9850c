// A button with data-print prints the page (the Content-Security-Policy allows no inline handlers).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
