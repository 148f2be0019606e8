// The live view: camera frames over the /v1/track WebSocket, one in flight at a time, so the page sends
// only as fast as the server answers. Events drive a small player: no face pauses it, a face resumes
// it, and a wink skips back (left eye) or forward (right eye) 10 s.
import * as api from './api.js';
import { status } from './ui.js';

const $ = (id) => document.getElementById(id);
const sendWidth = 640;

export function setUpCamera() {
  const video = $('camera-video');
  const overlay = $('camera-overlay');
  const player = $('player');
  const grab = document.createElement('canvas');
  const state = { stream: null, socket: null, waiting: false, sentAt: 0, started: 0, replies: [], latency: 0, running: false };

  const say = (text, isError = false) => status($('camera-status'), text, isError);

  function log(text, kind) {
    const item = document.createElement('li');
    item.dataset.event = kind;
    const stamp = new Date().toLocaleTimeString();
    item.textContent = `${stamp}  ${text}`;
    $('camera-log').prepend(item);
    while ($('camera-log').children.length > 200) $('camera-log').lastChild.remove();
  }

  /** What the player does on each event; returns the log's words for it. */
  function react(event) {
    const at = `${event.time.toFixed(2)} s`;
    switch (event.event) {
      case 'faceDetected':
        player.play().catch(() => {});
        return `${at}  faceDetected: playing`;
      case 'noFaceDetected':
        player.pause();
        return `${at}  noFaceDetected: paused`;
      case 'blink':
        if (event.eye === 'left') {
          player.currentTime = Math.max(0, player.currentTime - 10);
          return `${at}  left wink (face ${event.trackingID}): back 10 s`;
        }
        if (event.eye === 'right') {
          player.currentTime = Math.min(player.duration || Infinity, player.currentTime + 10);
          return `${at}  right wink (face ${event.trackingID}): forward 10 s`;
        }
        return `${at}  blink (face ${event.trackingID})`;
      default: {
        const who = event.trackingID ? ` (face ${event.trackingID})` : '';
        return `${at}  ${event.event}${who}`;
      }
    }
  }

  function drawFaces(message) {
    const width = grab.width;
    const height = grab.height;
    overlay.width = width;
    overlay.height = height;
    const context = overlay.getContext('2d');
    context.clearRect(0, 0, width, height);
    context.lineWidth = 3;
    context.font = '16px system-ui, sans-serif';
    const mirrored = $('camera-mirrored').checked;
    for (const face of message.faces) {
      const f = face.frame;
      // The video is shown mirrored; the boxes follow it.
      const x = mirrored ? width - f.x - f.width : f.x;
      context.strokeStyle = '#12b886';
      context.strokeRect(x, f.y, f.width, f.height);
      context.fillStyle = '#12b886';
      context.fillText(`#${face.trackingID}`, x + 4, Math.max(16, f.y - 6));
    }
    overlay.setAttribute('aria-label', message.faces.length === 0 ? 'No faces tracked'
      : `Tracking ${message.faces.map((face) => `face ${face.trackingID}`).join(', ')}`);
    overlay.dataset.faces = String(message.faces.length);
  }

  function meter() {
    const now = performance.now();
    state.replies = state.replies.filter((t) => now - t < 3000);
    const fps = state.replies.length > 1 ? (state.replies.length - 1) / ((state.replies.at(-1) - state.replies[0]) / 1000) : 0;
    $('camera-meter').textContent = `${fps.toFixed(1)} fps · ${state.latency.toFixed(0)} ms`;
  }

  function sendFrame() {
    const { socket } = state;
    if (!state.running || state.waiting || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (video.readyState < 2 || video.videoWidth === 0) {
      setTimeout(sendFrame, 50);
      return;
    }
    const scale = Math.min(1, sendWidth / video.videoWidth);
    grab.width = Math.round(video.videoWidth * scale);
    grab.height = Math.round(video.videoHeight * scale);
    grab.getContext('2d').drawImage(video, 0, 0, grab.width, grab.height);
    state.waiting = true;
    grab.toBlob((blob) => {
      if (!blob || socket.readyState !== WebSocket.OPEN) { state.waiting = false; return; }
      state.sentAt = performance.now();
      socket.send(JSON.stringify({ time: (state.sentAt - state.started) / 1000 }));
      socket.send(blob);
    }, 'image/jpeg', 0.8);
  }

  function connect() {
    state.socket?.close(1000);
    const socket = new WebSocket(api.socketURL('v1/track'));
    socket.binaryType = 'arraybuffer';
    state.socket = socket;
    state.waiting = false;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({ mirrored: $('camera-mirrored').checked, debounce: 1 }));
      say('Tracking. Look away to pause the player; wink to skip.');
      sendFrame();
    });
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      const message = JSON.parse(event.data);
      if (message.error) {
        say(api.describe(new api.APIError(0, message.error.code, message.error.message)), true);
        state.waiting = false;
        return;
      }
      state.latency = performance.now() - state.sentAt;
      state.replies.push(performance.now());
      state.waiting = false;
      drawFaces(message);
      meter();
      for (const item of message.events ?? []) log(react(item), item.event);
      requestAnimationFrame(sendFrame);
    });
    socket.addEventListener('close', (event) => {
      if (state.socket !== socket) return;
      state.waiting = false;
      if (state.running) say(`The connection closed (${event.code}${event.reason ? `: ${event.reason}` : ''}).`, true);
    });
    socket.addEventListener('error', () => say('The tracking connection failed.', true));
  }

  async function start() {
    if (!navigator.mediaDevices?.getUserMedia) {
      say('This browser offers no camera here: cameras need https or localhost, and a browser that supports them.', true);
      return;
    }
    try {
      state.stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
    } catch (error) {
      const words = {
        NotAllowedError: 'Camera permission was refused. Allow the camera for this page and start again.',
        NotFoundError: 'No camera was found on this device.',
        NotReadableError: 'The camera is in use by another program.',
        OverconstrainedError: 'No camera offers a usable picture size.',
      };
      say(words[error.name] ?? `The camera could not be started: ${error.message}`, true);
      return;
    }
    video.srcObject = state.stream;
    video.classList.toggle('mirrored', $('camera-mirrored').checked);
    await video.play().catch(() => {});
    state.running = true;
    state.started = performance.now();
    $('camera-start').disabled = true;
    $('camera-stop').disabled = false;
    log('camera started', 'started');
    connect();
  }

  function stop() {
    state.running = false;
    state.socket?.close(1000);
    state.socket = null;
    for (const track of state.stream?.getTracks() ?? []) track.stop();
    state.stream = null;
    video.srcObject = null;
    $('camera-start').disabled = false;
    $('camera-stop').disabled = true;
    say('The camera is off.');
  }

  $('camera-start').addEventListener('click', start);
  $('camera-stop').addEventListener('click', stop);
  $('camera-mirrored').addEventListener('change', () => {
    video.classList.toggle('mirrored', $('camera-mirrored').checked);
    // Options are set when a connection opens: reconnect so left and right stay the subject's.
    if (state.running) connect();
  });
}
