// The ceiling for bench/http.ts: uWebSockets.js answering "Hello World!" with no work at all.
const uWS = require('uWebSockets.js');
uWS
  .App()
  .any('/*', (res) => res.end('Hello World!'))
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write(`listening on ${uWS.us_socket_local_port(socket)}\n`);
  });
