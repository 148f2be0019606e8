// The service's public API, as curl uses it. Every call is relative to the page's own origin.

/** An error the service answered, with its stable code and its message in words. */
export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Throws an APIError carrying the service's `{"error": {"code", "message"}}` body. */
async function failure(response) {
  let code = `http_${response.status}`;
  let message = `the service answered ${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && body.error) ({ code, message } = body.error);
  } catch { /* not JSON: keep the status line */ }
  return new APIError(response.status, code, message);
}

/** Words for an error, for the page's status lines. */
export function describe(error) {
  if (error.name === 'AbortError') return 'cancelled';
  if (error instanceof APIError) {
    const hints = {
      payload_too_large: 'The image is larger than the service accepts.',
      image_too_large: 'The image has more pixels than the service accepts.',
      unsupported_format: 'That file is not an image format Visage reads.',
      unsupported_media_type: 'That file is not an image format Visage reads.',
      overloaded: 'The service is busy; try again in a moment.',
      deadline_exceeded: 'The service took too long on this image.',
      unauthorized: 'The service needs an API key.',
    };
    return `${hints[error.code] ?? 'The image could not be analysed.'} (${error.code}: ${error.message})`;
  }
  return `The service could not be reached: ${error.message}`;
}

/** The query string of `options`, leaving out empty values. */
export function query(options) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** POST /v1/faces with the image's bytes as the body. */
export async function faces(blob, options, signal) {
  const response = await fetch(`v1/faces${query(options)}`, {
    method: 'POST', body: blob, signal,
    headers: { 'Content-Type': blob.type || 'application/octet-stream', Accept: 'application/json' },
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** POST /v1/contours; `accept` chooses JSON, SVG or PNG. Returns the response for its headers too. */
export async function contours(blob, options, accept, signal) {
  const response = await fetch(`v1/contours${query(options)}`, {
    method: 'POST', body: blob, signal,
    headers: { 'Content-Type': blob.type || 'application/octet-stream', Accept: accept },
  });
  if (!response.ok) throw await failure(response);
  return response;
}

/** The WebSocket URL of a path on this page's origin. */
export function socketURL(path) {
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** The curl command that makes the same request, for the page's "copy" box. */
export function curl(path, options, fileName, contentType, accept = 'application/json') {
  const url = new URL(path + query(options), window.location.href).href;
  const quote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;
  return `curl --data-binary @${quote(fileName)} -H ${quote(`Content-Type: ${contentType || 'application/octet-stream'}`)} `
    + `-H ${quote(`Accept: ${accept}`)} ${quote(url)}`;
}
