// What every view shares: image pickers with a row of samples, debouncing and status lines.

/** The bundled samples, served beside the page. */
export const samples = [
  { file: 'samples/astronaut.jpg', label: 'Astronaut portrait' },
  { file: 'samples/camera.jpg', label: 'Photographer with a camera, grayscale' },
  { file: 'samples/coins.jpg', label: 'Coins, no face' },
  { file: 'samples/horse.png', label: 'Horse silhouette, no face' },
];

/**
 * Wires a drop zone, its file input and a row of sample buttons to `onImage(blob, name)`.
 * Samples are fetched from this page's origin, never from anywhere else.
 */
export function imagePicker({ drop, input, samplesRow, onImage }) {
  input.addEventListener('change', () => {
    const file = input.files[0];
    if (file) onImage(file, file.name);
  });
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const file = event.dataTransfer.files[0];
    if (file) onImage(file, file.name);
  });
  drop.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); input.click(); }
  });
  for (const sample of samples) {
    const button = document.createElement('button');
    button.type = 'button';
    button.title = sample.label;
    button.dataset.sample = sample.file;
    const image = document.createElement('img');
    image.src = sample.file;
    image.alt = sample.label;
    button.append(image);
    button.addEventListener('click', async () => {
      const response = await fetch(sample.file);
      onImage(await response.blob(), sample.file.split('/').pop());
    });
    samplesRow.append(button);
  }
}

/** Calls `fn` once the calls stop for `ms`. */
export function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** Shows a status line, as an error when `isError`. */
export function status(element, text, isError = false) {
  element.textContent = text;
  element.classList.toggle('error', isError);
}
