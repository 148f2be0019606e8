// The photo view: POST /v1/faces, then the faces drawn in layers and described face by face.
import * as api from './api.js';
import { imagePicker, debounce, status } from './ui.js';

const features = ['landmarks', 'contours', 'classify', 'quality', 'mesh'];
const closedRegions = new Set(['leftEye', 'rightEye', 'outerLips', 'innerLips']);
const closedContours = new Set(['face', 'leftEye', 'rightEye']);
const colors = { box: '#0b7a75', keypoint: '#0b7a75', landmarks: '#d9480f', contours: '#7048e8', mesh: '#1c7ed6', iris: '#e8590c' };

const $ = (id) => document.getElementById(id);

export function setUpPhoto() {
  const canvas = $('photo-canvas');
  const state = { blob: null, name: null, bitmap: null, record: null, controller: null };

  const options = () => ({
    mode: $('photo-mode').value,
    minFaceSize: Number($('photo-min-face').value).toFixed(2),
    maxFaces: $('photo-max-faces').value,
    features,
  });

  const layers = () => Object.fromEntries(
    [...$('photo-layers').querySelectorAll('input')].map((input) => [input.name, input.checked]));

  async function analyse() {
    if (!state.blob) return;
    state.controller?.abort();
    const controller = new AbortController();
    state.controller = controller;
    status($('photo-status'), `Finding faces in ${state.name}…`);
    $('photo-curl').textContent = api.curl('v1/faces', options(), state.name, state.blob.type);
    const started = performance.now();
    try {
      const record = await api.faces(state.blob, options(), controller.signal);
      if (controller.signal.aborted) return;
      state.record = record;
      const elapsed = performance.now() - started;
      const count = record.faces.length;
      status($('photo-status'), count === 0
        ? `No face found in ${state.name} (${record.width}×${record.height}).`
        : `${count === 1 ? '1 face' : `${count} faces`} found in ${state.name} (${record.width}×${record.height}), `
          + `${elapsed.toFixed(0)} ms round trip.`);
      render(record);
    } catch (error) {
      if (error.name === 'AbortError') return;
      state.record = null;
      status($('photo-status'), describe(error), true);
      $('photo-json').textContent = '';
      $('photo-faces').replaceChildren();
      canvas.dataset.faces = '';
    }
  }

  const describe = (error) => api.describe(error);

  function render(record) {
    $('photo-json').textContent = JSON.stringify(record, null, 2);
    draw(canvas, state.bitmap, record, layers());
    canvas.dataset.faces = String(record.faces.length);
    canvas.setAttribute('aria-label', summary(record));
    $('photo-caption').textContent = state.bitmap ? '' : 'The browser cannot show this format; the faces are drawn on a blank of its size.';
    $('photo-faces').replaceChildren(...record.faces.map(facePanel));
    const rows = (record.timings ?? []).map(({ stage, milliseconds }) => {
      const row = document.createElement('tr');
      row.innerHTML = '<td></td><td></td>';
      row.cells[0].textContent = stage;
      row.cells[1].textContent = milliseconds.toFixed(2);
      return row;
    });
    $('photo-timings').tBodies[0].replaceChildren(...rows);
  }

  async function load(blob, name) {
    state.blob = blob;
    state.name = name;
    try {
      state.bitmap = await createImageBitmap(blob);
    } catch {
      state.bitmap = null;
    }
    analyse();
  }

  imagePicker({ drop: $('photo-drop'), input: $('photo-file'), samplesRow: $('photo-samples'), onImage: load });
  const rerun = debounce(analyse, 250);
  $('photo-options').addEventListener('input', () => {
    $('photo-min-face-value').textContent = Number($('photo-min-face').value).toFixed(2);
    rerun();
  });
  $('photo-options').addEventListener('submit', (event) => event.preventDefault());
  $('photo-layers').addEventListener('change', () => {
    if (state.record) draw(canvas, state.bitmap, state.record, layers());
  });
  $('photo-curl-copy').addEventListener('click', () => navigator.clipboard?.writeText($('photo-curl').textContent));
}

/** Words for the canvas, so the overlay has a text alternative. */
function summary(record) {
  if (record.faces.length === 0) return `Photo of ${record.width}×${record.height} pixels with no face found`;
  const faces = record.faces.map((face, index) => {
    const f = face.frame;
    return `face ${index + 1} at x ${Math.round(f.x)}, y ${Math.round(f.y)}, ${Math.round(f.width)} by ${Math.round(f.height)} pixels`;
  });
  return `Photo of ${record.width}×${record.height} pixels with ${faces.join('; ')}`;
}

/** Draws the photo and the chosen layers at the photo's own size; CSS scales the canvas to fit. */
export function draw(canvas, bitmap, record, layers) {
  canvas.width = record.width;
  canvas.height = record.height;
  const context = canvas.getContext('2d');
  context.fillStyle = '#e9ecef';
  context.fillRect(0, 0, canvas.width, canvas.height);
  if (bitmap) context.drawImage(bitmap, 0, 0, record.width, record.height);
  const scale = Math.max(1, Math.max(record.width, record.height) / 640);
  context.lineWidth = 1.5 * scale;
  for (const face of record.faces) {
    if (layers.mesh && face.mesh) {
      context.fillStyle = colors.mesh;
      for (const p of face.mesh.slice(0, 468)) context.fillRect(p.x - 0.8 * scale, p.y - 0.8 * scale, 1.6 * scale, 1.6 * scale);
    }
    if (layers.landmarks && face.landmarks) {
      for (const [name, points] of Object.entries(face.landmarks)) {
        polyline(context, points, closedRegions.has(name), colors.landmarks, name.endsWith('Pupil') ? 2.5 * scale : 0);
      }
    }
    if (layers.contours && face.contours) {
      for (const [name, points] of Object.entries(face.contours)) {
        polyline(context, points, closedContours.has(name), colors.contours, points.length === 1 ? 2.5 * scale : 0);
      }
    }
    if (layers.irises && face.mesh && face.mesh.length >= 478) {
      for (const center of [468, 473]) {
        const ring = face.mesh.slice(center + 1, center + 5);
        const c = face.mesh[center];
        const radius = ring.reduce((sum, p) => sum + Math.hypot(p.x - c.x, p.y - c.y), 0) / ring.length;
        context.strokeStyle = colors.iris;
        context.beginPath();
        context.arc(c.x, c.y, radius, 0, 2 * Math.PI);
        context.stroke();
      }
    }
    if (layers.boxes) {
      const f = face.frame;
      context.strokeStyle = colors.box;
      context.lineWidth = 2.5 * scale;
      context.strokeRect(f.x, f.y, f.width, f.height);
      context.lineWidth = 1.5 * scale;
      context.fillStyle = colors.keypoint;
      for (const p of Object.values(face.keypoints)) {
        context.beginPath();
        context.arc(p.x, p.y, 3 * scale, 0, 2 * Math.PI);
        context.fill();
      }
    }
  }
}

function polyline(context, points, closed, color, dotRadius) {
  context.strokeStyle = color;
  context.fillStyle = color;
  if (dotRadius > 0) {
    for (const p of points) {
      context.beginPath();
      context.arc(p.x, p.y, dotRadius, 0, 2 * Math.PI);
      context.fill();
    }
    return;
  }
  context.beginPath();
  points.forEach((p, index) => (index === 0 ? context.moveTo(p.x, p.y) : context.lineTo(p.x, p.y)));
  if (closed) context.closePath();
  context.stroke();
}

/** One face's panel: angles, probabilities, quality and the blendshapes as sorted bars. */
function facePanel(face, index) {
  const panel = document.createElement('article');
  panel.className = 'face';
  panel.setAttribute('aria-label', `Face ${index + 1}`);
  const title = document.createElement('h3');
  title.textContent = `Face ${index + 1} · confidence ${face.confidence.toFixed(2)}`;
  const facts = document.createElement('dl');
  const add = (term, value) => {
    if (value === undefined || value === null) return;
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    facts.append(dt, dd);
  };
  const degrees = (value) => `${value.toFixed(1)}°`;
  add('roll', degrees(face.roll));
  add('yaw', degrees(face.yaw));
  add('pitch', degrees(face.pitch));
  add('smiling', face.smilingProbability?.toFixed(2));
  add('left eye open', face.leftEyeOpenProbability?.toFixed(2));
  add('right eye open', face.rightEyeOpenProbability?.toFixed(2));
  add('capture quality', face.captureQuality?.toFixed(2));
  panel.append(title, facts);
  if (face.blendshapes) {
    const heading = document.createElement('h4');
    heading.textContent = `Blendshapes (${Object.keys(face.blendshapes).length}, ARKit names)`;
    const list = document.createElement('ul');
    list.className = 'bars';
    list.setAttribute('aria-label', `Blendshapes of face ${index + 1}, strongest first`);
    const sorted = Object.entries(face.blendshapes).sort((a, b) => b[1] - a[1]);
    for (const [name, value] of sorted) {
      const item = document.createElement('li');
      item.dataset.blendshape = name;
      item.dataset.value = String(value);
      const label = document.createElement('span');
      label.textContent = name;
      const bar = document.createElement('span');
      bar.className = 'bar';
      bar.setAttribute('role', 'meter');
      bar.setAttribute('aria-valuemin', '0');
      bar.setAttribute('aria-valuemax', '1');
      bar.setAttribute('aria-valuenow', value.toFixed(3));
      bar.setAttribute('aria-label', name);
      const fill = document.createElement('span');
      fill.style.width = `${Math.max(0, Math.min(1, value)) * 100}%`;
      bar.append(fill);
      const number = document.createElement('span');
      number.className = 'value';
      number.textContent = value.toFixed(3);
      item.append(label, bar, number);
      list.append(item);
    }
    panel.append(heading, list);
  }
  return panel;
}
