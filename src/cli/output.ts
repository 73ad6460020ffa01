// Buffered synchronous stdout: large outputs are written in big chunks; a closed pipe
// (e.g. `| head`) ends the process quietly.
import { writeSync } from 'node:fs';

export class Output {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly fd = 1, private readonly limit = 1 << 16) {}
  line(s: string): void {
    this.parts.push(s);
    this.size += s.length + 1;
    if (this.size >= this.limit) this.flush();
  }
  /** Bytes of whole lines (each ending in a newline). */
  bytes(b: Uint8Array): void {
    this.flush();
    this.writeBytes(b);
  }
  flush(): void {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('\n') + '\n';
    this.parts = [];
    this.size = 0;
    this.write(chunk);
  }
  private write(chunk: string): void {
    // latin1: one byte per character, so names read from a file come out as the bytes they were.
    this.writeBytes(Buffer.from(chunk, 'latin1'));
  }
  private writeBytes(buf: Uint8Array): void {
    let off = 0;
    while (off < buf.length) {
      try {
        off += writeSync(this.fd, buf, off, buf.length - off);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'EAGAIN') continue;
        if (code === 'EPIPE') process.exit(0);
        throw e;
      }
    }
  }
}
