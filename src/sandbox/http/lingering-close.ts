// Lingering close, as nginx does it: an answer sent while the request's body is still unread (a body over the
// limit, or one refused before it was read) ends the connection, and closing the socket at once, with the
// client's bytes unread, makes the kernel reset the connection; a reset can discard the answer before a client
// that writes its whole body before reading has read it. Instead the sandbox closes its writing side once the
// answer is sent, reads and discards what still arrives for at most LINGER_MS and LINGER_BYTES, and closes when
// the client closes its side or either bound is passed: a client that sends a body of up to LINGER_BYTES always
// reads the answer; past that it may meet the reset, as with nginx.
import type { Socket } from 'node:net';

/** How long the sandbox goes on reading a refused body after answering, at most (ms). */
const LINGER_MS = 5_000;
/** How many more bytes of a refused body it reads and discards, at most. */
const LINGER_BYTES = 8 * 1024 * 1024;
/** How often the bytes read are looked at while lingering (ms). */
const LOOK_MS = 100;

/**
 * Makes node:http's closing of `socket` after the answer (`destroySoon`, which node:http calls once the answer
 * of a request with `Connection: close` is sent) a lingering close. node:http's parser goes on reading and
 * discarding the request's body meanwhile.
 */
export function lingerBeforeClosing(socket: Socket): void {
  if (socket.destroyed) return;
  socket.destroySoon = () => {
    const from = socket.bytesRead;
    const started = Date.now();
    const close = () => {
      clearInterval(look);
      socket.destroy();
    };
    const look = setInterval(() => {
      if (socket.bytesRead - from > LINGER_BYTES || Date.now() - started > LINGER_MS) close();
    }, LOOK_MS);
    look.unref();
    socket.once('end', close);
    socket.once('close', () => clearInterval(look));
    socket.end();
  };
}
