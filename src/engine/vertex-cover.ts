/**
 * Minimum vertex cover of a bipartite graph, the graph algorithm behind the choice of link
 * sides in batch.ts (König's theorem, from a maximum matching). Pure, knows no gateway.
 */

/**
 * A maximum matching of a bipartite graph (Hopcroft-Karp, iterative) and from it a minimum
 * vertex cover (König): `left[u]` / `right[v]` tell whether a vertex is in the cover.
 * Deterministic for a given adjacency order.
 */
export function minimumVertexCover(leftCount: number, rightCount: number, adjacency: readonly (readonly number[])[]): { left: boolean[]; right: boolean[] } {
  const FREE = -1;
  const INFINITE = Number.MAX_SAFE_INTEGER;
  const matchLeft = new Array<number>(leftCount).fill(FREE);
  const matchRight = new Array<number>(rightCount).fill(FREE);
  const dist = new Array<number>(leftCount).fill(INFINITE);
  const next = new Array<number>(leftCount).fill(0);
  const edges = (u: number): readonly number[] => adjacency[u] ?? [];

  const layer = (): boolean => {
    const queue: number[] = [];
    for (let u = 0; u < leftCount; u++) {
      if (matchLeft[u] === FREE) {
        dist[u] = 0;
        queue.push(u);
      } else dist[u] = INFINITE;
    }
    let found = false;
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head] ?? 0;
      for (const v of edges(u)) {
        const w = matchRight[v] ?? FREE;
        if (w === FREE) found = true;
        else if (dist[w] === INFINITE) {
          dist[w] = (dist[u] ?? 0) + 1;
          queue.push(w);
        }
      }
    }
    return found;
  };

  const augment = (root: number): boolean => {
    const stack = [root];
    const via: number[] = []; // via[k]: the right vertex that stack[k] is matched to if the path succeeds
    while (stack.length > 0) {
      const u = stack[stack.length - 1] ?? 0;
      const list = edges(u);
      const at = next[u] ?? 0;
      if (at >= list.length) {
        dist[u] = INFINITE;
        stack.pop();
        via.pop();
        continue;
      }
      next[u] = at + 1;
      const v = list[at] ?? 0;
      const w = matchRight[v] ?? FREE;
      if (w === FREE) {
        via.push(v);
        for (const [k, left] of stack.entries()) {
          const right = via[k] ?? 0;
          matchLeft[left] = right;
          matchRight[right] = left;
        }
        return true;
      }
      if (dist[w] === (dist[u] ?? 0) + 1) {
        via.push(v);
        stack.push(w);
      }
    }
    return false;
  };

  while (layer()) {
    next.fill(0);
    for (let u = 0; u < leftCount; u++) if (matchLeft[u] === FREE) augment(u);
  }

  // König: Z = vertices reachable from free left vertices by alternating paths; cover = (L \ Z) ∪ (R ∩ Z).
  const seenLeft = new Array<boolean>(leftCount).fill(false);
  const seenRight = new Array<boolean>(rightCount).fill(false);
  const queue: number[] = [];
  for (let u = 0; u < leftCount; u++) {
    if (matchLeft[u] === FREE) {
      seenLeft[u] = true;
      queue.push(u);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const v of edges(queue[head] ?? 0)) {
      if (seenRight[v]) continue;
      seenRight[v] = true;
      const w = matchRight[v] ?? FREE;
      if (w !== FREE && !seenLeft[w]) {
        seenLeft[w] = true;
        queue.push(w);
      }
    }
  }
  return { left: seenLeft.map((seen, u) => !seen && edges(u).length > 0), right: seenRight };
}
