// The contour-art view: sliders over POST /v1/contours, the SVG redrawn as they move.
import * as api from './api.js';
import { imagePicker, debounce, status } from './ui.js';

const $ = (id) => document.getElementById(id);

/** The request's query: a single DetectContoursRequest with an automatic pivot, or the art sweep. */
export function contourOptions(form) {
  const value = (name) => form.elements[name].value;
  const low = (a, b) => Math.min(Number(value(a)), Number(value(b)));
  const high = (a, b) => Math.max(Number(value(a)), Number(value(b)));
  const common = {
    detectsDarkOnLight: form.elements.detectsDarkOnLight.checked,
    maximumImageDimension: value('maximumImageDimension'),
    epsilon: value('epsilon'),
  };
  if (form.elements.autoPivot.checked) {
    return { ...common, contrastPivot: 'auto', contrastAdjustment: high('adjustMin', 'adjustMax') };
  }
  return {
    ...common,
    art: true,
    pivotRange: `${low('pivotMin', 'pivotMax')}...${high('pivotMin', 'pivotMax')}`,
    adjustRange: `${low('adjustMin', 'adjustMax')}...${high('adjustMin', 'adjustMax')}`,
    steps: value('steps'),
    iou: value('iou'),
  };
}

export function setUpContourArt() {
  const form = $('art-options');
  const state = { blob: null, name: null, svg: null, controller: null };

  async function render() {
    if (!state.blob) return;
    // A newer slider position makes the request in flight stale: cancel it.
    state.controller?.abort();
    const controller = new AbortController();
    state.controller = controller;
    const options = contourOptions(form);
    status($('art-status'), `Tracing ${state.name}…`);
    const started = performance.now();
    try {
      const response = await api.contours(state.blob, options, 'image/svg+xml', controller.signal);
      const svg = await response.text();
      if (controller.signal.aborted) return;
      state.svg = svg;
      const host = $('art-svg');
      host.innerHTML = svg;
      // One SVG path may hold many contours: count its subpaths (each starts with a move-to).
      const paths = [...host.querySelectorAll('path')].reduce((sum, path) => sum + (path.getAttribute('d').match(/M/gi) ?? []).length, 0)
        + host.querySelectorAll('polyline, polygon').length;
      const count = response.headers.get('X-Contour-Count') ?? String(paths);
      host.dataset.paths = String(paths);
      host.setAttribute('aria-label', `Contour art of ${state.name}: ${count} contours`);
      const serverTime = response.headers.get('Server-Timing');
      const total = serverTime?.match(/total;dur=([\d.]+)/)?.[1];
      $('art-caption').textContent = `${count} contours, ${(svg.length / 1024).toFixed(0)} KB of SVG; `
        + (total ? `${Number(total).toFixed(0)} ms on the server, ` : '')
        + `${(performance.now() - started).toFixed(0)} ms round trip.`;
      status($('art-status'), `Contour art of ${state.name}.`);
      $('art-download-svg').disabled = false;
      $('art-download-png').disabled = false;
    } catch (error) {
      if (error.name === 'AbortError') return;
      status($('art-status'), api.describe(error), true);
    }
  }

  async function download(accept, extension) {
    if (!state.blob) return;
    let blob;
    if (accept === 'image/svg+xml' && state.svg) {
      blob = new Blob([state.svg], { type: accept });
    } else {
      try {
        blob = await (await api.contours(state.blob, contourOptions(form), accept)).blob();
      } catch (error) {
        status($('art-status'), api.describe(error), true);
        return;
      }
    }
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `${state.name.replace(/\.[^.]+$/, '')}-contours.${extension}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  imagePicker({
    drop: $('art-drop'), input: $('art-file'), samplesRow: $('art-samples'),
    onImage: (blob, name) => { state.blob = blob; state.name = name; render(); },
  });
  const rerender = debounce(render, 200);
  form.addEventListener('input', (event) => {
    const output = form.querySelector(`output[for="${event.target.id}"]`);
    if (output) {
      const step = event.target.step;
      const digits = step.includes('.') ? step.split('.')[1].length : 0;
      output.textContent = Number(event.target.value).toFixed(digits);
    }
    rerender();
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  $('art-download-svg').addEventListener('click', () => download('image/svg+xml', 'svg'));
  $('art-download-png').addEventListener('click', () => download('image/png', 'png'));
}
