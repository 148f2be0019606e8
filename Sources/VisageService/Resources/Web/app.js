// The page's entry point: the tabs, then each view.
import { setUpPhoto } from './photo.js';
import { setUpContourArt } from './contours.js';
import { setUpCamera } from './camera.js';

/** Tabs with the keyboard behaviour of the ARIA tabs pattern: arrows move, Home and End jump. */
function setUpTabs() {
  const tabs = [...document.querySelectorAll('[role=tab]')];
  const select = (tab, focus) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
    }
    if (focus) tab.focus();
    history.replaceState(null, '', `#${tab.id.replace('tab-', '')}`);
    document.dispatchEvent(new CustomEvent('visage:view', { detail: tab.id }));
  };
  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (event) => {
      const index = tabs.indexOf(tab);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], true);
    });
  }
  const fromHash = () => {
    const tab = tabs.find((candidate) => candidate.id === `tab-${window.location.hash.slice(1)}`);
    if (tab && tab.getAttribute('aria-selected') !== 'true') select(tab, false);
  };
  window.addEventListener('hashchange', fromHash);
  fromHash();
}

setUpTabs();
setUpPhoto();
setUpContourArt();
setUpCamera();
