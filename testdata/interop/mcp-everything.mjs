// Runs the MCP reference server "everything" (@modelcontextprotocol/server-everything,
// built on the official TypeScript SDK) over Streamable HTTP on 127.0.0.1 only,
// on the port given (0: any free one), and prints "listening PORT" once it is.
// The server itself listens on every interface; this holds it to loopback.
// Usage: node mcp-everything.mjs PORT
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (port, ...rest) {
  if (typeof port === 'number' || typeof port === 'string') {
    const cb = rest.find((a) => typeof a === 'function');
    this.once('listening', () => console.log('listening ' + this.address().port));
    return cb ? listen.call(this, Number(port), '127.0.0.1', cb) : listen.call(this, Number(port), '127.0.0.1');
  }
  return listen.call(this, port, ...rest);
};
process.env.PORT = process.argv[2] ?? '0';
await import('@modelcontextprotocol/server-everything/dist/transports/streamableHttp.js');
