// Applies the stored theme before the app loads, so a dark-mode user never sees a white flash.
(function () {
  try {
    var stored = JSON.parse(localStorage.getItem('switchboard.preferences') || '{}');
    var theme = (stored.state && stored.state.theme) || 'system';
    var dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch {
    /* private mode or corrupt storage: fall back to the light theme */
  }
})();
