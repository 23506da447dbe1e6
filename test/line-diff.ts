/**
 * A line diff for layout tests: the lines removed (`- `) and added (`+ `) between two texts, by Myers' algorithm
 * (O((N+M)·D), so cheap for the few-line changes an in-place edit makes). Lines are split on `\n` only, so a line
 * ending changed from CRLF shows as a changed line. Beyond `limit` changed lines it gives up: undefined.
 */
export function lineDiff(before: string, after: string, limit = 200): string[] | undefined {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[k - 1 + offset]! < v[k + 1 + offset]!) ? v[k + 1 + offset]! : v[k - 1 + offset]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + offset] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d, offset);
    }
  }
  return undefined;
}

function backtrack(a: string[], b: string[], trace: Int32Array[], steps: number, offset: number): string[] {
  const out: string[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = steps; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[k - 1 + offset]! < v[k + 1 + offset]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[previousK + offset]!;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
    }
    out.push(down ? `+ ${b[previousY]}` : `- ${a[previousX]}`);
    x = previousX;
    y = previousY;
  }
  return out.reverse();
}
