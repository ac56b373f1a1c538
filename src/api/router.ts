// Matches a method and path to a route through a tree of path segments (`{name}` segments
// capture). A path that exists under another method is still ENDPOINT_NOT_FOUND (the spec has no
// 405), with a message that names the methods it does take.
import type { Route } from './types.ts';

interface Node {
  fixed: Map<string, Node>;
  param: { name: string; node: Node } | null;
  routes: Map<string, Route>;
}

const node = (): Node => ({ fixed: new Map(), param: null, routes: new Map() });

export type Match = { route: Route; params: Record<string, string> } | { route: null; allowed: string[] };

export class Router {
  private readonly root = node();

  constructor(routes: readonly Route[]) {
    for (const r of routes) {
      let at = this.root;
      for (const seg of r.path.split('/').slice(1)) {
        if (seg.startsWith('{')) {
          const name = seg.slice(1, -1);
          if (at.param && at.param.name !== name)
            throw new Error(`route ${r.path}: {${name}} clashes with {${at.param.name}}`);
          at.param ??= { name, node: node() };
          at = at.param.node;
        } else {
          const next = at.fixed.get(seg) ?? node();
          at.fixed.set(seg, next);
          at = next;
        }
      }
      if (at.routes.has(r.method)) throw new Error(`route ${r.method} ${r.path} is defined twice`);
      at.routes.set(r.method, r);
    }
  }

  /** The node of `path` (which starts with `/`), filling `params`; fixed segments win. */
  private find(path: string, params: Record<string, string> | null): Node | null {
    let at: Node = this.root;
    let start = 1;
    while (start <= path.length) {
      let end = path.indexOf('/', start);
      if (end === -1) end = path.length;
      const seg = path.slice(start, end);
      const fixed = at.fixed.get(seg);
      if (fixed) at = fixed;
      else if (at.param && seg !== '') {
        if (params) params[at.param.name] = seg;
        at = at.param.node;
      } else return null;
      start = end + 1;
    }
    return at;
  }

  /** What a body on this method and path would be, without capturing parameters. */
  bodyKind(method: string, path: string): Route['body'] | undefined {
    return this.find(path, null)?.routes.get(method)?.body;
  }

  /** HEAD is answered by the GET route (the server sends its headers without the body). */
  match(method: string, path: string): Match {
    const params: Record<string, string> = {};
    const at = this.find(path, params);
    const route = at?.routes.get(method === 'HEAD' ? 'GET' : method);
    if (route) return { route, params };
    return { route: null, allowed: at ? [...at.routes.keys()] : [] };
  }
}
