// Matches a method and path to a route through a tree of path segments (`{name}` segments
// capture). A path that exists under another method is still ENDPOINT_NOT_FOUND (the spec has no
// 405), with a message that names the methods it does take.
/** What the router needs of a route: the handler's type is the caller's business. */
export interface RouteShape {
  method: string;
  path: string;
  /** What the body is: nothing, JSON (a batch's larger), an image's bytes, or a font file's. */
  body: 'none' | 'json' | 'batch' | 'image' | 'font';
}

interface Node<R> {
  fixed: Map<string, Node<R>>;
  param: { name: string; node: Node<R> } | null;
  routes: Map<string, R>;
}

const node = <R>(): Node<R> => ({ fixed: new Map(), param: null, routes: new Map() });

export type Match<R> = { route: R; params: Record<string, string> } | { route: null; allowed: string[] };

export class Router<R extends RouteShape> {
  private readonly root = node<R>();

  constructor(routes: readonly R[]) {
    for (const r of routes) {
      let at = this.root;
      for (const seg of r.path.split('/').slice(1)) {
        if (seg.startsWith('{')) {
          const name = seg.slice(1, -1);
          if (at.param && at.param.name !== name)
            throw new Error(`route ${r.path}: {${name}} clashes with {${at.param.name}}`);
          at.param ??= { name, node: node<R>() };
          at = at.param.node;
        } else {
          const next = at.fixed.get(seg) ?? node<R>();
          at.fixed.set(seg, next);
          at = next;
        }
      }
      if (at.routes.has(r.method)) throw new Error(`route ${r.method} ${r.path} is defined twice`);
      at.routes.set(r.method, r);
    }
  }

  /** The node of `path` (which starts with `/`), filling `params`; fixed segments win. */
  private find(path: string, params: Record<string, string> | null): Node<R> | null {
    let at: Node<R> = this.root;
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
  bodyKind(method: string, path: string): R['body'] | undefined {
    return this.find(path, null)?.routes.get(method)?.body;
  }

  /** HEAD is answered by the GET route (the server sends its headers without the body). */
  match(method: string, path: string): Match<R> {
    const params: Record<string, string> = {};
    const at = this.find(path, params);
    const route = at?.routes.get(method === 'HEAD' ? 'GET' : method);
    if (route) return { route, params };
    return { route: null, allowed: at ? [...at.routes.keys()] : [] };
  }
}
