// Buffered synchronous stdout: output is written in large chunks; a closed pipe (e.g. `| head`)
// ends the process quietly. Text is written as latin1 (one byte per character).
import { writeSync } from 'node:fs';
import { ByteSink } from './listing-format.js';

function writeAll(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EPIPE') process.exit(0);
      throw e;
    }
  }
}

export class Output {
  /** Formatters write into this directly. */
  readonly sink: ByteSink;
  constructor(private readonly fd = 1) {
    this.sink = new ByteSink((chunk) => writeAll(this.fd, chunk), true);
  }
  line(s: string): void {
    this.sink.reserve(s.length + 1);
    this.sink.str(s);
    this.sink.byte(0x0a);
  }
  /** Bytes of whole lines, written after everything before them. */
  bytes(b: Uint8Array): void {
    this.sink.flush();
    writeAll(this.fd, b);
  }
  flush(): void {
    this.sink.flush();
  }
}
