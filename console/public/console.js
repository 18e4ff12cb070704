// The console's little script; every page works without it. It follows an import's progress without reloading the
// page, and marks today in the month view.
(() => {
  const job = document.getElementById('import-job');
  if (job) {
    const url = job.getAttribute('data-status-url');
    const state = document.getElementById('job-state');
    const bar = document.getElementById('job-progress');
    const tick = async () => {
      let status;
      try {
        const answer = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
        if (!answer.ok) return setTimeout(tick, 2000);
        status = await answer.json();
      } catch {
        return setTimeout(tick, 2000);
      }
      if (status.state === 'running') {
        state.textContent = `Importing: ${status.phase} (phase ${status.phase_number} of ${status.phases}), ${status.records} records read.`;
        bar.value = status.phase_number;
        for (const li of job.querySelectorAll('.phases li')) {
          const index = [...li.parentNode.children].indexOf(li) + 1;
          li.className = index < status.phase_number ? 'done' : index === status.phase_number ? 'current' : '';
        }
        setTimeout(tick, 500);
      } else {
        // The finished page holds the whole report, rendered by the server.
        window.location.reload();
      }
    };
    const running = job.querySelector('#job-state')?.textContent?.startsWith('Importing');
    if (running) setTimeout(tick, 300);
  }
  const today = new Date().toISOString().slice(0, 10);
  for (const cell of document.querySelectorAll('table.month td')) {
    const day = cell.querySelector('.day');
    if (cell.dataset.date === today && day) cell.setAttribute('aria-current', 'date');
  }
})();
