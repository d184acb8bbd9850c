// Pages that follow something live (a contest's board, a study's counts, a rehearsal) reload themselves
// every few seconds, and the reader can pause that (WCAG 2.2.1; a <meta http-equiv="refresh"> can't be
// paused). The box: <p data-refresh="SECONDS"> with a <button data-refresh-toggle> (templates/arena/_autorefresh.html).
(() => {
  const box = document.querySelector("[data-refresh]");
  if (!box) return;
  const seconds = Number(box.dataset.refresh);
  const button = box.querySelector("[data-refresh-toggle]");
  const key = `arena-refresh-paused:${location.pathname}`;
  let paused = sessionStorage.getItem(key) === "1";
  let timer = null;
  const arm = () => {
    clearTimeout(timer);
    if (!paused && seconds > 0) timer = setTimeout(() => location.reload(), seconds * 1000);
    button.textContent = paused ? "Resume refreshing" : "Pause refreshing";
  };
  button.addEventListener("click", () => {
    paused = !paused;
    sessionStorage.setItem(key, paused ? "1" : "0");
    arm();
  });
  arm();
})();
