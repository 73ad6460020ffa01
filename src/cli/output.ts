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
  flush(): void {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('\n') + '\n';
    this.parts = [];
    this.size = 0;
    let off = 0;
    const buf = Buffer.from(chunk, 'utf8');
    while (off < buf.length) {
      try {
        off += writeSync(this.fd, buf, off);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'EAGAIN') continue;
        if (code === 'EPIPE') process.exit(0);
        throw e;
      }
    }
  }
}
