// Preload (node --require interop/loopback.cjs) for official servers the tests start over HTTP: server-everything
// calls app.listen(PORT) with no host, which binds every interface; a test server has no business being reachable
// from the network, so a listen() given a port but no host gets 127.0.0.1. Sockets, pipes and explicit hosts are
// left alone.
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const first = args[0];
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] !== 'string') {
      args.splice(1, 0, '127.0.0.1'); // listen(port[, backlog][, callback]) -> listen(port, host, ...)
    }
  } else if (first !== null && typeof first === 'object' && first.port !== undefined && first.host === undefined) {
    args[0] = { ...first, host: '127.0.0.1' }; // listen({ port }) -> listen({ port, host })
  }
  return listen.apply(this, args);
};
